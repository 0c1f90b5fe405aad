/**
 * Which server action a folder is when its key was changed in it: the one rule of both faces (the
 * editor's save and tree, the command line's deploy, status and check; docs/deploy.md, *A key changed
 * in its folder*). The server keeps one action per key, so a folder is matched by its key first; a
 * folder whose key the server does not list is the action the lock recorded for that folder, when the
 * server still lists that id under a key no folder declares: the key was changed here, and the next
 * deploy renames the action rather than making a second one beside it.
 */
import { actionFolderName } from '../workspace/layout';
import { type LockEntry } from './lock';

/** A workspace action as the rule reads it: its key and its folder's name in its application's folder. */
export interface FolderKey {
  readonly key: string;
  readonly folderName: string;
}

/** The folder an entry of the lock is of: its own, else the one named by its key (`actionFolderName`, as New Action and Pull name folders). */
export function lockedFolder(entry: LockEntry): string {
  return entry.folder ?? actionFolderName(entry.key);
}

/**
 * The server's action of each folder whose key was changed in it (the rule above), with the key the
 * server lists it under. A server action goes to one folder at most; a folder that shares its key
 * with another is no action of its own (`sharedKeys`) and is left to that rule.
 */
export function renamedActions<L extends FolderKey, R extends { readonly id: string; readonly key: string }>(
  local: readonly L[],
  listed: readonly R[],
  locked: readonly LockEntry[],
): Map<L, R> {
  const listedKeys = new Set(listed.map((r) => r.key));
  const declared = new Set(local.map((l) => l.key));
  const byId = new Map(listed.map((r) => [r.id, r]));
  const byFolder = new Map<string, LockEntry>();
  for (const entry of locked) if (!byFolder.has(lockedFolder(entry))) byFolder.set(lockedFolder(entry), entry);
  const found = new Map<L, R>();
  const claimed = new Set<string>();
  for (const l of local) {
    if (listedKeys.has(l.key)) continue;
    const entry = byFolder.get(l.folderName);
    const r = entry && entry.key !== l.key ? byId.get(entry.id) : undefined;
    if (!r || declared.has(r.key) || claimed.has(r.id)) continue;
    claimed.add(r.id);
    found.set(l, r);
  }
  return found;
}

/** What both faces say of an action whose key was changed in its folder: the key the server lists it under. */
export function keyChangedNote(serverKey: string): string {
  return `key changed here (server: ${serverKey})`;
}
