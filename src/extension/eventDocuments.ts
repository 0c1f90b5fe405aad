import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

export const EVENT_SCHEME = 'custom-actions-event';
const KEEP = 200;

/**
 * Events open as read-only JSON documents. Content providers give read-only editors for free, and
 * the documents are held in a bounded map so opening many events does not grow memory without end.
 */
export class EventDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly documents = new Map<string, string>();

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(EVENT_SCHEME, this));
  }

  async open(path: readonly string[], raw: unknown): Promise<void> {
    const uri = vscode.Uri.from({ scheme: EVENT_SCHEME, path: '/' + path.map(encodeURIComponent).join('/') + '.json' });
    this.documents.delete(uri.toString());
    this.documents.set(uri.toString(), JSON.stringify(raw, null, 2) + '\n');
    while (this.documents.size > KEEP) this.documents.delete(this.documents.keys().next().value as string);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'json');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString()) ?? '// This event is no longer held in memory: open it again from the tree.\n';
  }
}
