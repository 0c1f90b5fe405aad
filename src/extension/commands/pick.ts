import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { type Application, type FoundProject, NoProjectError, type Project, requireProject } from '../project';
import { type Parts } from '../parts';
import { type ActionEntry } from '../model';
import { isNode } from '../tree';
import { type ProjectNode } from '../tree/nodes';

// How a command finds what it was run on: a row, a file, or a quick pick. In the on-demand bundle: only
// commands import this, never activation (a picker at activation would load it there).
export { isNode };

/**
 * What a command needs of a project (Switch Target and Promote: targets of its own): which projects
 * fit, and what a message says of one that does not, or of a workspace where none does.
 */
export interface ProjectNeed {
  readonly fits: (project: Project) => boolean;
  /** Why `project` (one of `count`) does not fit; without one, why none of the `count` projects does. */
  readonly unmet: (project: Project | undefined, count: number) => string;
}

/** What to add, said once for both messages: a user of the extension has no docs folder at hand. */
const ADD_TARGETS = 'Add a targets section naming each server (staging, production) with its baseUrl and application ids.';

/** A project whose customactions.yaml names targets (docs/environments.md). */
export const NAMES_TARGETS: ProjectNeed = {
  fits: (project) => project.hasTargets,
  unmet: (project, count) =>
    project
      ? `${projectFileOf(project, count)} names no targets. ${ADD_TARGETS}`
      : `None of the ${count} projects of this workspace names targets in its customactions.yaml. ${ADD_TARGETS}`,
};

/**
 * The project a command acts on: the row it was invoked on (a project's, or one below it), else the
 * project of the active editor's file (the nearest customactions.yaml above it), else the only one,
 * else the user's pick. Undefined when the pick was dismissed; an error that says why when there is
 * none, or, with a `need`, when the project found does not meet it or no project does (the others are
 * not offered).
 */
