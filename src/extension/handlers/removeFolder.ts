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

/**
 * Closes the editors of files inside a folder that was deleted, which would otherwise go on showing
 * them (the metadata form saying they can be pushed). An editor with unsaved changes stays: they are
 * the user's to keep or drop.
 */
export async function closeEditorsIn(folder: vscode.Uri): Promise<void> {
  const inside = (uri: vscode.Uri) =>
    uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(`${folder.path.replace(/\/$/, '')}/`);
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => !tab.isDirty && urisOf(tab.input).some(inside));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

function urisOf(input: unknown): vscode.Uri[] {
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputNotebook) return [input.uri];
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return [input.original, input.modified];
  return [];
}
