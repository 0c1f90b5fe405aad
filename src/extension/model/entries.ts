import { type CustomActionsClient } from '../../core/client';
import { type LockEntry } from '../../core/deploy/lock';
import { keyChangedNote, renamedActions } from '../../core/deploy/renamed';
import { checkServerKey, sharedKeys } from '../../core/workspace';
import { type LocalAction } from '../localActions';
import { type Application } from '../project';
import { folderNameOf } from './locate';

export type RemoteAction = Awaited<ReturnType<CustomActionsClient['listActions']>>[number];

/**
 * - synced: in the workspace and on the server, same key and name
 * - local: only in the workspace, not created yet
 * - remote: only on the server; the list carries no parameters or result, so pulling needs the server's extra GET
 * - changed: on both, but the name (or, by the recorded id, the key) differs locally
 * - invalid: on the server under a key that is not a valid key (`../x`, `a/`): it names no folder,
 *   so it is never matched with a local action and cannot be pulled
 * - shared: a folder whose key another folder of the application declares too (the core's
 *   `sharedKeys`): which of them the server's action is would be a guess, so none is matched with it
 *   and none is deployed
 */
export type ActionState = 'synced' | 'local' | 'remote' | 'changed' | 'invalid' | 'shared';

/** One action of an application as the model knows it: its folder, the server's entry, or both. */
export interface ActionEntry {
  readonly app: Application;
  readonly key: string;
  readonly local: LocalAction | undefined;
  readonly remote: RemoteAction | undefined;
  readonly state: ActionState;
  /** Why the state is `changed`, or `invalid`. */
  readonly change?: string;
  /** The server's version changed since this workspace last pulled or pushed it (someone else deployed). */
  readonly outOfStep?: boolean;
  /** A server's action whose key several folders declare (their rows are `shared`): pulled nowhere. */
  readonly sharedBy?: readonly LocalAction[];
}

/**
 * The workspace's folders and the server's list, matched by key, or by the lock's folder when the key
 * was changed in it (the core's `renamedActions`, the command line's rule).
 */
export function mergeActions(app: Application, local: readonly LocalAction[], listed: readonly RemoteAction[], locked: readonly LockEntry[]): ActionEntry[] {
  const { remote, invalid } = screenListed(listed);
  const remoteByKey = new Map(remote.map((r) => [r.key, r]));
  const claimed = new Set<string>();
  const entries: ActionEntry[] = [];
  const shared = sharedKeys(local);
  const renamed = renamedActions(
    local.map((l) => ({ key: l.key, folderName: folderNameOf(l.folder), local: l })),
    remote,
    locked,
  );
  const renamedOf = new Map([...renamed].map(([l, r]) => [l.local, r]));
  for (const l of local) {
    const group = shared.get(l);
    if (group) {
      const others = group.slice(1).map((other) => other.folder.path.split('/').pop() ?? '');
      entries.push({ app, key: l.key, local: l, remote: undefined, state: 'shared', change: `key also declared in ${others.join(', ')}` });
      continue;
    }
    let r = remoteByKey.get(l.key);
    let change: string | undefined;
    if (!r) {
      // The lock's action of this folder, whose key it no longer carries: the key changed here.
      r = renamedOf.get(l);
      if (r) change = keyChangedNote(r.key);
    } else if (l.name !== undefined && l.name !== r.name) {
      change = `name changed locally (server: ${r.name})`;
    }
    if (r) claimed.add(r.id);
    entries.push({ app, key: l.key, local: l, remote: r, state: r ? (change ? 'changed' : 'synced') : 'local', change });
  }
  for (const r of remote) {
    if (claimed.has(r.id)) continue;
    const sharedBy = [...shared.keys()].filter((l) => l.key.toLowerCase() === r.key.toLowerCase());
    entries.push({ app, key: r.key, local: undefined, remote: r, state: 'remote', ...(sharedBy.length > 0 ? { sharedBy } : {}) });
  }
  for (const { remote: r, reason } of invalid) entries.push({ app, key: r.key, local: undefined, remote: r, state: 'invalid', change: reason });
  return entries.sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * The server's list, taken apart: entries whose key may name a folder, and the others with the
 * reason. A key that could not name a folder matches no folder either (`score-lead/` is not
 * `score-lead`), and a key listed twice would give two rows the same identity. An id listed twice is
 * one action.
 */
function screenListed(listed: readonly RemoteAction[]): { remote: RemoteAction[]; invalid: { remote: RemoteAction; reason: string }[] } {
  const byId = new Map<string, RemoteAction>();
  for (const r of listed) if (!byId.has(r.id)) byId.set(r.id, r);
  const unique = [...byId.values()];
  const perKey = new Map<string, number>();
  for (const r of unique) perKey.set(r.key, (perKey.get(r.key) ?? 0) + 1);
  const remote: RemoteAction[] = [];
  const invalid: { remote: RemoteAction; reason: string }[] = [];
  for (const r of unique) {
    const checked = checkServerKey(r.key);
    if (!checked.ok) invalid.push({ remote: r, reason: checked.reason });
    else if ((perKey.get(r.key) ?? 0) > 1) invalid.push({ remote: r, reason: 'the server lists this key more than once' });
    else remote.push(r);
  }
  return { remote, invalid };
}
