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
  private readonly generations = new Map<string, number>();
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

  /**
   * Drops what is known, and what is being fetched: a list requested before a change (a create, a
   * delete) must not answer for after it.
   */
  forget(app?: Application): void {
    for (const id of app ? [app.id] : [...new Set([...this.entries.keys(), ...this.inflight.keys()])]) {
      this.entries.delete(id);
      this.inflight.delete(id);
      this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    }
  }

  private entry(app: Application, refresh: boolean): Promise<Entry> {
    const existing = this.entries.get(app.id);
    if (existing && !refresh) return Promise.resolve(existing);
    let pending = this.inflight.get(app.id);
    if (!pending) {
      const started: Promise<Entry> = this.fetch(app, existing).finally(() => {
        if (this.inflight.get(app.id) === started) this.inflight.delete(app.id);
      });
      pending = started;
      this.inflight.set(app.id, pending);
    }
    return pending;
  }

  private async fetch(app: Application, previous: Entry | undefined): Promise<Entry> {
    const generation = this.generations.get(app.id) ?? 0;
    const actions = await this.connections.call(app, (client) => client.listActions(app.id), { waitForKey: false });
    const signature = JSON.stringify(actions.map((a) => [a.id, a.key, a.name, a.description]));
    const entry: Entry = { actions, byKey: new Map(actions.map((a) => [a.key, a])), signature };
    // A list that was asked for before the last forget() is an answer about the past: use it, keep it not.
    if (generation !== (this.generations.get(app.id) ?? 0)) return entry;
    this.entries.set(app.id, entry);
    if (previous && previous.signature !== signature) this.changed.fire(app);
    return entry;
  }
}
