import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { isNode } from '../commands/commands';
import { type Parts } from '../parts';
import { type Events } from './index';
import { runAction, runInputSet } from './run';
import { pickEnvironment, pickTarget, targetsOf } from './targets';

// What Debug, Pin as Test and the Testing view's runs share with Run: the typed input form, input sets,
// the inputs last entered, and an action's environments as watch targets. On demand, as they are.
export { askInputs } from './inputForm';
export { doesNotFit, listInputSets, readInputSet, saveInputSet } from './inputSets';
export { type InputsOwner, lastInputs, rememberInputs } from './lastInputs';
export { targetsOf } from './targets';

/** The events commands, merged into the command table (handlers/table.ts). */
export const EVENT_COMMANDS = {
  'customActions.showEvents': showEvents,
  'customActions.stopWatching': stopWatching,
  'customActions.stopAllWatching': stopAllWatching,
  'customActions.runAction': runAction,
  'customActions.runInputSet': runInputSet,
} satisfies Record<string, (s: never, ...args: never[]) => unknown>;

/** Watches an environment node's events, or both environments of an action. */
export async function showEvents(
  s: Pick<Parts, 'model' | 'project' | 'trust'> & { readonly events: Events },
  node?: unknown,
  environment?: unknown,
): Promise<void> {
  // A watch polls the server the workspace names, with the key.
  s.trust.require('Watching events');
  const picked = await pickTarget(s, node, environment);
  if (!picked) return;
  let envs = picked.environment ? [picked.environment] : undefined;
  if (!envs && !isNode(node)) envs = await pickEnvironment(`Watch which events of ${serverText(picked.action.key, 120)}`, true);
  const targets = envs ? envs.flatMap((env) => targetsOf(picked.action, env)) : targetsOf(picked.action);
  if (targets.length === 0) return;
  for (const target of targets) s.events.watch(target);
  s.events.showChannel(true);
}

export async function stopWatching(s: Pick<Parts, 'model' | 'project'> & { readonly events: Events }, node?: unknown): Promise<void> {
  const watches = s.events.list();
  if (watches.length === 0) {
    void vscode.window.showInformationMessage('No events are being watched.');
    return;
  }
  if (isNode(node)) {
    const picked = await pickTarget(s, node);
    const ids = picked ? targetsOf(picked.action, picked.environment).map((t) => s.events.find(t.app, t.eventsUrl)?.id) : [];
    for (const id of ids) if (id) await s.events.unwatch(id);
    return;
  }
  const chosen = await vscode.window.showQuickPick(
    watches.map((w) => ({ label: `${serverText(w.actionKey, 120)} · ${w.environment}`, description: w.app.label, id: w.id })),
    { placeHolder: 'Stop watching which events', canPickMany: true },
  );
  for (const item of chosen ?? []) await s.events.unwatch(item.id);
}

export async function stopAllWatching(s: { readonly events: Events }): Promise<void> {
  await s.events.unwatchAll();
}
