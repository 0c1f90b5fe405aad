import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../core/client';
import { formatDuration, runInputProblems } from '../../core/events';
import { type Environment, type Parameter, validateMetadata } from '../../core/schema';
import { serverText } from '../../core/text';
import { pickAction } from '../commands/commands';
import { readLocalAction } from '../localActions';
import { type Events } from './index';
import { type Parts } from '../parts';
import { type ActionEntry } from '../model';
import { askInputs } from './inputForm';
import { lastInputs, rememberInputs } from './lastInputs';
import { doesNotFit, listInputSets, readInputSet, saveInputSet } from './inputSets';
import { isEnvironment, pickEnvironment, pickTarget, targetsOf, tellNotOnServer } from './targets';

/** How long a run waits for the watch's first answer before it goes ahead anyway. */
const BASELINE_WAIT_MS = 10_000;

/**
 * Runs an action once in one environment with inputs from the form, a saved set, or the caller
 * (`inputs` as an argument). Only servers with the run extra can; elsewhere runs happen on the platform.
 */
export async function runAction(
  s: Pick<Parts, 'connections' | 'context' | 'model' | 'project'> & { readonly events: Events },
  node?: unknown,
  environment?: unknown,
  inputs?: unknown,
): Promise<NormalizedEvent | undefined> {
  const picked = await pickTarget(s, node, environment);
  if (!picked) return undefined;
  const env = picked.environment ?? (await pickEnvironment(`Run ${picked.action.key} in which environment`, false))?.[0];
  if (!env) return undefined;
  if (!(await offersRuns(s, picked.action))) return undefined;
  const parameters = await parametersOf(s, picked.action);
  let values: unknown = inputs;
  let entered = false;
  if (values === undefined) {
    const chosen = await chooseInputs(s, picked.action, env, parameters);
    if (!chosen) return undefined;
    ({ values, entered } = chosen);
  } else if (parameters) {
    const problems = runInputProblems(parameters, values);
    if (problems.length > 0) throw new Error(serverText(`The inputs do not fit the parameters of ${picked.action.key}: ${problems.join('; ')}`, 800));
  }
  return execute(s, picked.action, env, values as Record<string, unknown> | unknown[], entered);
}

/** Runs the input set of an inputs/*.json file (the CodeLens above it, or the active editor). */
export async function runInputSet(
  s: Pick<Parts, 'connections' | 'model' | 'project'> & { readonly events: Events },
  uri?: unknown,
  environment?: unknown,
): Promise<NormalizedEvent | undefined> {
  const file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  const found = file && (await s.model.inputSetAt(file));
  if (!file || !found) {
    void vscode.window.showInformationMessage('Open an input set (inputs/<name>.json next to action.yaml) to run it.');
    return undefined;
  }
  const action = await pickAction(s, file, (a) => a.local?.folder.path === found.action.folder.path);
  if (!action?.remote) {
    if (action) tellNotOnServer(action);
    return undefined;
  }
  const env = isEnvironment(environment) ? environment : (await pickEnvironment(`Run ${serverText(action.key, 120)} in which environment`, false))?.[0];
  if (!env || !(await offersRuns(s, action))) return undefined;
  const set = await readInputSet(file, await parametersOf(s, action));
  if (set.problems.length > 0) throw new Error(doesNotFit(set, action.key));
  return execute(s, action, env, set.inputs as Record<string, unknown>, false);
}

async function offersRuns(s: Pick<Parts, 'connections'> & { readonly events: Events }, action: ActionEntry): Promise<boolean> {
  const app = action.app;
  const capabilities = await s.connections.call(app, (client) => client.capabilities());
  if (capabilities.run) return true;
  const choice = await vscode.window.showInformationMessage(
    `Runs of ${serverText(action.key, 120)} happen on the platform: each time a module that uses it runs, an event is recorded. This server offers no way to start a run from here.`,
    'Watch Live Events',
  );
  if (choice) for (const target of targetsOf(action, 'Live')) s.events.watch(target);
  if (choice) s.events.showChannel(true);
  return false;
}

/** The declared parameters: from the local action.yaml, else from the server where it can say. */
async function parametersOf(s: Pick<Parts, 'connections'>, action: ActionEntry): Promise<Parameter[] | undefined> {
  if (action.local) {
    const local = await readLocalAction(action.local.folder);
    if (local?.metadata) return local.metadata.parameters;
  }
  const remote = action.remote;
  if (!remote) return undefined;
  const app = action.app;
  const capabilities = await s.connections.call(app, (client) => client.capabilities());
  if (!capabilities.getAction) return undefined;
  const resource = await s.connections.call(app, (client) => client.getAction(remote.id));
  const checked = validateMetadata(resource);
  return checked.ok ? checked.value.parameters : undefined;
}

