import * as vscode from 'vscode';
import { LOCAL_SANDBOX, type ApplicationEntry, type ProjectFile } from '../core/schema';
import { applicationsOn, chooseTarget, hasNamedTargets, isTargetProblem, parseProjectFile, PROJECT_FILE, type TargetChoice } from '../core/workspace';
import { serverText } from '../core/text';
import { normalizeOrigin } from '../core/deploy/scope';
import { Disposable } from './lifecycle';
import { readText } from './files';

/** An application of the project on the active target: `id` is its id on that target's server, `projectId` the file's. */
export interface Application extends ApplicationEntry {
  readonly projectId: string;
  /** What the sidebar shows. */
  readonly label: string;
  /** The folder holding one sub-folder per action. */
  readonly folderUri: vscode.Uri;
}

export type ProjectState = { readonly kind: 'none' } | { readonly kind: 'invalid'; readonly uri: vscode.Uri; readonly message: string } | Project;

/** Thrown where a command needs the project and the workspace has none, or an invalid one (the message says why). */
export class NoProjectError extends Error {
  constructor(message = 'This workspace has no valid customactions.yaml.') {
    super(message);
  }
}

/** A valid customactions.yaml, read. */
export interface Project {
  readonly kind: 'ok';
  readonly uri: vscode.Uri;
  readonly root: vscode.Uri;
  readonly file: ProjectFile;
  /** The active target's base URL as written: a URL, or `local-sandbox`. Keys are stored under it. */
  readonly baseUrl: string;
  /** The target the editor works on (docs/environments.md): the one picked, else the file's default. */
  readonly target: TargetChoice;
  /** Whether the file names targets of its own (the editor then says which one is active). */
  readonly hasTargets: boolean;
  /** A target picked earlier that the file no longer has: the pick was forgotten, and the default is active. */
  readonly forgottenTarget?: string;
  readonly isSandbox: boolean;
  readonly demo: boolean;
  readonly applications: readonly Application[];
}

/**
 * The workspace's project file, customactions.yaml: which server, which applications, which folders.
 * It is the only place these live, so adding an application edits the file, never hidden state.
 */
export class ProjectModel extends Disposable {
  private current: ProjectState = { kind: 'none' };
  private loaded: Promise<ProjectState> | undefined;
  /** How many reads began: only the newest one's answer is kept (an older read never undoes a newer pick). */
  private reads = 0;
  private readonly changed = this.register(new vscode.EventEmitter<ProjectState>());
  readonly onDidChange = this.changed.event;
  private readonly picks: TargetPicks;

