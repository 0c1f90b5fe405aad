import * as vscode from 'vscode';
import { mainFrames } from '../../core/events';
import { MAIN_FILE } from '../../core/workspace';
import { EVENT_SCHEME, type EventDocuments } from '../eventDocuments';
import { type Parts } from '../parts';

/**
 * Stack frames of an event that point into main.ts become links to those lines of THAT action's
 * main.ts. The server's text chooses only a line and column, checked against the file: the link's
 * target is built here, never taken from the text.
 */
export class EventStackLinks implements vscode.DocumentLinkProvider {
  constructor(
    private readonly s: Pick<Parts, 'model'>,
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
    for (const { index, length, line, column } of mainFrames(text)) {
      if (line > lineCount) continue;
      const range = new vscode.Range(document.positionAt(index), document.positionAt(index + length));
      const link = new vscode.DocumentLink(range, main.with({ fragment: `L${line},${column}` }));
      link.tooltip = `Open ${MAIN_FILE} at line ${line}`;
      links.push(link);
    }
    return links;
  }
}
