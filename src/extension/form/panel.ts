import * as vscode from 'vscode';
import { type Parts } from '../parts';
import { formHtml, formResourceRoots } from './html';
import { FormSession } from './session';
import { METADATA_EDITOR_VIEW_TYPE } from './viewType';

/** The form in a panel VS Code opened on an action.yaml: its page, and the session that keeps it and the document in step. */
export function openMetadataForm(services: Pick<Parts, 'context' | 'log'>, document: vscode.TextDocument, panel: vscode.WebviewPanel): void {
  const extensionUri = services.context.extensionUri;
  panel.webview.options = { enableScripts: true, localResourceRoots: formResourceRoots(extensionUri) };
  panel.webview.html = formHtml(panel.webview, extensionUri, vscode.workspace.asRelativePath(document.uri));
  const session = new FormSession(document, panel.webview, {
    log: services.log,
    openText: () => reopenAsText(document.uri, panel),
  });
  // A hidden form is discarded (its context is not kept): a save meanwhile has no form to ask.
  const visibility = panel.onDidChangeViewState(() => panel.visible || session.hidden());
  panel.onDidDispose(() => {
    visibility.dispose();
    session.dispose();
  });
}

/** Replaces the form's tab with a text editor on the same document (no save prompt: the document stays open). */
async function reopenAsText(uri: vscode.Uri, panel: vscode.WebviewPanel): Promise<void> {
  const column = panel.viewColumn;
  await vscode.commands.executeCommand('vscode.openWith', uri, 'default', { viewColumn: column, preview: false });
  const tabs = vscode.window.tabGroups.all.flatMap((group) => (group.viewColumn === column ? group.tabs : []));
  const form = tabs.filter(
    (tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType === METADATA_EDITOR_VIEW_TYPE && tab.input.uri.toString() === uri.toString(),
  );
  if (form.length > 0) await vscode.window.tabGroups.close(form);
}