  /** `memory`: the workspace's state, where the target picked for each project file is kept across sessions. */
  constructor(memory?: vscode.Memento) {
    super();
    this.picks = new TargetPicks(memory);
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${PROJECT_FILE}`));
    const reload = () => void this.reload();
    this.register(watcher.onDidChange(reload));
    this.register(watcher.onDidCreate(reload));
    this.register(watcher.onDidDelete(reload));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(reload));
  }

  get state(): ProjectState {
    return this.current;
  }

  /** The project as it is on disk; read once, then kept current by the watcher. */
  async get(): Promise<ProjectState> {
    this.loaded ??= this.read();
    return this.loaded;
  }

  /** The project, for what cannot go on without one: a NoProjectError (whose message says what is wrong) otherwise. */
  async require(): Promise<Project> {
    return requireProject(await this.get());
  }

  async reload(): Promise<ProjectState> {
    this.loaded = this.read();
    return this.loaded;
  }

  /**
   * The target picked by name for the project (undefined: the file's default), remembered in the
   * workspace's state; the project is read again on it.
   */
  async pickTarget(name: string | undefined): Promise<ProjectState> {
    const state = this.current.kind === 'none' ? await this.get() : this.current;
    const uri = state.kind === 'none' ? this.defaultUri() : state.uri;
    if (uri) await this.picks.set(uri, name);
    return this.reload();
  }

  /** The target picked for the project, if one was (customActions.switchTarget). */
  get pickedTarget(): string | undefined {
    const state = this.current;
    return state.kind === 'none' ? undefined : this.picks.get(state.uri);
  }

  /** Where a new project file goes: the first workspace folder. */
  defaultUri(): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder && vscode.Uri.joinPath(folder.uri, PROJECT_FILE);
  }

  private async read(): Promise<ProjectState> {
    const read = ++this.reads;
    const state = await readProject(this.picks);
    // A newer read began meanwhile (a pick, the file changed): its answer stands, this one is the past.
    if (read !== this.reads) return this.loaded ?? state;
    this.current = state;
    this.changed.fire(state);
    return state;
  }
}

const PICKS_KEY = 'customActions.targetPicks';

/** The target picked for each project file, by its URI, in the workspace's state (or in memory without one). */
class TargetPicks {
  private readonly fallback = new Map<string, string>();

  constructor(private readonly memory: vscode.Memento | undefined) {}

  get(uri: vscode.Uri): string | undefined {
    if (!this.memory) return this.fallback.get(uri.toString());
    const value = this.all()[uri.toString()];
    return typeof value === 'string' ? value : undefined;
  }

  async set(uri: vscode.Uri, name: string | undefined): Promise<void> {
    const key = uri.toString();
    if (!this.memory) {
      if (name === undefined) this.fallback.delete(key);
      else this.fallback.set(key, name);
      return;
    }
    const next: Record<string, unknown> = { ...this.all() };
    if (name === undefined) delete next[key];
    else next[key] = name;
    await this.memory.update(PICKS_KEY, next);
  }

  private all(): Record<string, unknown> {
    const stored = this.memory?.get<unknown>(PICKS_KEY);
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  }
}

async function readProject(picks: TargetPicks): Promise<ProjectState> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, PROJECT_FILE);
    let text: string;
    try {
      text = await readText(uri);
    } catch {
      continue;
    }
    const parsed = parseProjectFile(text);
    if (!parsed.project) {
      const first = parsed.problems[0];
      const where = first ? ` (line ${first.range.start.line + 1}): ${first.message}` : '';
      return { kind: 'invalid', uri, message: `${PROJECT_FILE} is not valid${where}` };
    }
    const file = parsed.project;
    // The same rule and the same ids as the command line's projectOn: the editor has no variable or branch.
    const picked = picks.get(uri);
    let choice = chooseTarget(file, { given: picked });
    let forgottenTarget: string | undefined;
    if (isTargetProblem(choice)) {
      // The picked target went from the file: the pick is forgotten, the default is active, and the user is told.
      forgottenTarget = picked;
      await picks.set(uri, undefined);
      choice = chooseTarget(file, {});
      if (isTargetProblem(choice)) return { kind: 'invalid', uri, message: `${PROJECT_FILE}: ${choice.problem}` };
    }
    const target = choice.target;
    const applications = applicationsOn(target, file.applications).map((app) => ({
      ...app,
      // A cloned workspace's text, shown in the tree, notifications and pickers: as text.
      label: serverText(app.name ?? app.id, 120),
      folderUri: vscode.Uri.joinPath(folder.uri, ...app.folder.split(/[\\/]/).filter(Boolean)),
    }));
    const sandbox = file.sandbox as { demo?: unknown } | undefined;
    return {
      kind: 'ok',
      uri,
      root: folder.uri,
      file,
      baseUrl: target.baseUrl,
      target: choice,
      hasTargets: hasNamedTargets(file),
      ...(forgottenTarget === undefined ? {} : { forgottenTarget }),
      isSandbox: target.baseUrl === LOCAL_SANDBOX,
      demo: sandbox?.demo === true,
      applications,
    };
  }
  return { kind: 'none' };
}

/** `state` when it is a valid project, else the NoProjectError that says why not. */
export function requireProject(state: ProjectState): Project {
  if (state.kind !== 'ok') throw new NoProjectError(state.kind === 'invalid' ? state.message : undefined);
  return state;
}

/**
 * The server the project names now, as records are scoped to it (src/core/deploy/scope.ts): the same
 * text as the base URL the history records as a push's target. Undefined without a valid project.
 */
export function currentServer(project: Pick<ProjectModel, 'state'>): string | undefined {
  const state = project.state;
  return state.kind === 'ok' ? normalizeOrigin(state.baseUrl) : undefined;
}
