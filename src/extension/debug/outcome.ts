import * as vscode from 'vscode';
import { errorText } from '../../core/client';
import { serverText } from '../../core/text';
import { type LocalOutcome } from '../../sandbox/runner/local/localRun';
import { type HeldTexts } from '../heldTexts';

/** What the server's event said of the same inputs: the local run is compared with it. */
export type Recorded =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: { readonly message: string; readonly stack?: string } };

/** A read-only document of a run's outcome, for Open Result and the diff. */
function runDocument(results: HeldTexts, name: string, value: unknown): vscode.Uri {
  return results.hold(`/${name.replace(/[/\\]/g, '_')}.json`, JSON.stringify(value, null, 2) + '\n');
}

/** What the outcome of a run is told of the run: the action's key and what the server recorded, when replayed from an event (a `DebugTarget` is one). */
export interface DebugTarget {
  readonly key: string;
  readonly recorded?: Recorded;
}

/**
 * The outcome as a JSON value: the result, or the error with its stack (frames on main.ts lines).
 * A local error's message is written as the recorded one is read (its name first), so the two compare.
 */
export function outcomeValue(outcome: LocalOutcome | Recorded): unknown {
  return outcome.ok ? { result: outcome.result } : { error: { message: messageOf(outcome), ...(outcome.error.stack ? { stack: outcome.error.stack } : {}) } };
}

function messageOf(outcome: Extract<LocalOutcome | Recorded, { ok: false }>): string {
  return 'name' in outcome.error ? errorText(outcome.error.name, outcome.error.message) : outcome.error.message;
}

/** Whether the local run ended as the recorded one: the same result, or both failed with the same error. */
export function sameAsRecorded(outcome: LocalOutcome, recorded: Recorded): boolean {
  if (outcome.ok !== recorded.ok) return false;
  if (outcome.ok && recorded.ok) return JSON.stringify(outcome.result) === JSON.stringify(recorded.result);
  return !outcome.ok && !recorded.ok && messageOf(outcome) === recorded.error.message;
}

/** The last local run that ended with an outcome: its result and comparison stay reachable after the notification closes. */
export interface LastLocalRun {
  readonly key: string;
  readonly outcome: LocalOutcome;
  readonly recorded: Recorded | undefined;
}

/** Set while there is a last local run: `differs` when it has a recorded event it does not match, else `done`. */
export const LAST_RUN_CONTEXT = 'customActions.lastLocalRun';

export const OPEN_RESULT = 'Open Result';
export const COMPARE_WITH_RECORDED = 'Compare with Recorded';

export function rememberRun(target: DebugTarget, outcome: LocalOutcome): LastLocalRun {
  const run = { key: target.key, outcome, recorded: target.recorded };
  const differs = run.recorded !== undefined && !sameAsRecorded(outcome, run.recorded);
  void vscode.commands.executeCommand('setContext', LAST_RUN_CONTEXT, differs ? 'differs' : 'done');
  return run;
}

export async function openResult(results: HeldTexts, run: LastLocalRun): Promise<void> {
  await vscode.window.showTextDocument(runDocument(results, `${run.key} (local run)`, outcomeValue(run.outcome)), { preview: true });
}

export async function compareWithRecorded(results: HeldTexts, run: LastLocalRun): Promise<void> {
  if (!run.recorded) return;
  const local = runDocument(results, `${run.key} (local run)`, outcomeValue(run.outcome));
  const server = runDocument(results, `${run.key} (recorded event)`, outcomeValue(run.recorded));
  await vscode.commands.executeCommand('vscode.diff', server, local, `${run.key}: recorded ↔ local run`);
}

/**
 * Tells how the local run ended, with its result one click away and, from an event, the comparison.
 * Both stay reachable once the notification is gone: Custom Actions: Open Last Local Run's Result and
 * Compare Last Local Run with Recorded Event (`run` is what they act on).
 */
export async function showOutcome(results: HeldTexts, target: DebugTarget, outcome: LocalOutcome | undefined, run?: LastLocalRun): Promise<void> {
  const key = serverText(target.key, 120);
  if (!outcome) {
    void vscode.window.showInformationMessage(`The local run of ${key} was stopped before main finished.`);
    return;
  }
  const recorded = target.recorded;
  const same = recorded ? sameAsRecorded(outcome, recorded) : undefined;
  const compared = same === undefined ? '' : same ? ' Same as the recorded event.' : ' The recorded event differs.';
  const buttons = [OPEN_RESULT, ...(recorded && !same ? [COMPARE_WITH_RECORDED] : [])];
  const problems =
    outcome.ok && outcome.resultProblems.length > 0
      ? ` The result does not fit the declared type: ${serverText(outcome.resultProblems.map((p) => `${p.path} ${p.message}`).join('; '), 300)}.`
      : '';
  const text = outcome.ok
    ? `${key} ran locally: ${serverText(JSON.stringify(outcome.result) ?? 'null', 200)}.${problems}${compared}`
    : `${key} failed locally: ${serverText(`${outcome.error.name}: ${outcome.error.message}`, 300)}.${compared}`;
  const choice =
    outcome.ok && !problems ? await vscode.window.showInformationMessage(text, ...buttons) : await vscode.window.showWarningMessage(text, ...buttons);
  const shown = run ?? { key: target.key, outcome, recorded };
  if (choice === OPEN_RESULT) await openResult(results, shown);
  if (choice === COMPARE_WITH_RECORDED) await compareWithRecorded(results, shown);
}
