import * as vscode from 'vscode';
import { type CustomActionsClient } from '../core/client';
import { type Connections } from './connections';
import { Disposable } from './lifecycle';
import { type Application } from './project';

export type RemoteAction = Awaited<ReturnType<CustomActionsClient['listActions']>>[number];

interface Entry {
  actions: RemoteAction[];
  byKey: Map<string, RemoteAction>;
  signature: string;
}

/**
 * What the server lists for each application, fetched on first need and kept until refreshed.
 * Resolving an action's id by key goes through here: cached, refreshed once on a miss.
 */
export class ActionCatalog extends Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly changed = this.register(new vscode.EventEmitter<Application>());
  /** Fires for an application whose list came back different from before. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly connections: Connections) {
    super();
  }

  async list(app: Application, refresh = false): Promise<RemoteAction[]> {
    return (await this.entry(app, refresh)).actions;
  }

  async findByKey(app: Application, key: string): Promise<RemoteAction | undefined> {
    const cached = this.entries.get(app.id)?.byKey.get(key);
    if (cached) return cached;
    return (await this.entry(app, true)).byKey.get(key);
  }

  cached(app: Application): RemoteAction[] | undefined {
    return this.entries.get(app.id)?.actions;
  }

  forget(app?: Application): void {
    if (app) this.entries.delete(app.id);
    else this.entries.clear();
  }

  private entry(app: Application, refresh: boolean): Promise<Entry> {
    const existing = this.entries.get(app.id);
    if (existing && !refresh) return Promise.resolve(existing);
    let pending = this.inflight.get(app.id);
    if (!pending) {
      pending = this.fetch(app, existing).finally(() => this.inflight.delete(app.id));
      this.inflight.set(app.id, pending);
    }
    return pending;
  }

  private async fetch(app: Application, previous: Entry | undefined): Promise<Entry> {
    const actions = await this.connections.call(app, (client) => client.listActions(app.id), { waitForKey: false });
    const signature = JSON.stringify(actions.map((a) => [a.id, a.key, a.name, a.description]));
    const entry: Entry = { actions, byKey: new Map(actions.map((a) => [a.key, a])), signature };
    this.entries.set(app.id, entry);
    if (previous && previous.signature !== signature) this.changed.fire(app);
    return entry;
  }
}
