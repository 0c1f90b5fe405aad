import * as vscode from 'vscode';
import { actionFolderForServerKey, checkServerKey, directChildPath } from '../../core/workspace';
import { type ActionEntry } from '../model';

export type PullTarget = { readonly ok: true; readonly folder: vscode.Uri } | { readonly ok: false; readonly reason: string };

/**
 * The folder a pull writes into: the action's local folder when it has one, else the folder its
 * server key names. Either way a direct child of the application's folder, checked after
 * normalisation (src/core/workspace/actionFolder.ts); a server key that is not a valid key names nothing.
 */
export function pullTarget(action: ActionEntry): PullTarget {
  const app = action.app;
  if (action.state === 'invalid') return { ok: false, reason: action.change ?? 'the key is not valid' };
  const key = checkServerKey(action.remote?.key);
  if (!key.ok) return key;
  if (action.local) {
    const name = action.local.folder.path.split('/').pop() ?? '';
    const path = directChildPath(app.folderUri.path, name);
    return path === action.local.folder.path
      ? { ok: true, folder: action.local.folder }
      : { ok: false, reason: "its folder is not directly inside the application's folder" };
  }
  const checked = actionFolderForServerKey(app.folderUri.path, action.remote?.key);
  return checked.ok ? { ok: true, folder: app.folderUri.with({ path: checked.path }) } : checked;
}

/**
 * Why writing to `uri` could land somewhere else than it says: a symbolic link (to a folder or a file)
 * is followed by a write, so a link planted in the workspace would send the server's text elsewhere.
 * Undefined when `uri` is absent or a plain file or folder.
 */
export async function linkAt(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    return (stat.type & vscode.FileType.SymbolicLink) !== 0 ? `${uri.path.split('/').pop() ?? ''} is a symbolic link` : undefined;
  } catch {
    return undefined;
  }
}
