import type * as vscode from 'vscode';
import { type BaseVersion, type DeployBase } from '../../core/deploy/base';
import { scopedKey } from '../../core/deploy/scope';
import { type Application } from '../project';

const STATE_KEY = 'customActions.deployBases.v2';
/** Where bases were kept before they were scoped to a server: dropped, never read (docs/security.md). */
const LEGACY_KEY = 'customActions.deployBases';
/** Bases older than this many actions' worth are dropped: a base only makes a push checkable. */
const MAX_ACTIONS = 2_000;

export type BasePart = 'metadata' | 'implementation';

/**
 * What each action's local copy was derived from (src/core/deploy/base.ts): recorded on pull, push,
 * create and merge, read by the next push as its `If-Match`. Scoped to the server the project names
 * and the application, so a workspace pointed at another server with the same ids finds none there.
 * Held in memory and written to workspace state behind it: the write is never awaited, so recording a
 * base never delays the end of a push.
 */
export class BaseStore {
  private readonly bases: Map<string, DeployBase>;

  constructor(
    private readonly state: Pick<vscode.Memento, 'get' | 'update'>,
    /** The server the project names now (normalized base URL), or undefined without a project. */
    private readonly server: () => string | undefined,
  ) {
    this.bases = new Map(Object.entries(state.get<Record<string, DeployBase>>(STATE_KEY, {})));
    // Bases recorded before they named their server cannot be told apart from another server's.
    if (state.get(LEGACY_KEY) !== undefined) void state.update(LEGACY_KEY, undefined);
  }

  get(app: Application, id: string): DeployBase | undefined {
    const key = this.keyOf(app, id);
    return key === undefined ? undefined : this.bases.get(key);
  }

  part(app: Application, id: string, part: BasePart): BaseVersion | undefined {
    return this.get(app, id)?.[part];
  }

  /** The server holds `version` of this part now, and the local copy is derived from it. */
  record(app: Application, id: string, part: BasePart, version: BaseVersion): void {
    const key = this.keyOf(app, id);
    if (key === undefined) return;
    const next: DeployBase = { ...this.bases.get(key), [part]: { etag: version.etag, hash: version.hash, ...(version.absent ? { absent: true } : {}) } };
    // Re-inserted so the map's order is the order of use, and the oldest goes first when it is full.
    this.bases.delete(key);
    this.bases.set(key, next);
    while (this.bases.size > MAX_ACTIONS) this.bases.delete(this.bases.keys().next().value as string);
    void this.state.update(STATE_KEY, Object.fromEntries(this.bases));
  }

  /** The action is gone from the server: no base to check against. */
  forget(app: Application, id: string): void {
    const key = this.keyOf(app, id);
    if (key !== undefined && this.bases.delete(key)) void this.state.update(STATE_KEY, Object.fromEntries(this.bases));
  }

  private keyOf(app: Application, id: string): string | undefined {
    const server = this.server();
    return server === undefined ? undefined : scopedKey({ server, appId: app.id }, id);
  }
}
