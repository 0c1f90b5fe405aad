import * as vscode from 'vscode';
import { pullFolder } from '../../core/deploy/pull';
import { type ActionEntry } from '../model';

export type PullTarget = { readonly ok: true; readonly folder: vscode.Uri } | { readonly ok: false; readonly reason: string };

/**
 * The folder a pull writes into, by the core's rule (`pullFolder`, src/core/deploy/pull.ts), which the
 * command line's pull follows too; a row the model found invalid names nothing.
 */
export function pullTarget(action: ActionEntry): PullTarget {
  const app = action.app;
  if (action.state === 'invalid') return { ok: false, reason: action.change ?? 'the key is not valid' };
  const sharedBy = (action.sharedBy ?? []).map((l) => vscode.workspace.asRelativePath(l.file, false));
  const folder = pullFolder(app.folderUri.path, action.remote?.key, action.local?.folder.path, sharedBy);
  return folder.ok ? { ok: true, folder: action.local?.folder ?? app.folderUri.with({ path: folder.path }) } : folder;
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
