import * as vscode from 'vscode';
import { LOCAL_SANDBOX, type ApplicationEntry, type ProjectFile } from '../core/schema';
import {
  applicationsOn,
  chooseTarget,
  compareProjectPlaces,
  hasNamedTargets,
  isExcludedFromProjectSearch,
  isTargetProblem,
  parseProjectFile,
  PROJECT_FILE,
  PROJECT_SEARCH_EXCLUDE,
  projectHolding,
  projectNames,
  projectRootOfFile,
  type TargetChoice,
} from '../core/workspace';
import { serverText } from '../core/text';
import { normalizeOrigin } from '../core/deploy/scope';
import { Disposable } from './lifecycle';
import { readText } from './files';
import { projectAt } from './projectAt';

export { projectAt } from './projectAt';

/** What an application knows of its project: everything but the project's list of applications. */
export type ProjectInfo = Omit<Project, 'applications'>;

/** An application of a project on its active target: `id` is its id on that target's server, `projectId` the file's. */
export interface Application extends ApplicationEntry {
  readonly projectId: string;
  /** What the sidebar shows. */
  readonly label: string;
  /** The folder holding one sub-folder per action. */
  readonly folderUri: vscode.Uri;
  /** The project it is listed in: its server, its target, its lock. */
  readonly project: ProjectInfo;
  /** Unique in the workspace (two projects may list the same id): the project's folder and the id. */
  readonly uid: string;
}

/** A customactions.yaml that could not be read as a project (the message says why). */
export interface InvalidProject {
  readonly kind: 'invalid';
  readonly uri: vscode.Uri;
  readonly root: vscode.Uri;
  readonly name: string;
  readonly message: string;
}

export type ProjectState = { readonly kind: 'none' } | InvalidProject | Project;

/** A project of the workspace, valid or not. */
export type FoundProject = InvalidProject | Project;

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
  /** What the tree and pickers call it: its folder's name (src/core/workspace/projects.ts). */
  readonly name: string;
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

/** What changed in the list: projects that appeared, went, or were read again (by their folder's URI). */
export interface ProjectsChange {
  readonly added: readonly vscode.Uri[];
  readonly removed: readonly vscode.Uri[];
  readonly changed: readonly vscode.Uri[];
}

/** What a sandbox serves: applications by id (each with the label its keys are stored under), and whether the demo data. */
export interface SandboxServes {
  readonly applications: readonly SandboxServed[];
  readonly demo: boolean;
}

type SandboxServed = { readonly id: string; readonly label: string };

/** How many project files a workspace search returns at most: a workspace of more is not one of projects. */
const MAX_PROJECTS = 200;

/**
 * The workspace's projects: every folder holding a customactions.yaml (each workspace folder's, and
 * nested ones), each the only place its server, applications and folders live. Found by a workspace
 * search, kept current by a watcher and the workspace folders' changes; which project holds a file is
 * the core's rule (the nearest project at or above it), as the command line finds its project.
 */
export class ProjectModel extends Disposable {
  private found: readonly FoundProject[] = [];
  private loaded: Promise<readonly FoundProject[]> | undefined;
  /** How many reads began: only the newest one's answer is kept (an older read never undoes a newer pick). */
  private reads = 0;
  /** Whether a read has told its projects yet: the first always does, even of none. */
  private told = false;
  private readonly picks: TargetPicks;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Any project changed, appeared or went (which ones: onDidChangeProjects). */
  readonly onDidChange = this.changed.event;
  private readonly listChanged = this.register(new vscode.EventEmitter<ProjectsChange>());
  readonly onDidChangeProjects = this.listChanged.event;

