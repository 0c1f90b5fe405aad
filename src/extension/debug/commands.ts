import * as vscode from 'vscode';
import { normalizeEvent } from '../../core/client';
import { declaredInputs, formatWhen } from '../../core/events';
import { type Parameter } from '../../core/schema';
import { serverText } from '../../core/text';
import { ACTION_FILE, MAIN_FILE } from '../../core/workspace';
import { askInputs, doesNotFit, type InputsOwner, lastInputs, listInputSets, readInputSet, rememberInputs, saveInputSet } from '../events/commands';
import { type LocalAction } from '../localActions';
import { type LocalDebug } from './localDebug';
import { type Parts } from '../parts';
import { type EventSource, eventSource } from './eventSource';
import { type DebugRun } from './localDebug';

// How a local run of main is asked for through the harness (dist/run-local.js), which the Testing
// view's Local runs share with the debugger. On demand, as it is.
export { currentMainText, harnessPath, harnessRuntime, localRunRequest } from './localHarness';

/** The debug commands, merged into the command table (handlers/table.ts). */
export const DEBUG_COMMANDS = {
  'customActions.debugMain': debugMain,
  'customActions.debugInputSet': debugInputSet,
  'customActions.debugEvent': debugEvent,
  'customActions.saveEventAsInputSet': saveEventAsInputSet,
  'customActions.openLocalRunResult': openLocalRunResult,
  'customActions.compareLocalRunWithRecorded': compareLocalRunWithRecorded,
} satisfies Record<string, (s: never, ...args: never[]) => unknown>;

const ENTER_INPUTS = 'Enter Inputs…';

/** Debug above `main` (or on the active main.ts): inputs from a saved set or the form, or `inputs` from the caller. */
export async function debugMain(
  s: Pick<Parts, 'context' | 'model' | 'project' | 'trust'> & { readonly debug: LocalDebug },
  uri?: unknown,
  inputs?: unknown,
): Promise<DebugRun | undefined> {
  s.trust.require('Debugging an action');
  const file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  const local = file && file.path.endsWith(`/${MAIN_FILE}`) ? (await s.model.localActionAt(file))?.action : undefined;
  if (!file || !local) {
    void vscode.window.showInformationMessage(`Open the ${MAIN_FILE} of an action (beside its ${ACTION_FILE}) to debug it.`);
    return undefined;
  }
  const parameters = parametersOf(local);
  const chosen =
    inputs !== undefined
      ? { inputs, label: 'given inputs' }
      : await chooseInputs(s, local, parameters, { remoteId: await remoteIdOf(s, file), key: local.key, at: local.folder });
  if (chosen === undefined) return undefined;
  return s.debug.debug({ key: local.key, folder: local.folder, metadata: metadataOf(local), inputs: chosen.inputs, label: chosen.label });
}

/** Debug above an input set file. */
export async function debugInputSet(s: Pick<Parts, 'model' | 'trust'> & { readonly debug: LocalDebug }, uri?: unknown): Promise<DebugRun | undefined> {
  s.trust.require('Debugging an action');
  const file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  const local = file && (await s.model.inputSetAt(file))?.action;
  if (!file || !local) {
    void vscode.window.showInformationMessage('Open an input set (inputs/<name>.json next to action.yaml) to debug it.');
    return undefined;
  }
  const set = await readInputSet(file, parametersOf(local));
  if (set.problems.length > 0) throw new Error(doesNotFit(set, local.key));
  return s.debug.debug({ key: local.key, folder: local.folder, metadata: metadataOf(local), inputs: set.inputs, label: `input set ${set.name}` });
}

/** Replays an event's inputs under the debugger, on main.ts as it is in the editor, and compares with what was recorded. */
export async function debugEvent(
  s: Pick<Parts, 'context' | 'eventDocuments' | 'model' | 'project' | 'trust'> & { readonly debug: LocalDebug },
  arg?: unknown,
): Promise<DebugRun | undefined> {
  s.trust.require('Debugging an action');
  const source = await eventSource(s, arg);
  if (!source) return undefined;
  const local = source.local;
  if (!local) {
    void vscode.window.showInformationMessage(`${serverText(source.key, 120)} has no folder in this workspace: pull it to debug its events.`);
    return undefined;
  }
  let inputs: unknown = source.inputs;
  if (inputs === undefined) {
    const choice = await vscode.window.showInformationMessage(
      `This event does not carry the inputs its run received (the server does not record them). Enter them to debug ${serverText(local.key, 120)}? The form starts from the inputs last entered for it.`,
      ENTER_INPUTS,
    );
    if (choice !== ENTER_INPUTS) return undefined;
    inputs = await askRemembered(s, `Debug ${serverText(local.key, 120)}`, parametersOf(local), {
      remoteId: source.actionId,
      key: local.key,
      at: local.folder,
    });
    if (inputs === undefined) return undefined;
  }
  const at = normalizeEvent(source.raw).startTime;
  const label = at === undefined ? 'recorded event' : `recorded event ${formatWhen(at, false)}`;
  return s.debug.debug({ key: local.key, folder: local.folder, metadata: metadataOf(local), inputs, recorded: source.recorded, label });
}

