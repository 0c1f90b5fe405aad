import type * as vscode from 'vscode';
import { INPUTS_FOLDER } from '../../core/workspace';
import { type Application } from '../project';
import { projectAt } from '../projectAt';

/**
 * The one rule of where a file sits: an application's folder holds one folder per action, and an
 * action's files sit directly in it (`<application folder>/<action folder>/<name>`).
 */

/** A file directly inside an action folder. */
export interface ActionFile {
  readonly app: Application;
  readonly folder: vscode.Uri;
  readonly uri: vscode.Uri;
  readonly name: string;
}

function trimmed(path: string): string {
  return path.replace(/\/+$/, '');
}

/** The path of `uri` below the application's folder, as segments; undefined when it is not below it. */
function below(app: Application, uri: vscode.Uri): string[] | undefined {
  const root = app.folderUri;
  if (root.scheme !== uri.scheme || root.authority !== uri.authority) return undefined;
  const prefix = trimmed(root.path) + '/';
  const path = trimmed(uri.path);
  return path.startsWith(prefix) ? path.slice(prefix.length).split('/') : undefined;
}

/** Where projects sit: every project found, valid or not (a nested project whose file is broken still owns its files). */
export type ProjectRoots = readonly { readonly root: vscode.Uri }[];

/**
 * The applications of the project `uri` belongs to, the nearest customactions.yaml at or above it
 * (src/core/workspace/projects.ts), among `projects` (by default those of the applications given): a
 * project nested in another's application folder owns its files, even while its file is invalid.
 */
function ofItsProject(
  applications: readonly Application[],
  uri: vscode.Uri,
  projects: ProjectRoots = applications.map((app) => app.project),
): readonly Application[] {
  const roots = [...new Map(projects.map((p) => [p.root.toString(), p])).values()];
  if (roots.length <= 1) return applications;
  const project = projectAt(roots, uri);
  return project ? applications.filter((app) => app.project.root.toString() === project.root.toString()) : [];
}

/** The application whose folder holds `uri` (at any depth). */
export function applicationContaining(applications: readonly Application[], uri: vscode.Uri, projects?: ProjectRoots): Application | undefined {
  return ofItsProject(applications, uri, projects).find((app) => below(app, uri) !== undefined);
}

/** The action folder `uri` is in or is: the first folder below its application's folder. */
export function actionFolderContaining(
  applications: readonly Application[],
  uri: vscode.Uri,
  projects?: ProjectRoots,
): { app: Application; folder: vscode.Uri; depth: number } | undefined {
  for (const app of ofItsProject(applications, uri, projects)) {
    const parts = below(app, uri);
    if (parts?.[0]) return { app, folder: app.folderUri.with({ path: `${trimmed(app.folderUri.path)}/${parts[0]}` }), depth: parts.length };
  }
  return undefined;
}

/** Which application and action folder a file belongs to; undefined for anything not directly in an action folder. */
export function actionFileAt(applications: readonly Application[], uri: vscode.Uri, projects?: ProjectRoots): ActionFile | undefined {
  const found = actionFolderContaining(applications, uri, projects);
  if (found?.depth !== 2) return undefined;
  return { app: found.app, folder: found.folder, uri, name: uri.path.slice(uri.path.lastIndexOf('/') + 1) };
}

/** The application and action folder of an input set, `<action folder>/inputs/<name>.json`; undefined for any other file. */
export function inputSetFileAt(
  applications: readonly Application[],
  uri: vscode.Uri,
  projects?: ProjectRoots,
): { app: Application; folder: vscode.Uri } | undefined {
  const found = actionFolderContaining(applications, uri, projects);
  if (found?.depth !== 3 || !uri.path.toLowerCase().endsWith('.json')) return undefined;
  const parts = uri.path.split('/');
  return parts[parts.length - 2] === INPUTS_FOLDER ? { app: found.app, folder: found.folder } : undefined;
}

/** An action folder's name in its application's folder, as the lock records it (the core's `renamedActions`). */
export function folderNameOf(folder: vscode.Uri): string {
  return folder.path.split('/').pop() ?? '';
}
