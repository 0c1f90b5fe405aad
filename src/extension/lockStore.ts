import * as vscode from 'vscode';
import { type BaseVersion, type DeployBase } from '../core/deploy/base';
import { type Part } from '../core/deploy/decide';
import { DeployLock, LOCK_FILE, type LockEntry, lockProblemAt, lockProblemFix } from '../core/deploy/lock';
import { errorMessage } from './connections';
import { writeInsideWorkspace } from './files';
import { Disposable } from './lifecycle';
import { type Application, type ProjectModel, serverOf } from './project';
import { type WorkspaceTrust } from './trust';

/** How many times, and how long apart, a lock that does not parse is read again before it is taken as broken. */
const SETTLE_READS = 5;
const SETTLE_MS = 300;

/** What the store knows of the lock file of one project folder. */
interface Loaded {
  readonly uri: vscode.Uri;
  lock: DeployLock;
  /** The file's text as last read or written; undefined when there is no file. */
  text: string | undefined;
  /** Why the file is not a lock, while it is not: its bases are taken as none and it is never written. */
  problem: string | undefined;
}

/**
 * The base of each action (what this copy was derived from on the server, src/core/deploy/base.ts),
 * kept where the command line keeps it: `customactions.lock.json` beside customactions.yaml, committed
 * by the team, so a deploy from the editor is checked against the command line's and the other way
 * round (docs/deploy.md, *The base*). One lock per project: an application's bases are in the lock
 * of the project that lists it, keyed as the command line keys them (the server the project names,
 * its base URL or `local-sandbox`, the application and the action's key). A project that goes takes
 * its lock's watcher with it.
 */
export class LockStore extends Disposable {
  private readonly files = new Map<string, LockFile>();

  constructor(
    private readonly project: Pick<ProjectModel, 'currentOf' | 'onDidChangeProjects'>,
    private readonly trust: Pick<WorkspaceTrust, 'isTrusted'>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.register(
      project.onDidChangeProjects(({ removed }) => {
        for (const root of removed) {
          this.files.get(root.toString())?.dispose();
          this.files.delete(root.toString());
        }
      }),
    );
    this.register({ dispose: () => [...this.files.values()].forEach((file) => file.dispose()) });
  }

  /** The base of action `id` of `app` on the server its project names now. */
  get(app: Application, id: string): Promise<DeployBase | undefined> {
    return this.fileOf(app).get(app, id);
  }

  /** The lock's entries of `app` on the server its project names now, none while the lock is not one. */
  entries(app: Application): Promise<LockEntry[]> {
    return this.fileOf(app).entries(app);
  }

  async part(app: Application, id: string, part: Part): Promise<BaseVersion | undefined> {
    return (await this.get(app, id))?.[part];
  }

  /** The server holds `version` of this part of action `id` (key `key`) now, and the local copy is derived from it. */
  record(app: Application, action: { readonly id: string; readonly key: string; readonly folder?: string }, part: Part, version: BaseVersion): void {
    this.fileOf(app).record(app, action, part, version);
  }

  /** The action is gone from the server: no base to check against. */
  forget(app: Application, id: string): void {
    this.fileOf(app).forget(app, id);
  }

  private fileOf(app: Application): LockFile {
    const root = app.project.root;
    const key = root.toString();
    let file = this.files.get(key);
    if (!file) {
      // The server the project names now (a target switched since the application was read counts).
      const server = () => serverOf(this.project.currentOf(app));
      file = new LockFile(root, server, this.trust, this.log);
      this.files.set(key, file);
    }
    return file;
  }
}

/**
 * The lock file of one project folder. Read on first need and again when the file changes on disk (a
 * checkout, a deploy in the terminal). A record changes the lock in memory at once and the file behind
 * it: writes are serialized and coalesced and never awaited by a push, go through the link guard, and
 * are never made while the file is not a lock (told once) or in a workspace that is not trusted.
 */
class LockFile extends Disposable {
  private loaded: Loaded | undefined;
  private loading: Promise<Loaded | undefined> | undefined;
  private watching = false;
  private writing = false;
  /** Counts the records made here, so a read of the file that a record overtook does not undo it. */
  private changes = 0;
  private again = false;
  /** The file changed while it was being written here: read it once the write is done. */
  private changedMeanwhile = false;
  /** Problems already told, so a file that stays broken is told once. */
  private readonly told = new Set<string>();

  constructor(
    private readonly root: vscode.Uri,
    private readonly server: () => string | undefined,
    private readonly trust: Pick<WorkspaceTrust, 'isTrusted'>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
  }

  async get(app: Application, id: string): Promise<DeployBase | undefined> {
    const loaded = await this.load();
    const server = this.server();
    if (!loaded || server === undefined) return undefined;
    const key = loaded.lock.keyOf(server, app.id, id);
    const entry = key === undefined ? undefined : loaded.lock.get(server, app.id, key);
    return entry && { ...(entry.metadata ? { metadata: entry.metadata } : {}), ...(entry.implementation ? { implementation: entry.implementation } : {}) };
  }

  async entries(app: Application): Promise<LockEntry[]> {
    const loaded = await this.load();
    const server = this.server();
    return loaded && server !== undefined ? loaded.lock.entries(server, app.id) : [];
  }

