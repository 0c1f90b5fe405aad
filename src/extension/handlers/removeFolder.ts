import * as vscode from 'vscode';

/** What became of an action folder the user asked to remove. */
export type FolderRemoval = 'trashed' | 'deleted' | 'kept';

export const DELETE_PERMANENTLY = 'Delete Permanently';

/**
 * Moves an action folder to the trash, or, where the file system has none (VS Code for the Web,
 * code-server's remote file system, file systems of other extensions), deletes it for good once the
 * user agrees in a modal that says it cannot be undone. VS Code offers no way to ask a file system
 * whether it has a trash, so the trash is tried first and its refusal is the answer. The refusal's own
 * words name the file system's address scheme (`vscode-remote://…`): they go to the log, not the dialog.
 * The caller checks first that the folder is inside the workspace (`assertInsideWorkspace`, as Delete does).
 */
export async function removeActionFolder(folder: vscode.Uri, key: string, log?: Pick<vscode.LogOutputChannel, 'info'>): Promise<FolderRemoval> {
  try {
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: true });
    return 'trashed';
  } catch (error) {
    log?.info(`The folder of ${key} could not be moved to the trash: ${error instanceof Error ? error.message : String(error)}`);
    const choice = await vscode.window.showWarningMessage(
      `The folder of "${key}" cannot be moved to the trash here. Delete it permanently?`,
      {
        modal: true,
        detail: `${vscode.workspace.asRelativePath(folder)} and everything in it will be deleted. This folder's file system has no trash, so it cannot be restored once deleted.`,
      },
      DELETE_PERMANENTLY,
    );
    if (choice !== DELETE_PERMANENTLY) return 'kept';
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    return 'deleted';
  }
}

/** How long the documents of closed tabs are waited for: VS Code closes them a moment after their tabs. */
const DOCUMENTS_CLOSE_MS = 3_000;

/**
 * Closes the editors of files inside a folder about to be deleted (or just deleted), which would
 * otherwise go on showing them (the metadata form saying they can be pushed), and waits until their
 * documents are closed. Closed before the files go, the TypeScript server hears that main.ts is
 * closed while its generated types still exist: it reports nothing more for it, and drops what it
 * had reported. Deleted while open, the files' vanishing makes it check main.ts again, and a result
 * that arrives after the close is listed in the Problems panel for a file that no longer exists.
 * An editor with unsaved changes stays: they are the user's to keep or drop. Resolves to what opens
 * the closed editors again, should the folder stay after all.
 */
export async function closeEditorsIn(folder: vscode.Uri): Promise<() => Promise<void>> {
  const inside = (uri: vscode.Uri) =>
    uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(`${folder.path.replace(/\/$/, '')}/`);
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => !tab.isDirty && urisOf(tab.input).some(inside));
  if (tabs.length === 0) return () => Promise.resolve();
  const reopen = async () => {
    for (const tab of tabs) {
      if (tab.input instanceof vscode.TabInputCustom)
        await vscode.commands.executeCommand('vscode.openWith', tab.input.uri, tab.input.viewType, { preview: false });
      else if (tab.input instanceof vscode.TabInputText) await vscode.window.showTextDocument(tab.input.uri, { preview: false });
    }
  };
  const closing = new Set(tabs.flatMap((tab) => urisOf(tab.input)).map((uri) => uri.toString()));
  const stillOpen = () => vscode.workspace.textDocuments.some((d) => closing.has(d.uri.toString()) && !d.isDirty);
  let closed: vscode.Disposable | undefined;
  let timer: NodeJS.Timeout | undefined;
  const documentsClosed = new Promise<void>((resolve) => {
    closed = vscode.workspace.onDidCloseTextDocument(() => {
      if (!stillOpen()) resolve();
    });
    timer = setTimeout(resolve, DOCUMENTS_CLOSE_MS);
  });
  try {
    await vscode.window.tabGroups.close(tabs, true);
    if (stillOpen()) await documentsClosed;
  } finally {
    closed?.dispose();
    clearTimeout(timer);
  }
  return reopen;
}

function urisOf(input: unknown): vscode.Uri[] {
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputNotebook) return [input.uri];
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return [input.original, input.modified];
  return [];
}
