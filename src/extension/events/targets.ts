import * as vscode from 'vscode';
import { ENVIRONMENTS, type Environment } from '../../core/schema';
import { serverText } from '../../core/text';
import { isNode, pickAction } from '../commands/commands';
import { type Parts } from '../parts';
import { type ActionEntry } from '../model';
import { type WatchTarget } from './watchers';

/** The environments of an action the server lists, as watch targets. */
export function targetsOf(action: ActionEntry, only?: Environment): WatchTarget[] {
  const remote = action.remote;
  if (!remote) return [];
  return ENVIRONMENTS.filter((env) => !only || env === only).flatMap((environment) => {
    const eventsUrl = remote.eventsUrls[environment];
    return eventsUrl ? [{ app: action.app, actionId: remote.id, actionKey: remote.key, environment, eventsUrl }] : [];
  });
}

/** The action a command is about, and the environment when the node says (a Test/Live node, or an argument). */
export async function pickTarget(
  s: Pick<Parts, 'model' | 'project'>,
  node: unknown,
  environment?: unknown,
): Promise<{ action: ActionEntry; environment: Environment | undefined } | undefined> {
  const env = isEnvironment(environment) ? environment : undefined;
  if (isNode(node) && node.kind === 'environment') return { action: node.parent, environment: node.environment };
  if (isNode(node) && node.kind === 'event') return { action: node.parent.parent, environment: node.parent.environment };
  const action = await pickAction(s, node, (a) => a.remote !== undefined);
  if (!action?.remote) {
    if (action) tellNotOnServer(action);
    return undefined;
  }
  return { action, environment: env };
}

/** For a command that needs the action on the server and was given one only in the workspace. */
export function tellNotOnServer(action: ActionEntry): void {
  void vscode.window.showInformationMessage(`${serverText(action.key, 120)} is not on the server yet: create it there first.`);
}

export function isEnvironment(value: unknown): value is Environment {
  return typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);
}

export async function pickEnvironment(placeHolder: string, both: boolean): Promise<Environment[] | undefined> {
  const items: (vscode.QuickPickItem & { envs: Environment[] })[] = [
    ...(both ? [{ label: '$(layers) Test and Live', envs: [...ENVIRONMENTS] }] : []),
    { label: '$(beaker) Test', envs: ['Test'] },
    { label: '$(globe) Live', envs: ['Live'] },
  ];
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.envs;
}