  /** `memory`: the workspace's state, where the target picked for each project file is kept across sessions. */
  constructor(memory?: vscode.Memento) {
    super();
    this.picks = new TargetPicks(memory);
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${PROJECT_FILE}`));
    // A watcher's events are not filtered by the search's excludes: a package's own file changes nothing.
    const reload = (uri?: vscode.Uri) => {
      if (!uri || !isExcludedFromProjectSearch(uri.path)) void this.reload();
    };
    this.register(watcher.onDidChange(reload));
    this.register(watcher.onDidCreate(reload));
    this.register(watcher.onDidDelete(reload));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => reload()));
  }

  /** Every project as last read (valid or not), in the tree's order. */
  get projects(): readonly FoundProject[] {
    return this.found;
  }

  /** Every project as it is on disk; found once, then kept current by the watcher. */
  async all(): Promise<readonly FoundProject[]> {
    this.loaded ??= this.read();
    return this.loaded;
  }

  /** The valid projects. */
  async valid(): Promise<readonly Project[]> {
    return (await this.all()).filter((p): p is Project => p.kind === 'ok');
  }

  /**
   * The workspace's one project, for what assumes there is exactly one (a call that names no project):
   * a NoProjectError (whose message says what is wrong) when there is none or it is not valid, and an
   * error when there are several, so that no caller ever means "the first" by accident.
   */
  async only(): Promise<Project> {
    return requireProject(onlyOf(await this.all()) ?? { kind: 'none' });
  }

  /** The project of the folder `root` as last read (a target switched since an application was read counts). */
  current(root: vscode.Uri): FoundProject | undefined {
    return this.found.find((p) => p.root.toString() === root.toString());
  }

  /** The project of `app` as it is now: as last read (a target switched since the application was read counts), else as the application knew it. */
  currentOf(app: Pick<Application, 'project'>): FoundProject | ProjectInfo {
    return this.current(app.project.root) ?? app.project;
  }

  /** The project holding `uri` (the nearest at or above it), as last read. */
  projectOf(uri: vscode.Uri): FoundProject | undefined {
    return projectAt(this.found, uri);
  }

  /** Every project, read again from disk. */
  async reload(): Promise<readonly FoundProject[]> {
    this.loaded = this.read();
    return this.loaded;
  }

  /**
   * The target picked by name for a project (undefined: the file's default), remembered in the
   * workspace's state; the projects are read again on it. `project`: its file's URI; without one, the
   * workspace's only project (an error when there are several), or where a new one would go. Returns
   * that project as read again, `none` when it is gone.
   */
  async pickTarget(name: string | undefined, project?: vscode.Uri): Promise<ProjectState> {
    const uri = project ?? onlyOf(await this.all())?.uri ?? this.defaultUri();
    if (uri) await this.picks.set(uri, name);
    const all = await this.reload();
    return all.find((p) => p.uri.toString() === uri?.toString()) ?? { kind: 'none' };
  }

  /** The target picked for the project of this file, if one was. */
  pickedTargetOf(projectFile: vscode.Uri): string | undefined {
    return this.picks.get(projectFile);
  }

  /**
   * What the one local sandbox serves: the applications of every project that names it (an id listed
   * by two of them once), with the demo data when one of them asks for it; and `also`'s, which a
   * sandbox started for something else (Promote from or to a target that is the sandbox) needs too.
   */
  async sandboxApplications(also: SandboxServes = { applications: [], demo: false }): Promise<SandboxServes> {
    const sandboxed = (await this.valid()).filter((p) => p.isSandbox);
    const byId = new Map<string, SandboxServed>();
    for (const app of [...sandboxed.flatMap((p) => p.applications), ...also.applications]) if (!byId.has(app.id)) byId.set(app.id, app);
    return { applications: [...byId.values()], demo: also.demo || sandboxed.some((p) => p.demo) };
  }

  /** Where a new project file goes: the first workspace folder. */
  defaultUri(): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder && vscode.Uri.joinPath(folder.uri, PROJECT_FILE);
  }

  private async read(): Promise<readonly FoundProject[]> {
    const read = ++this.reads;
    const next = await readProjects(this.picks);
    // A newer read began meanwhile (a pick, a file changed): its answer stands, this one is the past.
    if (read !== this.reads) return this.loaded ?? next;
    const before = this.found;
    // The picks forgotten by this read, and by reads dropped since, are told by this one, once.
    this.found = next.map((p) => {
      const forgottenTarget = this.picks.takeForgotten(p.uri);
      return forgottenTarget !== undefined && p.kind === 'ok' ? { ...p, forgottenTarget } : p;
    });
    // Read again and found as it was (a save of the same text, a watcher's late or repeated event, a
    // reload after a write another read already saw): no change to tell, so no application is listed again.
    if (this.told && sameProjects(before, this.found)) return this.found;
    this.told = true;
    const keys = (list: readonly FoundProject[]) => new Map(list.map((p) => [p.root.toString(), p]));
    const old = keys(before);
    const now = keys(next);
    this.listChanged.fire({
      added: next.filter((p) => !old.has(p.root.toString())).map((p) => p.root),
      removed: before.filter((p) => !now.has(p.root.toString())).map((p) => p.root),
      changed: next.filter((p) => old.has(p.root.toString())).map((p) => p.root),
    });
    this.changed.fire();
    return this.found;
  }
}

/** The same projects, in the same order, read alike (the file's values, the target, the applications); comments and layout are not read. */
function sameProjects(a: readonly FoundProject[], b: readonly FoundProject[]): boolean {
  return a.length === b.length && a.every((p, i) => comparable(p) === comparable(b[i]!));
}

/**
 * A project as text to compare. A Uri is its string: its own JSON also holds what it cached (its
 * string, its path on disk) once asked, so two equal Uris would differ by what was asked of them.
 */
function comparable(project: FoundProject): string {
  return JSON.stringify(project, function (this: Record<string, unknown>, key, value: unknown) {
    const own = this[key];
    return own instanceof vscode.Uri ? own.toString() : value;
  });
}

const PICKS_KEY = 'customActions.targetPicks';

/** The target picked for each project file, by its URI, in the workspace's state (or in memory without one). */
class TargetPicks {
  private readonly fallback = new Map<string, string>();
  /** Picks forgotten by a read, until a read that stands tells of them (an older read's answer is dropped). */
  private readonly forgotten = new Map<string, string>();

  async forget(uri: vscode.Uri, name: string | undefined): Promise<void> {
    if (name !== undefined) this.forgotten.set(uri.toString(), name);
    await this.set(uri, undefined);
  }

  /** The pick of this project file that a read forgot and no read that stands told of yet. */
  takeForgotten(uri: vscode.Uri): string | undefined {
    const name = this.forgotten.get(uri.toString());
    this.forgotten.delete(uri.toString());
    return name;
  }

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

/** The project files of the workspace: a search for them, and each workspace folder's own (a search may find nothing on a virtual file system). */
async function projectFiles(): Promise<vscode.Uri[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const own = folders.map((f) => vscode.Uri.joinPath(f.uri, PROJECT_FILE));
  let searched: vscode.Uri[] = [];
  try {
    searched = await vscode.workspace.findFiles(`**/${PROJECT_FILE}`, PROJECT_SEARCH_EXCLUDE, MAX_PROJECTS);
  } catch {
    // No search on this file system: the workspace folders' own files still count.
  }
  const seen = new Map<string, vscode.Uri>();
  for (const uri of [...own, ...searched]) if (!isExcludedFromProjectSearch(uri.path)) seen.set(uri.toString(), uri);
  return [...seen.values()];
}

async function readProjects(picks: TargetPicks): Promise<FoundProject[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const places = [];
  for (const uri of await projectFiles()) {
    const folderIndex = folders.findIndex(
      (f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority && projectHolding([f.uri.path], uri.path) !== undefined,
    );
    const rootPath = projectRootOfFile(uri.path);
    const folder = folders[folderIndex];
    if (!folder || rootPath === undefined) continue;
    let text: string;
    try {
      text = await readText(uri);
    } catch {
      continue; // Listed by the search but gone, or the workspace folder's own that does not exist.
    }
    places.push({
      uri,
      text,
      root: rootPath,
      folderIndex,
      workspaceFolder: { name: folder.name, path: folder.uri.path },
      rootUri: uri.with({ path: rootPath }),
    });
  }
  places.sort(compareProjectPlaces);
  const names = projectNames(places);
  return Promise.all(places.map((place, i) => readProject(place.uri, place.rootUri, names[i]!, place.text, picks)));
}

async function readProject(uri: vscode.Uri, root: vscode.Uri, name: string, text: string, picks: TargetPicks): Promise<FoundProject> {
  const parsed = parseProjectFile(text);
  if (!parsed.project) {
    const first = parsed.problems[0];
    const where = first ? ` (line ${first.range.start.line + 1}): ${first.message}` : '';
    return { kind: 'invalid', uri, root, name, message: `${PROJECT_FILE} is not valid${where}` };
  }
  const file = parsed.project;
  // The same rule and the same ids as the command line's projectOn: the editor has no variable or branch.
  const picked = picks.get(uri);
  let choice = chooseTarget(file, { given: picked });
  if (isTargetProblem(choice)) {
    // The picked target went from the file: the pick is forgotten, the default is active, and the user is
    // told (the read that stands names it on the project, in ProjectModel.read).
    await picks.forget(uri, picked);
    choice = chooseTarget(file, {});
    if (isTargetProblem(choice)) return { kind: 'invalid', uri, root, name, message: `${PROJECT_FILE}: ${choice.problem}` };
  }
  const target = choice.target;
  const sandbox = file.sandbox as { demo?: unknown } | undefined;
  const info: ProjectInfo = {
    kind: 'ok',
    uri,
    root,
    name,
    file,
    baseUrl: target.baseUrl,
    target: choice,
    hasTargets: hasNamedTargets(file),
    isSandbox: target.baseUrl === LOCAL_SANDBOX,
    demo: sandbox?.demo === true,
  };
  const applications = applicationsOn(target, file.applications).map((app) => ({
    ...app,
    // A cloned workspace's text, shown in the tree, notifications and pickers: as text.
    label: serverText(app.name ?? app.id, 120),
    folderUri: vscode.Uri.joinPath(root, ...app.folder.split(/[\\/]/).filter(Boolean)),
    project: info,
    uid: `${root.toString()}\n${app.id}`,
  }));
  return { ...info, applications };
}

/** The one project of `projects` (valid or not); an error when there are several: the caller has to say which one. */
function onlyOf(projects: readonly FoundProject[]): FoundProject | undefined {
  if (projects.length > 1)
    throw new Error(
      `This workspace has ${projects.length} projects (${projects.map((p) => serverText(p.name, 120)).join(', ')}): say which one (its row or a file of it).`,
    );
  return projects[0];
}

/** `state` when it is a valid project, else the NoProjectError that says why not. */
export function requireProject(state: ProjectState): Project {
  if (state.kind !== 'ok') throw new NoProjectError(state.kind === 'invalid' ? state.message : undefined);
  return state;
}

/**
 * The server a project names now, as records are scoped to it (src/core/deploy/scope.ts): the same
 * text as the base URL the history records as a push's target. Undefined without a valid project.
 */
export function serverOf(project: ProjectState | ProjectInfo): string | undefined {
  return project.kind === 'ok' ? normalizeOrigin(project.baseUrl) : undefined;
}
