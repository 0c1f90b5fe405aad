import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { openDocument, savedText } from './locate';
import { PerFileDebounce } from '../perFileDebounce';

/** Diagnostics come in bursts (syntax, then semantics, then ours): one look after they settle. */
const SETTLE_MS = 250;

/**
 * Auto-saves refused for errors, looked at again when the diagnostics of their file change: errors
 * that came from another file (action.yaml, the generated types) can go away with no edit of this
 * one, and with nothing left to save, nothing else would push it. Only quiet refusals come here; one
 * told in a notification is never followed by a push of the same text. Only text that is still what
 * the file holds is pushed: an edit since waits for its own save.
 */
export class RefusedSaves extends Disposable {
  private readonly refused = new Map<string, string>();
  private readonly debounce = this.register(new PerFileDebounce((uri) => void this.recheck(uri)));

  constructor(
    private readonly push: (uri: vscode.Uri, text: string) => Promise<unknown>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.register(
      vscode.languages.onDidChangeDiagnostics((e) => {
        for (const uri of e.uris) if (this.refused.has(uri.toString())) this.debounce.schedule(uri, SETTLE_MS);
      }),
    );
  }

  remember(uri: vscode.Uri, text: string): void {
    this.refused.set(uri.toString(), text);
  }

  forget(uri: vscode.Uri): void {
    this.refused.delete(uri.toString());
  }

  private async recheck(uri: vscode.Uri): Promise<void> {
    const text = this.refused.get(uri.toString());
    if (text === undefined) return;
    this.refused.delete(uri.toString());
    const open = openDocument(uri);
    if (open?.isDirty) return;
    if ((open ? open.getText() : await savedText(uri)) !== text) return;
    this.log.info(`The diagnostics of ${uri.path} changed since its save was refused: checking it again.`);
    await this.push(uri, text).catch((error: unknown) => this.log.error(`Checking ${uri.path} again: ${String(error)}`));
  }
}
