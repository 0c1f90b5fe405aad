import type * as vscode from 'vscode';
import { ApiError } from '../../core/client';
import { type LockEntry } from '../../core/deploy/lock';
import { renamedActions } from '../../core/deploy/renamed';
import { selectActions, sharedKeys } from '../../core/workspace';
import { Disposable } from '../lifecycle';
import { type LocalAction } from '../localActions';
import { type Application } from '../project';
import { Emitter } from './emitter';
import { type ActionEntry, mergeActions, type RemoteAction } from './entries';
import { type ActionFile, actionFileAt, folderNameOf, actionFolderContaining, applicationContaining, inputSetFileAt, type ProjectRoots } from './locate';

/** Where the model's data comes from: the project file, the server, the workspace's folders. Faked in the unit tests. */
export interface ModelSources {
  /** The applications of the project file; empty when there is no valid one. */
  applications(): Promise<readonly Application[]>;
  /** Every project found, valid or not: which one a file belongs to (by default, those of the applications). */
  projects?(): Promise<ProjectRoots>;
  /** The server's list (no key prompt awaited: a view must not wait for the user). */
  listRemote(app: Application): Promise<RemoteAction[]>;
  /** The action folders of the application's folder, read now. */
  scanLocal(app: Application): Promise<LocalAction[]>;
  /** One action folder, read now; undefined when it holds no action.yaml. */
  readLocal(folder: vscode.Uri): Promise<LocalAction | undefined>;
  /** The names of the application folder's sub-folders, read now, as one string that changes when they do. */
  folderNames(app: Application): Promise<string>;
  /**
   * The lock's entries of the application on the server its project names now (customactions.lock.json):
   * which folder each action was deployed or pulled from, so a key changed in it finds its action.
   */
  locked(app: Application): Promise<readonly LockEntry[]>;
}

/** What changed: one application's actions, or everything (`app` undefined: the project, trust, keys, a refresh). */
export interface ActionsChange {
  readonly app?: Application;
}

/** Actions an application's list held when it was last read and holds no more (deleted here or elsewhere). */
export interface ActionsRemoved {
  readonly app: Application;
  readonly ids: readonly string[];
}

interface Listed {
  readonly actions: RemoteAction[];
  readonly byKey: Map<string, RemoteAction>;
  readonly signature: string;
}

/**
 * Every application's actions, merged from the server's list, the workspace's action folders and
 * the lock (the folder each action was deployed or pulled from). It owns every cache and its invalidation: features tell it
 * what happened (`created`, `deleted`, `pulled`, `pushed`, `refresh`) and it fires a change for
 * exactly the application that changed. The tree is a view of it; commands, deploy and events find
 * actions here (a feature that knows the folder may read its action.yaml again from disk).
 */
export class ActionsModel extends Disposable {
  private readonly listed = new Map<string, Listed>();
  private readonly inflight = new Map<string, Promise<Listed>>();
  private readonly generations = new Map<string, number>();
  private reachError: unknown;
  /** Actions whose server version changed since this workspace's last pull or push of them. */
  private readonly drifted = new Set<string>();
  /** Each application's folders as a save last needed them (`sameKeyFolders`), until an action.yaml or the project changes. */
  private readonly scans = new Map<string, Promise<{ readonly names: string; readonly actions: LocalAction[] }>>();
  private readonly changed = this.register(new Emitter<ActionsChange>());
  readonly onDidChange = this.changed.event;
  /** The ids of each application's list as last read, kept across refreshes so the ones gone can be told. */
  private readonly lastIds = new Map<string, ReadonlySet<string>>();
  private readonly removedEmitter = this.register(new Emitter<ActionsRemoved>());
  /**
   * Actions the server no longer lists, told when the first list without them is read: what other
   * features hold for them (a held push, a base, a failure in the status bar) no longer stands.
   */
  readonly onDidRemoveActions = this.removedEmitter.event;

  constructor(private readonly sources: ModelSources) {
    super();
  }

  /** Why the server could not be reached when a list was last asked for, until the next refresh of everything. */
  get unreachable(): unknown {
    return this.reachError;
  }

  /** The application's actions: the folders as they are now, the server's list as cached (fetched on first need). */
  async actions(app: Application): Promise<ActionEntry[]> {
    const [local, remote, locked] = await Promise.all([
      this.scanned(app),
      this.list(app).catch((error: unknown) => {
        this.noteUnreachable(error);
        throw error;
      }),
      this.sources.locked(app),
    ]);
    return mergeActions(app, local, remote.actions, locked).map((e) =>
      e.remote && this.drifted.has(driftKey(app, e.remote.id)) ? { ...e, outOfStep: true } : e,
    );
  }

  async applications(): Promise<readonly Application[]> {
    return this.sources.applications();
  }

