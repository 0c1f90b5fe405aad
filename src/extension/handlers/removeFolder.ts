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
    if (!(await deleteThroughWorkbench(folder, log))) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    return 'deleted';
  }
}

/**
 * Deletes a folder for good the way the Explorer does, as a workspace edit, so that the workbench lets
 * go of the documents of its files. An extension that opened one (`workspace.openTextDocument`, or
 * `window.showTextDocument` given a URI) leaves VS Code holding it open for three minutes after its
 * editor closed, and lets go earlier only when the file is deleted or moved through the workbench;
 * `workspace.fs.delete` is not. A document held open stays open in the TypeScript server too, which
 * goes on listing its problems in the Problems panel though the file is gone (issue #36: the first
 * hour's Delete). Unsaved changes would be dropped without a word by the workbench's delete: with any
 * under the folder, or should the edit be refused, false, and the caller deletes through
 * `workspace.fs`, which leaves those editors open with their text.
 */
async function deleteThroughWorkbench(folder: vscode.Uri, log?: Pick<vscode.LogOutputChannel, 'info'>): Promise<boolean> {
  if (vscode.workspace.textDocuments.some((d) => d.isDirty && isUnder(folder, d.uri))) return false;
  const edit = new vscode.WorkspaceEdit();
  edit.deleteFile(folder, { recursive: true, ignoreIfNotExists: true });
  try {
    if (await vscode.workspace.applyEdit(edit)) return !(await stillThere(folder));
  } catch (error) {
    log?.info(
      `The folder ${vscode.workspace.asRelativePath(folder)} could not be deleted as a workspace edit: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return false;
}

/** Whether `uri` is a file inside `folder` (same file system). */
export function isUnder(folder: vscode.Uri, uri: vscode.Uri): boolean {
  return uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(`${folder.path.replace(/\/$/, '')}/`);
}

export async function stillThere(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
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
  const inside = (uri: vscode.Uri) => isUnder(folder, uri);
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
