import * as vscode from 'vscode';
import { normalizeEvent } from '../core/client';
import { eventDocumentText, eventTitle } from '../core/eventDocument';
import { Disposable } from './lifecycle';

export const EVENT_SCHEME = 'custom-actions-event';
const KEEP = 200;

/**
 * Events open as read-only JSON-with-comments documents: the server's JSON, the channel's summary on
 * top and readable times beside the raw ones. Content providers give read-only editors for free, and
 * the documents are held in a bounded map so opening many events does not grow memory without end.
 */
export class EventDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly documents = new Map<string, string>();
  /** What each open document was made from, for the commands on it (Debug Event, Save as Input Set). */
  private readonly sources = new Map<string, { readonly path: readonly string[]; readonly raw: unknown }>();

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(EVENT_SCHEME, this));
  }

  /** `path` is [application id, action key, environment, event id]; `raw` the event as the server sent it. */
  async open(path: readonly string[], raw: unknown): Promise<void> {
    const [applicationId = '', actionKey = '', environment = '', eventId = ''] = path;
    const event = normalizeEvent(raw);
    const context = { actionKey, environment };
    // The tab shows the last segment of the path, so that is the readable title; the query keeps two
    // events of the same second apart. A slash from a server's key must not make a folder of it.
    const title = eventTitle(event, context).replace(/[/\\]/g, '_');
    const uri = vscode.Uri.from({
      scheme: EVENT_SCHEME,
      path: `/${encodeURIComponent(applicationId)}/${title}`,
      query: `event=${encodeURIComponent(eventId || event.id)}`,
    });
    this.documents.delete(uri.toString());
    this.documents.set(uri.toString(), eventDocumentText(event, context));
    this.sources.set(uri.toString(), { path, raw });
    while (this.documents.size > KEEP) {
      const oldest = this.documents.keys().next().value as string;
      this.documents.delete(oldest);
      this.sources.delete(oldest);
    }
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'jsonc');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  /** The event an event document shows: its path ([application id, action key, environment, event id]) and the server's JSON. */
  eventAt(uri: vscode.Uri): { readonly path: readonly string[]; readonly raw: unknown } | undefined {
    return this.sources.get(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString()) ?? '// This event is no longer held in memory: open it again from the tree.\n';
  }
}