  /** What the locate functions take to place `uri`: the applications, `uri`, and every project found. */
  private async located(uri: vscode.Uri): Promise<[readonly Application[], vscode.Uri, ProjectRoots | undefined]> {
    const [applications, projects] = await Promise.all([this.sources.applications(), this.sources.projects?.()]);
    return [applications, uri, projects];
  }

  /** The application whose folder holds `uri`. */
  async applicationOf(uri: vscode.Uri): Promise<Application | undefined> {
    return applicationContaining(...(await this.located(uri)));
  }

  /** The application's action folders as they are on disk now, without asking the server (the Testing view's question). */
  async localActions(app: Application): Promise<LocalAction[]> {
    return this.sources.scanLocal(app);
  }

  /** The file of an action folder `uri` is, when it is one (deploy's question). */
  async fileAt(uri: vscode.Uri): Promise<ActionFile | undefined> {
    return actionFileAt(...(await this.located(uri)));
  }

  /** The action whose folder `uri` is, or holds at any depth (a file of it, an input set). */
  async actionAt(uri: vscode.Uri): Promise<ActionEntry | undefined> {
    const found = actionFolderContaining(...(await this.located(uri)));
    // A file directly in the application's folder is one too, and is no action folder: no entry has its path.
    if (!found) return undefined;
    return (await this.actions(found.app)).find((e) => e.local?.folder.path === found.folder.path);
  }

  /** The action whose folder holds the file `uri` (main.ts, action.yaml), read now; undefined outside an action folder that holds action.yaml. */
  async localActionAt(uri: vscode.Uri): Promise<{ app: Application; action: LocalAction } | undefined> {
    const found = actionFileAt(...(await this.located(uri)));
    const action = found && (await this.sources.readLocal(found.folder));
    return found && action ? { app: found.app, action } : undefined;
  }

  /** The action an input set file belongs to (`<action folder>/inputs/<name>.json`, the folder holding action.yaml). */
  async inputSetAt(uri: vscode.Uri): Promise<{ app: Application; action: LocalAction } | undefined> {
    const found = inputSetFileAt(...(await this.located(uri)));
    const action = found && (await this.sources.readLocal(found.folder));
    return found && action ? { app: found.app, action } : undefined;
  }

  /**
   * The workspace's folder of an action, by application (its `uid`) and key (an event names both), by
   * the core's rule of naming actions (the command line's): a server's names never become paths.
   */
  async localAction(appUid: string, key: string): Promise<{ app: Application; action: LocalAction } | undefined> {
    const app = (await this.sources.applications()).find((a) => a.uid === appUid);
    if (!app) return undefined;
    const local = await this.sources.scanLocal(app);
    const [action] = selectActions([{ text: `${appUid}/${key}`, application: appUid, key }], local, (a) => ({ application: app.uid, key: a.key })).chosen;
    return action ? { app, action } : undefined;
  }

  /**
   * The server's id of the action in `folder` with `key`: by key (the list is fetched again once on a
   * miss), else, when the key was changed in the folder, the action the lock records for the folder
   * (the core's `renamedActions`, the command line's rule).
   */
  async idFor(app: Application, folder: vscode.Uri, key: string): Promise<string | undefined> {
    const found = this.listed.get(app.uid)?.byKey.get(key) ?? (await this.list(app, true)).byKey.get(key);
    if (found) return found.id;
    const [listed, local, locked] = await Promise.all([this.list(app), this.sources.scanLocal(app), this.sources.locked(app)]);
    // The folder as the save has it (its key may be newer than the disk's), beside every other folder.
    const here = { key, folderName: folderNameOf(folder) };
    const others = local.filter((a) => a.folder.toString() !== folder.toString()).map((a) => ({ key: a.key, folderName: folderNameOf(a.folder) }));
    return renamedActions([here, ...others], listed.actions, locked).get(here)?.id;
  }

  /**
   * The other folders of `app` that declare `key` too (any case: the core's `sharedKeys`), with
   * `folder` taken to declare `key` (what a save is about to push, whether or not the file watcher told
   * of it yet); undefined when none does. The folders come from a scan kept until an action.yaml or
   * the project changes, so a save reads them once, not each time; a folder added or removed since
   * (a copy the file watcher has not told of yet) is seen by the list of the application's folder,
   * one read, and scanned anew.
   */
  async sameKeyFolders(app: Application, folder: vscode.Uri, key: string): Promise<LocalAction[] | undefined> {
    const names = await this.sources.folderNames(app);
    const kept = this.scans.get(app.uid);
    const local = kept && (await kept.catch(() => undefined))?.names === names ? (await kept).actions : await this.scanned(app, names);
    const others = local.filter((a) => a.folder.toString() !== folder.toString());
    const here = { key, folder };
    const group = sharedKeys([here, ...others]).get(here);
    return group ? others.filter((a) => group.includes(a)) : undefined;
  }

