import * as vscode from 'vscode';

/** What became of an action folder the user asked to remove. */
export type FolderRemoval = 'trashed' | 'deleted' | 'kept';

export const DELETE_PERMANENTLY = 'Delete Permanently';

/**
 * Moves an action folder to the trash, or, where the file system has none (VS Code for the Web,
 * code-server's remote file system, file systems of other extensions), deletes it for good once the
 * user agrees in a modal that says it cannot be undone. VS Code offers no way to ask a file system
 * whether it has a trash, so the trash is tried first and its refusal is the answer.
 */
export async function removeActionFolder(folder: vscode.Uri, key: string): Promise<FolderRemoval> {
  try {
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: true });
    return 'trashed';
  } catch (error) {
    const choice = await vscode.window.showWarningMessage(
      `The folder of "${key}" cannot be moved to the trash here. Delete it permanently?`,
      {
        modal: true,
        detail: `${vscode.workspace.asRelativePath(folder)} and everything in it will be deleted. This cannot be undone.\n\n(${reason(error)})`,
      },
      DELETE_PERMANENTLY,
    );
    if (choice !== DELETE_PERMANENTLY) return 'kept';
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    return 'deleted';
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
