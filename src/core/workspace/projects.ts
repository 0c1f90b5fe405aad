import { PROJECT_FILE } from './files';

/**
 * The one rule of projects, for the editor and the command line alike: a folder is a project when it
 * holds customactions.yaml itself, and a file (or a folder) belongs to the nearest project at or above
 * it. So a project nested in another one's folder owns everything below its own file, and the command
 * line started in a folder finds the project the editor would give a file there. A project file in a
 * folder the search leaves out (an installed package's) makes no project.
 */
export function nearestProject<P>(
  start: P,
  holdsProjectFile: (folder: P) => boolean,
  parentOf: (folder: P) => P | undefined,
  pathOf: (folder: P) => string = String,
): P | undefined {
  for (let folder: P | undefined = start; folder !== undefined; folder = parentOf(folder))
    if (!isExcludedFromProjectSearch(pathOf(folder)) && holdsProjectFile(folder)) return folder;
  return undefined;
}

/** The folder above a `/`-separated path (a URI's path), undefined at the top. */
export function parentPath(path: string): string | undefined {
  const trimmed = trimSlashes(path);
  const at = trimmed.lastIndexOf('/');
  if (at < 0) return trimmed === '' ? undefined : '';
  return at === 0 ? (trimmed === '/' ? undefined : '/') : trimmed.slice(0, at);
}

/** The project of `path` among known project folders (`/`-separated paths, as URIs give them). */
export function projectHolding(roots: Iterable<string>, path: string): string | undefined {
  const known = new Set([...roots].map(trimSlashes));
  return nearestProject(trimSlashes(path), (folder) => known.has(folder), parentPath);
}

/** The project folder of a project file's path; undefined for any other file. */
export function projectRootOfFile(path: string): string | undefined {
  const trimmed = trimSlashes(path);
  const at = trimmed.lastIndexOf('/');
  if (trimmed.slice(at + 1) !== PROJECT_FILE) return undefined;
  return at <= 0 ? (at === 0 ? '/' : '') : trimmed.slice(0, at);
}

/**
 * Folders whose project files are not projects: installed packages, version control's own folders,
 * VS Code's test installs. A package may ship a customactions.yaml of its own; it is not the user's.
 */
export const PROJECT_SEARCH_EXCLUDED_FOLDERS: readonly string[] = ['node_modules', 'bower_components', '.git', '.hg', '.svn', '.vscode-test'];

/** The same folders as a glob, for a workspace file search. */
export const PROJECT_SEARCH_EXCLUDE = `**/{${PROJECT_SEARCH_EXCLUDED_FOLDERS.join(',')}}/**`;

/** Whether a path lies in a folder the search leaves out (a file watcher's events are not filtered by the glob). */
export function isExcludedFromProjectSearch(path: string): boolean {
  return path.split(/[\\/]/).some((segment) => PROJECT_SEARCH_EXCLUDED_FOLDERS.includes(segment));
}

/** Where a project sits: its folder's path, and the workspace folder it is in (its name and path). */
export interface ProjectPlace {
  readonly root: string;
  readonly workspaceFolder: { readonly name: string; readonly path: string };
}

/**
 * What the tree and the pickers call each project: a workspace folder's own project its folder's
 * name, a nested one the folder's name; two that would read alike are told apart by their path in
 * their workspace folder (`api` and `tools/api`, or `web › api`).
 */
export function projectNames(places: readonly ProjectPlace[]): string[] {
  const relative = places.map((p) => {
    const inside = trimSlashes(p.root).slice(trimSlashes(p.workspaceFolder.path).length).replace(/^\/+/, '');
    return inside;
  });
  const short = places.map((p, i) => {
    const inside = relative[i]!;
    return inside === '' ? p.workspaceFolder.name : inside.slice(inside.lastIndexOf('/') + 1);
  });
  return short.map((name, i) => {
    if (short.filter((other) => other === name).length === 1) return name;
    const inside = relative[i]!;
    const folders = new Set(places.map((p) => p.workspaceFolder.name));
    const prefix = folders.size > 1 ? `${places[i]!.workspaceFolder.name}` : '';
    return [prefix, inside].filter(Boolean).join(' › ') || name;
  });
}

/** Projects in the order the tree lists them: by workspace folder (as the workspace orders them), then by path. */
export function compareProjectPlaces(a: ProjectPlace & { readonly folderIndex: number }, b: ProjectPlace & { readonly folderIndex: number }): number {
  return a.folderIndex - b.folderIndex || (a.root < b.root ? -1 : a.root > b.root ? 1 : 0);
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}