  record(app: Application, action: { readonly id: string; readonly key: string; readonly folder?: string }, part: Part, version: BaseVersion): void {
    this.change((lock, server) => lock.recorded(server, app.id, action, part, version));
  }

  forget(app: Application, id: string): void {
    this.change((lock, server) => lock.forgotten(server, app.id, id));
  }

  private change(update: (lock: DeployLock, server: string) => DeployLock): void {
    this.changes++;
    const apply = (loaded: Loaded | undefined) => {
      const server = this.server();
      if (!loaded || server === undefined) return;
      loaded.lock = update(loaded.lock, server);
      this.schedule(loaded);
    };
    // Applied at once when the lock is read, so the next push reads it; else once it is.
    if (this.loaded && !this.loading) apply(this.loaded);
    else void this.load().then(apply);
  }

  /** The lock of the project's folder, read once and kept current by the watcher. */
  private load(): Promise<Loaded | undefined> {
    if (this.loaded) return Promise.resolve(this.loaded);
    return (this.loading ??= this.read().finally(() => (this.loading = undefined)));
  }

  private async read(): Promise<Loaded | undefined> {
    if (this.isDisposed) return undefined;
    this.loaded ??= { uri: vscode.Uri.joinPath(this.root, LOCK_FILE), lock: DeployLock.empty(), text: undefined, problem: undefined };
    this.watch();
    await this.reread(this.loaded);
    return this.loaded;
  }

  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.root, LOCK_FILE)));
    const changed = () => {
      const loaded = this.loaded;
      if (!loaded) return;
      // The event of a write made here may come before the write is known to be done.
      if (this.writing) this.changedMeanwhile = true;
      else void this.reread(loaded);
    };
    this.register(watcher.onDidChange(changed));
    this.register(watcher.onDidCreate(changed));
    this.register(watcher.onDidDelete(changed));
  }

  /**
   * Reads the file into `loaded`: its text wins over what is in memory (a checkout, another deploy),
   * unless it is what was written here. `settle`: how many more times a text that is no lock is read
   * again, a moment later, before it is taken as broken.
   */
  private async reread(loaded: Loaded, settle = SETTLE_READS): Promise<void> {
    const changesBefore = this.changes;
    let text: string | undefined;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(loaded.uri));
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError) || error.code !== 'FileNotFound') {
        this.log.warn(`${LOCK_FILE} cannot be read (${errorMessage(error)}): deploys find no base in it.`);
      }
      text = undefined;
    }
    if (text !== undefined && text === loaded.text) return;
    // A record made here while the file was read is newer than what was read (the late event of an
    // earlier write here, read before the record's write landed): the record is kept and written.
    if (this.changes !== changesBefore) return;
    const parsed = text === undefined ? undefined : DeployLock.parse(text);
    // Read in the middle of its write (git, a script or an editor empties the file, then writes it, and
    // the watcher may tell of both at once): read again a moment later before calling it broken, which
    // would stop every write of it until the next change on disk.
    if (parsed && 'problem' in parsed && settle > 0) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      if (this.changes === changesBefore) return this.reread(loaded, settle - 1);
    }
    if (this.changes !== changesBefore) return;
    loaded.text = text;
    if (text === undefined) {
      loaded.lock = DeployLock.empty();
      loaded.problem = undefined;
      return;
    }
    if (parsed === undefined) return;
    if ('lock' in parsed) {
      loaded.lock = parsed.lock;
      loaded.problem = undefined;
      return;
    }
    loaded.lock = DeployLock.empty();
    loaded.problem = parsed.problem.message;
    this.tell(
      `${lockProblemAt(vscode.workspace.asRelativePath(loaded.uri), parsed.problem)} is not a valid deploy lock: ${parsed.problem.message}. Deploys find no base in it (a push of an action the server holds other text of is held), and it is not written until it is one again. ${lockProblemFix(parsed.problem)}`,
    );
  }

  private tell(message: string): void {
    if (this.told.has(message)) return;
    this.told.add(message);
    this.log.warn(message);
    void vscode.window.showWarningMessage(message);
  }

  /** Writes the lock behind the push that changed it; one write at a time, the newest content last. */
  private schedule(loaded: Loaded): void {
    if (this.writing) {
      this.again = true;
      return;
    }
    this.writing = true;
    void this.writeLoop(loaded).finally(() => {
      this.writing = false;
      // A record made after the loop last looked (its last turn wrote nothing, and ended at once).
      if (this.again) return this.schedule(loaded);
      if (!this.changedMeanwhile) return;
      this.changedMeanwhile = false;
      void this.reread(loaded);
    });
  }

  private async writeLoop(loaded: Loaded): Promise<void> {
    do {
      this.again = false;
      if (loaded.problem !== undefined) return;
      // Nothing deploys in a workspace that is not trusted, and nothing is written there either.
      if (!this.trust.isTrusted) return;
      const text = loaded.lock.serialize();
      if (text === loaded.text || (loaded.text === undefined && text === DeployLock.empty().serialize())) continue;
      try {
        await writeInsideWorkspace(loaded.uri, text);
        loaded.text = text;
      } catch (error) {
        this.tell(`${vscode.workspace.asRelativePath(loaded.uri)} was not written: ${errorMessage(error)}`);
        return;
      }
    } while (this.again);
  }
}
