import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/** The server's version of a file, beside the local one in a diff (Pull, conflicts, deploy history). */
export const PULLED_SCHEME = 'custom-actions-pulled';
/** A local run's outcome and the recorded one it is compared with (Debug). */
export const RUN_SCHEME = 'custom-actions-local-run';
/** A plan shown before it is carried out (Promote's plan and diff). */
export const PLAN_SCHEME = 'custom-actions-plan';
const KEEP = 50;

/**
 * Texts shown as read-only documents, for `vscode.diff` and Open Result: held in a bounded map, the
 * oldest forgotten first. One per scheme and extension host (Services.serverVersions, Services.runResults, Services.plans):
 * a second provider of a scheme would answer for it.
 */
export class HeldTexts extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  /** `gone`: what a document shows once its text has been forgotten, or after a reload. */
  constructor(
    readonly scheme: string,
    private readonly gone: string,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
  }

  /** A new URI for `text`; `path` names its tab (the local file it is compared with, or the run). */
  hold(path: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: this.scheme, path, query: String(++this.counter) });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > KEEP) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? this.gone;
  }
}
