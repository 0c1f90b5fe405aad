import type * as vscode from 'vscode';
import { type ActionNode } from './tree/nodes';

const STATE_KEY = 'customActions.actionLinks';

/**
 * Which server id each action folder was last seen with. A cache, not configuration: losing it only
 * loses the "key changed locally" hint, so it lives in workspace state rather than in the workspace.
 */
export class ActionLinks {
  constructor(private readonly state: vscode.Memento) {}

  all(): ReadonlyMap<string, string> {
    return new Map(Object.entries(this.state.get<Record<string, string>>(STATE_KEY, {})));
  }

  link(folder: vscode.Uri, id: string): void {
    const links = this.state.get<Record<string, string>>(STATE_KEY, {});
    if (links[folder.toString()] === id) return;
    void this.state.update(STATE_KEY, { ...links, [folder.toString()]: id });
  }

  remember(nodes: readonly ActionNode[]): void {
    const links = this.state.get<Record<string, string>>(STATE_KEY, {});
    let changed = false;
    for (const node of nodes) {
      if (node.local && node.remote && links[node.local.folder.toString()] !== node.remote.id) {
        links[node.local.folder.toString()] = node.remote.id;
        changed = true;
      }
    }
    if (changed) void this.state.update(STATE_KEY, { ...links });
  }
}