export async function pickProject(
  s: Pick<Parts, 'project'>,
  node: unknown,
  placeHolder = 'Which project',
  need?: ProjectNeed,
): Promise<FoundProject | undefined> {
  const all = await s.project.all();
  const fromNode = projectOfNode(node);
  const root = fromNode ?? decidingFile(node);
  const decided = root && (fromNode ? s.project.current(fromNode) : s.project.projectOf(root));
  // An invalid project is handed on as it is: what is wrong with its file says more than what it lacks.
  const checked = (project: FoundProject): FoundProject => {
    if (need && project.kind === 'ok' && !need.fits(project)) throw new Error(need.unmet(project, all.length));
    return project;
  };
  if (decided) return checked(decided);
  if (all.length === 0) throw new NoProjectError();
  if (all.length === 1) return checked(all[0]!);
  const projects = need ? all.filter((p) => p.kind === 'ok' && need.fits(p)) : all;
  if (projects.length === 0 && need) throw new Error(need.unmet(undefined, all.length));
  if (projects.length === 1) return projects[0];
  const picked = await vscode.window.showQuickPick(
    projects.map((project) => ({ label: serverText(project.name, 120), description: projectDescription(project), project })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.project;
}

/** A valid project, as pickProject finds it; a NoProjectError (which says why) for an invalid one. */
export async function pickValidProject(s: Pick<Parts, 'project'>, node: unknown, placeHolder?: string, need?: ProjectNeed): Promise<Project | undefined> {
  const project = await pickProject(s, node, placeHolder, need);
  return project && requireProject(project);
}

/**
 * The application a command acts on: the row it was invoked on, else one of the project the row or the
 * active editor's file decides, else of every project (each named beside it when there are several):
 * the only one, else the user's pick.
 */
export async function pickApplication(s: Pick<Parts, 'project'>, node: unknown, placeHolder = 'Application'): Promise<Application | undefined> {
  const fromNode = applicationOf(node);
  if (fromNode) return fromNode;
  const projects = await s.project.valid();
  const root = projectOfNode(node) ?? decidingFile(node);
  const decided = root && s.project.projectOf(root);
  const [first] = projects;
  if (!decided && !first) {
    // No valid project: say why (the reason of an invalid one, else that there is none).
    const [invalid] = await s.project.all();
    throw new NoProjectError(invalid?.kind === 'invalid' ? invalid.message : undefined);
  }
  const candidates = decided?.kind === 'ok' ? [decided] : decided ? [requireProject(decided)] : projects;
  const applications = candidates.flatMap((p) => p.applications);
  if (applications.length === 0) {
    const project = candidates[0] ?? first;
    void vscode.window
      .showInformationMessage(`${projectFileOf(project, projects.length)} lists no applications yet: add one first.`, 'Add Application')
      .then((c) => {
        if (c) void vscode.commands.executeCommand('customActions.addApplication', project && projectArgument(project));
      });
    return undefined;
  }
  if (applications.length === 1) return applications[0];
  const several = candidates.length > 1;
  const picked = await vscode.window.showQuickPick(
    applications.map((app) => ({
      label: app.label,
      description: serverText(several ? `${app.id} · ${app.project.name}` : app.id, 120),
      app,
    })),
    { placeHolder, matchOnDescription: true },
  );
  return picked?.app;
}

/** What a project is called where a message names it: its file, and its folder when there are several. */
export function projectFileOf(project: { readonly name: string } | undefined, count: number): string {
  return project && count > 1 ? `customactions.yaml of ${serverText(project.name, 120)}` : 'customactions.yaml';
}

/** A project as a command's argument, as a project's row hands it. */
export function projectArgument(project: FoundProject): ProjectNode {
  return { kind: 'project', project };
}

/** Where a project deploys, for pickers and its row: its target and server, or why it is not valid. */
export function projectDescription(project: FoundProject): string {
  if (project.kind === 'invalid') return 'customactions.yaml is not valid';
  const server = project.isSandbox ? 'local sandbox' : project.baseUrl;
  return serverText(project.hasTargets ? `${project.target.target.name} · ${server}` : server, 200);
}

/** The folder of the project a row belongs to. */
function projectOfNode(node: unknown): vscode.Uri | undefined {
  if (!isNode(node)) return undefined;
  if (node.kind === 'project') return node.project.root;
  return applicationOf(node)?.project.root;
}

/** A file that decides the project: the one a command was given, else the active editor's (when it is a file of the workspace). */
function decidingFile(node: unknown): vscode.Uri | undefined {
  if (node instanceof vscode.Uri) return node;
  if (isNode(node)) return undefined;
  return vscode.window.activeTextEditor?.document.uri;
}

/** The action a command acts on: the tree node, or the action folder of the given file or the active editor, or a pick. */
export async function pickAction(
  s: Pick<Parts, 'model' | 'project'>,
  node: unknown,
  filter: (a: ActionEntry) => boolean = () => true,
): Promise<ActionEntry | undefined> {
  if (isNode(node) && node.kind === 'action') return node;
  if (isNode(node) && node.kind === 'history') return node.parent;
  const editorUri = node instanceof vscode.Uri ? node : vscode.window.activeTextEditor?.document.uri;
  const found = editorUri ? await s.model.actionAt(editorUri) : undefined;
  if (found && filter(found)) return found;
  const chosenApp = await pickApplication(s, undefined);
  if (!chosenApp) return undefined;
  const actions = (await s.model.actions(chosenApp)).filter(filter);
  if (actions.length === 0) {
    void vscode.window.showInformationMessage(`No action of ${chosenApp.label} fits this command.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    actions.map((a) => ({ label: serverText(a.local?.name ?? a.remote?.name ?? a.key, 120), description: serverText(a.key, 120), action: a })),
    { placeHolder: 'Action' },
  );
  return picked?.action;
}

function applicationOf(node: unknown): Application | undefined {
  if (!isNode(node)) return undefined;
  switch (node.kind) {
    case 'application':
      return node.app;
    case 'action':
      return node.parent.app;
    case 'environment':
      return node.parent.parent.app;
    case 'event':
      return node.parent.parent.parent.app;
    case 'history':
      return node.parent.parent.app;
    case 'version':
      return node.parent.parent.parent.app;
    default:
      return undefined;
  }
}
