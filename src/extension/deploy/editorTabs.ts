import * as vscode from 'vscode';
import { sameUri } from './locate';

/**
 * Whether a document is open in an editor tab (text, the metadata form, or a diff). A save of a file
 * no editor shows comes from a tool (a bulk replace, a refactoring saving what it touched), not from
 * the user in the editor, and pushes nothing.
 */
export function isInEditorTab(uri: vscode.Uri): boolean {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if ((input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) && sameUri(input.uri, uri)) return true;
      if (input instanceof vscode.TabInputTextDiff && sameUri(input.modified, uri)) return true;
    }
  }
  return false;
}
