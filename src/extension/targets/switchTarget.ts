import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../../core/schema';
import { serverText } from '../../core/text';
import { projectTargets, type ProjectTarget } from '../../core/workspace';
import { NAMES_TARGETS, pickValidProject } from '../commands/commands';
import { type Parts } from '../parts';

type TargetItem = vscode.QuickPickItem & { readonly target: ProjectTarget };

/**
 * Switch Target: a pick of the project's targets (docs/environments.md, *In the editor*), remembered
 * for the project in the workspace's state. The tree, events, History, the Testing view's server
 * profile and save-to-deploy follow through the project's change event. Returns the target now active.
 */
export async function switchTarget(s: Pick<Parts, 'project' | 'log'>, name?: unknown): Promise<string | undefined> {
  // A project's row, or the active editor's file, decides which project; else the pick of those with targets.
  const project = await pickValidProject(s, typeof name === 'string' ? undefined : name, 'Switch the target of which project', NAMES_TARGETS);
  if (!project) return undefined;
  const targets = projectTargets(project.file);
  const current = project.target.target.name;
  let chosen: ProjectTarget | undefined;
  if (typeof name === 'string') {
    chosen = targets.find((t) => t.name === name);
    if (!chosen)
      throw new Error(`customactions.yaml has no target ${serverText(name, 80)} (its targets: ${targets.map((t) => serverText(t.name, 80)).join(', ')}).`);
  } else {
    const items: TargetItem[] = targets.map((target) => ({
      label: `${target.name === current ? '$(check) ' : ''}${serverText(target.name, 80)}${target.protected ? ' $(lock)' : ''}`,
      description: describe(target),
      target,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Custom Actions: Switch Target',
      placeHolder: `The target the editor works on (now ${serverText(current, 80)}); the command line chooses its own`,
      matchOnDescription: true,
    });
    chosen = picked?.target;
  }
  if (!chosen) return current;
  if (chosen.name === current && s.project.pickedTargetOf(project.uri) === current) return current;
  const state = await s.project.pickTarget(chosen.name, project.uri);
  if (state.kind !== 'ok') return undefined;
  s.log.info(`The editor's target is now ${state.target.target.name} (${state.baseUrl}).`);
  return state.target.target.name;
}

function describe(target: ProjectTarget): string {
  const server = target.baseUrl === LOCAL_SANDBOX ? 'the local sandbox' : target.baseUrl;
  const marks = [target.isDefault ? 'the default' : '', target.protected ? 'protected: a save pushes nothing by itself' : ''].filter(Boolean);
  return serverText([server, ...marks].join(' · '), 200);
}
