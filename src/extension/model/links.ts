import type * as vscode from 'vscode';

const STATE_KEY = 'customActions.actionLinks';

/**
 * Which server id each action folder was last seen with. A cache, not configuration: losing it only
 * loses the "key changed locally" hint, so it lives in workspace state rather than in the workspace.
 */
export class ActionLinks {
  constructor(private readonly state: Pick<vscode.Memento, 'get' | 'update'>) {}

  /** By the folder's URI as a string. */
  all(): ReadonlyMap<string, string> {
    return new Map(Object.entries(this.state.get<Record<string, string>>(STATE_KEY, {})));
  }

  /** Records each folder's id; one write for all of them, none when nothing changed. */
  link(pairs: readonly (readonly [folder: string, id: string])[]): void {
    const links = this.state.get<Record<string, string>>(STATE_KEY, {});
    const changed = pairs.filter(([folder, id]) => links[folder] !== id);
    if (changed.length === 0) return;
    void this.state.update(STATE_KEY, { ...links, ...Object.fromEntries(changed) });
  }
}