  /**
   * The application's folders read now, kept for the saves that follow (`sameKeyFolders`) with the names
   * of the sub-folders they were read among: a scan for the tree serves the next save too.
   */
  private scanned(app: Application, names?: string): Promise<LocalAction[]> {
    const started = Promise.all([names ?? this.sources.folderNames(app), this.sources.scanLocal(app)]).then(([n, actions]) => ({ names: n, actions }));
    this.scans.set(app.uid, started);
    started.catch(() => this.scans.get(app.uid) === started && this.scans.delete(app.uid));
    return started.then((s) => s.actions);
  }

  /** Everything anew (undefined), or one application's list. */
  refresh(app?: Application): void {
    if (!app) this.reachError = undefined;
    this.forget(app);
    this.changed.fire({ app });
  }

  /** An action folder was created on the server. */
  created(app: Application): void {
    this.refresh(app);
  }

  /** The server's action `id` was pulled into a folder. */
  pulled(app: Application, id: string): void {
    this.drifted.delete(driftKey(app, id));
    this.created(app);
  }

  /** A delete was sent for the action (whatever came of it, the list is read again). */
  deleted(app: Application): void {
    this.refresh(app);
  }

  /** The server accepted a push of a folder's code or metadata; metadata may rename the action. */
  pushed(app: Application, what: 'code' | 'metadata'): void {
    if (what === 'metadata') this.refresh(app);
  }

  /**
   * Whether action `id` changed on the server since this workspace last pulled or pushed it, as deploy
   * found out (a check of its version, a held push). Fires a change only when that answer changes.
   */
  serverChanged(app: Application, id: string, changed: boolean): void {
    const key = driftKey(app, id);
    if (this.drifted.has(key) === changed) return;
    if (changed) this.drifted.add(key);
    else this.drifted.delete(key);
    this.changed.fire({ app });
  }

  /** A creation failed: the folder is there, the server's list unchanged. */
  createFailed(app: Application): void {
    this.changed.fire({ app });
  }

  /** An action.yaml was created, changed or deleted on disk. */
  async localChanged(uri: vscode.Uri): Promise<void> {
    // Every application's: which one the file is in is known only after an await, and a save may look meanwhile.
    this.scans.clear();
    const app = await this.applicationOf(uri);
    if (app) this.changed.fire({ app });
  }

  /**
   * Drops what is known, and what is being fetched: a list requested before a change (a create, a
   * delete) must not answer for after it.
   */
  private forget(app?: Application): void {
    if (app) this.scans.delete(app.uid);
    else this.scans.clear();
    for (const id of app ? [app.uid] : [...new Set([...this.listed.keys(), ...this.inflight.keys()])]) {
      this.listed.delete(id);
      this.inflight.delete(id);
      this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    }
  }

  private list(app: Application, again = false): Promise<Listed> {
    const existing = this.listed.get(app.uid);
    if (existing && !again) return Promise.resolve(existing);
    let pending = this.inflight.get(app.uid);
    if (!pending) {
      const started: Promise<Listed> = this.fetch(app, existing).finally(() => {
        if (this.inflight.get(app.uid) === started) this.inflight.delete(app.uid);
      });
      pending = started;
      this.inflight.set(app.uid, pending);
    }
    return pending;
  }

  private async fetch(app: Application, previous: Listed | undefined): Promise<Listed> {
    const generation = this.generations.get(app.uid) ?? 0;
    const actions = await this.sources.listRemote(app);
    const signature = JSON.stringify(actions.map((a) => [a.id, a.key, a.name, a.description]));
    const listed: Listed = { actions, byKey: new Map(actions.map((a) => [a.key, a])), signature };
    // A list that was asked for before the last forget() is an answer about the past: use it, keep it not.
    if (generation !== (this.generations.get(app.uid) ?? 0)) return listed;
    this.listed.set(app.uid, listed);
    const gone = this.noteIds(app, actions);
    if (previous && previous.signature !== signature) this.changed.fire({ app });
    if (gone.length > 0) this.removedEmitter.fire({ app, ids: gone });
    return listed;
  }

  /** Remembers the ids of a list, and forgets what the model itself held of the ones gone from it. */
  private noteIds(app: Application, actions: readonly RemoteAction[]): string[] {
    const now = new Set(actions.map((a) => a.id));
    const before = this.lastIds.get(app.uid);
    this.lastIds.set(app.uid, now);
    const gone = before ? [...before].filter((id) => !now.has(id)) : [];
    for (const id of gone) this.drifted.delete(driftKey(app, id));
    return gone;
  }

  /** A server that cannot be reached is everyone's problem, not one application's: everything is shown anew. */
  private noteUnreachable(error: unknown): void {
    if (!(error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) || this.reachError !== undefined) return;
    this.reachError = error;
    queueMicrotask(() => this.changed.fire({}));
  }
}

function driftKey(app: Application, id: string): string {
  return `${app.uid}\u0000${id}`;
}
