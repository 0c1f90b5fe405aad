import * as vscode from 'vscode';
import { MAIN_FILE } from '../../core/workspace';
import { EVENT_SCHEME, type EventDocuments } from '../eventDocuments';
import { type Services } from '../services';

/** `main.ts:12:5` as stack frames print it (a path before it, or none). */
const FRAME = /(?:[\w.\-/\\:]*[/\\])?main\.ts:(\d{1,7})(?::(\d{1,7}))?/g;

/**
 * Stack frames of an event that point into main.ts become links to those lines of THAT action's
 * main.ts. The server's text chooses only a line and column, checked against the file: the link's
 * target is built here, never taken from the text.
 */
export class EventStackLinks implements vscode.DocumentLinkProvider {
  constructor(
    private readonly s: Services,
    private readonly documents: EventDocuments,
  ) {}

  async provideDocumentLinks(document: vscode.TextDocument): Promise<vscode.DocumentLink[]> {
    if (document.uri.scheme !== EVENT_SCHEME) return [];
    const shown = this.documents.eventAt(document.uri);
    if (!shown) return [];
    const local = (await this.s.model.localAction(shown.path[0] ?? '', shown.path[1] ?? ''))?.action;
    if (!local) return [];
    const main = vscode.Uri.joinPath(local.folder, MAIN_FILE);
    let lineCount: number;
    try {
      lineCount = (await vscode.workspace.openTextDocument(main)).lineCount;
    } catch {
      return [];
    }
    const links: vscode.DocumentLink[] = [];
    const text = document.getText();
    for (const match of text.matchAll(FRAME)) {
      const line = Number(match[1]);
      const column = match[2] === undefined ? 1 : Number(match[2]);
      if (!Number.isInteger(line) || line < 1 || line > lineCount || column < 1) continue;
      const start = document.positionAt(match.index);
      const range = new vscode.Range(start, document.positionAt(match.index + match[0].length));
      const link = new vscode.DocumentLink(range, main.with({ fragment: `L${line},${column}` }));
      link.tooltip = `Open ${MAIN_FILE} at line ${line}`;
      links.push(link);
    }
    return links;
  }
}
