import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';

export const PULLED_SCHEME = 'custom-actions-pulled';
const KEEP = 50;

/**
 * The server's version of a file a pull would replace, as a read-only document for `vscode.diff`:
 * the user compares before anything local is replaced. Held in a bounded map, like event documents.
 * One per extension host (Services.serverVersions): a second provider of the scheme would answer for it.
 */
export class ServerVersions extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(PULLED_SCHEME, this));
  }

  /** A new URI for `text`, named after the local file it would replace. */
  hold(local: vscode.Uri, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PULLED_SCHEME, path: local.path, query: String(++this.counter) });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > KEEP) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '// This version from the server is no longer held: compare again.\n';
  }
}
