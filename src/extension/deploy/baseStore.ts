import type * as vscode from 'vscode';
import { type BaseVersion, type DeployBase } from '../../core/deploy/base';
import { type Application } from '../project';

const STATE_KEY = 'customActions.deployBases';
/** Bases older than this many actions' worth are dropped: a base only makes a push checkable. */
const MAX_ACTIONS = 2_000;

export type BasePart = 'metadata' | 'implementation';

/**
 * What each action's local copy was derived from (src/core/deploy/base.ts): recorded on pull, push,
 * create and merge, read by the next push as its `If-Match`. Held in memory and written to workspace
 * state behind it: the write is never awaited, so recording a base never delays the end of a push.
 */
export class BaseStore {
  private readonly bases: Map<string, DeployBase>;

  constructor(private readonly state: Pick<vscode.Memento, 'get' | 'update'>) {
    this.bases = new Map(Object.entries(state.get<Record<string, DeployBase>>(STATE_KEY, {})));
  }

  get(app: Application, id: string): DeployBase | undefined {
    return this.bases.get(keyOf(app, id));
  }

  part(app: Application, id: string, part: BasePart): BaseVersion | undefined {
    return this.get(app, id)?.[part];
  }

  /** The server holds `version` of this part now, and the local copy is derived from it. */
  record(app: Application, id: string, part: BasePart, version: BaseVersion): void {
    const key = keyOf(app, id);
    const next: DeployBase = { ...this.bases.get(key), [part]: { etag: version.etag, hash: version.hash, ...(version.absent ? { absent: true } : {}) } };
    // Re-inserted so the map's order is the order of use, and the oldest goes first when it is full.
    this.bases.delete(key);
    this.bases.set(key, next);
    while (this.bases.size > MAX_ACTIONS) this.bases.delete(this.bases.keys().next().value as string);
    void this.state.update(STATE_KEY, Object.fromEntries(this.bases));
  }

  /** The action is gone from the server: no base to check against. */
  forget(app: Application, id: string): void {
    if (this.bases.delete(keyOf(app, id))) void this.state.update(STATE_KEY, Object.fromEntries(this.bases));
  }
}

function keyOf(app: Application, id: string): string {
  return `${app.id}\u0000${id}`;
}