async function chooseInputs(
  s: Pick<Parts, 'context' | 'project'>,
  action: ActionEntry,
  env: Environment,
  parameters: Parameter[] | undefined,
): Promise<{ values: unknown; entered: boolean } | undefined> {
  const title = `Run ${serverText(action.key, 120)} in ${env}`;
  const sets = action.local ? await listInputSets(action.local.folder, parameters) : [];
  if (sets.length > 0) {
    const items = [
      { label: '$(edit) Enter inputs…', set: undefined },
      ...sets.map((set) => ({
        label: `$(json) ${serverText(set.name, 120)}`,
        description: set.problems.length ? `$(warning) ${set.problems.length} problem(s)` : undefined,
        detail: set.problems.length ? serverText(set.problems.join('; '), 300) : undefined,
        set,
      })),
    ];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Inputs: enter them, or run a saved set' });
    if (!picked) return undefined;
    if (picked.set) {
      if (picked.set.problems.length > 0) {
        const open = await vscode.window.showErrorMessage(doesNotFit(picked.set, undefined), 'Open');
        if (open) await vscode.window.showTextDocument(picked.set.uri);
        return undefined;
      }
      return { values: picked.set.inputs, entered: false };
    }
  }
  const owner = { remoteId: action.remote?.id, key: action.key, at: action.local?.folder ?? action.app.folderUri };
  const previous = lastInputs(s, owner);
  const values = parameters ? await askInputs(title, parameters, previous) : await askJson(title, previous);
  if (values === undefined) return undefined;
  await rememberInputs(s, owner, values);
  return { values, entered: parameters !== undefined };
}

/** Without declared parameters (an action only on the server) the inputs are typed as JSON. */
async function askJson(title: string, previous: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt: 'The parameters of this action are not known here (pull it to get them): the inputs as a JSON object by parameter name, or an array in order',
    value: Object.keys(previous).length ? JSON.stringify(previous) : '{}',
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        const parsed: unknown = JSON.parse(v);
        return typeof parsed === 'object' && parsed !== null ? undefined : 'A JSON object or array';
      } catch {
        return 'Not valid JSON';
      }
    },
  });
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

async function execute(
  s: Pick<Parts, 'connections'> & { readonly events: Events },
  action: ActionEntry,
  env: Environment,
  inputs: Record<string, unknown> | unknown[],
  entered: boolean,
): Promise<NormalizedEvent | undefined> {
  const [target] = targetsOf(action, env);
  if (!target) throw new Error(`The server lists no ${env} environment for ${action.key}.`);
  // The watch's first answer is its baseline: it must be in before the run, or the run's event would be taken as old.
  const watch = s.events.watch(target);
  await Promise.race([watch.poller.whenReady(), new Promise((resolve) => setTimeout(resolve, BASELINE_WAIT_MS))]);
  const event = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running ${serverText(action.key, 120)} in ${env}…` },
    () => s.connections.call(action.app, (client) => client.runAction(target.eventsUrl, env, inputs)),
  );
  s.events.poke(target.actionId);
  void announce(s, action, env, event, entered ? (inputs as Record<string, unknown>) : undefined);
  return event;
}

async function announce(
  s: { readonly events: Events },
  action: ActionEntry,
  env: Environment,
  event: NormalizedEvent,
  toSave: Record<string, unknown> | undefined,
): Promise<void> {
  const took = event.duration === undefined ? '' : ` in ${formatDuration(event.duration)}`;
  const buttons = ['Show Events', ...(toSave && action.local ? ['Save Inputs as Set…'] : [])];
  const choice = event.ok
    ? await vscode.window.showInformationMessage(serverText(`${action.key} ran in ${env}: success${took}.${resultText(event.result)}`), ...buttons)
    : await vscode.window.showWarningMessage(
        serverText(`${action.key} ran in ${env}: failure${took}: ${event.error?.message ?? 'no reason given'}`),
        ...buttons,
      );
  if (choice === 'Show Events') s.events.showChannel(false);
  if (choice === 'Save Inputs as Set…' && toSave && action.local) {
    const saved = await saveInputSet(action.local.folder, toSave);
    if (saved) await vscode.window.showTextDocument(saved, { preview: true });
  }
}

function resultText(result: unknown): string {
  if (result === undefined) return '';
  const text = JSON.stringify(result) ?? String(result);
  return ` Result: ${text.length > 200 ? text.slice(0, 199) + '…' : text}`;
}