/** The result of the last local run, after its notification closed. */
export async function openLocalRunResult(s: { readonly debug: LocalDebug }): Promise<void> {
  if (!(await s.debug.openLastResult()))
    void vscode.window.showInformationMessage('No local run has ended yet: Debug an action, an input set or an event first.');
}

/** The last local run beside the recorded event it replayed, after its notification closed. */
export async function compareLocalRunWithRecorded(s: { readonly debug: LocalDebug }): Promise<void> {
  if (!(await s.debug.compareLastWithRecorded()))
    void vscode.window.showInformationMessage('The last local run replayed no recorded event: Debug Event compares a run with the event it replays.');
}

/** Saves the inputs of an event as an input set of its action. */
export async function saveEventAsInputSet(s: Pick<Parts, 'eventDocuments' | 'model'>, arg?: unknown): Promise<vscode.Uri | undefined> {
  const kept = await eventToKeep(s, arg);
  if (!kept) return undefined;
  const saved = await saveInputSet(kept.local.folder, kept.inputs);
  if (saved) await vscode.window.showTextDocument(saved, { preview: true });
  return saved;
}

/** An event whose inputs can be kept in its action's folder (Save as Input Set, Pin as Test); else says why not. */
export async function eventToKeep(
  s: Pick<Parts, 'eventDocuments' | 'model'>,
  arg: unknown,
): Promise<(EventSource & { local: LocalAction; inputs: Record<string, unknown> }) | undefined> {
  const source = await eventSource(s, arg);
  if (!source) return undefined;
  if (!source.local) {
    void vscode.window.showInformationMessage(`${serverText(source.key, 120)} has no folder in this workspace: pull it to keep input sets.`);
    return undefined;
  }
  if (!source.inputs) {
    void vscode.window.showInformationMessage('This event does not carry the inputs its run received: there is nothing to save.');
    return undefined;
  }
  const metadata = source.local.metadata;
  if (!metadata) {
    void vscode.window.showWarningMessage(
      serverText(`The ${ACTION_FILE} of ${source.local.key} has problems: fix them to keep the event's inputs (they are checked against its parameters).`, 300),
    );
    return undefined;
  }
  // The event's members are the server's text: only those that name a declared parameter are kept.
  const { kept, dropped } = declaredInputs(metadata.parameters, source.inputs);
  if (dropped.length > 0) {
    const names =
      dropped
        .slice(0, 5)
        .map((name) => `"${name}"`)
        .join(', ') + (dropped.length > 5 ? ` and ${dropped.length - 5} more` : '');
    void vscode.window.showWarningMessage(
      serverText(
        `The event's inputs name ${dropped.length === 1 ? 'a member' : 'members'} that ${source.local.key} does not declare as parameters, left out: ${names}.`,
        400,
      ),
    );
  }
  return { ...source, local: source.local, inputs: kept };
}

/** The server's id of the action holding `file`, through the model; undefined when it has none or the server cannot say. */
function remoteIdOf(s: Pick<Parts, 'model'>, file: vscode.Uri): Promise<string | undefined> {
  return s.model.actionAt(file).then(
    (entry) => entry?.remote?.id,
    () => undefined,
  );
}

function parametersOf(local: LocalAction): Parameter[] {
  return metadataOf(local).parameters;
}

function metadataOf(local: LocalAction): NonNullable<LocalAction['metadata']> {
  if (!local.metadata)
    throw new Error(`The ${ACTION_FILE} of ${local.key} has problems: fix them to debug the action (its parameters and result type come from it).`);
  return local.metadata;
}

/** A saved set, or the typed input form (prefilled with the inputs last entered for the action). */
async function chooseInputs(
  s: Pick<Parts, 'context' | 'project'>,
  local: LocalAction,
  parameters: Parameter[],
  owner: InputsOwner,
): Promise<{ inputs: unknown; label: string } | undefined> {
  const title = `Debug ${serverText(local.key, 120)}`;
  const sets = await listInputSets(local.folder, parameters);
  const usable = sets.filter((set) => set.problems.length === 0);
  if (usable.length > 0) {
    const picked = await vscode.window.showQuickPick(
      [{ label: '$(edit) Enter inputs…', set: undefined }, ...usable.map((set) => ({ label: `$(json) ${serverText(set.name, 120)}`, set }))],
      {
        title,
        placeHolder: 'Inputs: enter them, or debug a saved set',
      },
    );
    if (!picked) return undefined;
    if (picked.set) return { inputs: picked.set.inputs, label: `input set ${picked.set.name}` };
  }
  const entered = await askRemembered(s, title, parameters, owner);
  return entered === undefined ? undefined : { inputs: entered, label: 'entered inputs' };
}

/** The typed input form, starting from the inputs last entered for the action (in Run or Debug), which it remembers. */
async function askRemembered(
  s: Pick<Parts, 'context' | 'project'>,
  title: string,
  parameters: Parameter[],
  owner: InputsOwner,
): Promise<Record<string, unknown> | undefined> {
  const values = await askInputs(title, parameters, lastInputs(s, owner));
  if (values !== undefined) await rememberInputs(s, owner, values);
  return values;
}
