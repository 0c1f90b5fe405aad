/**
 * One run of `main` from the user's machine: the sandbox's own input check, the sandbox's run.ts and
 * realm.ts (the same globals, timers, console and result rules), then the declared result type
 * checked as the Testing feature checks it. Two ways to carry it out share the steps here:
 *
 * - a test run (the Testing view's Local profile, `custom-actions test`) in the sandbox's own runner
 *   process, confined as the sandbox confines it (harnessPool.ts);
 * - a debugged run (runLocally), inside the process VS Code's JavaScript debugger started, with no
 *   time limit (a paused script must not be killed) and no confinement (the inspector needs an
 *   ordinary process; docs/security.md, *Local debug runs*).
 */
import { type ActionMetadata, type LogEntry } from '../../../core/schema';
import { checkResult, type ResultProblem } from '../../../core/testing/resultCheck';
import { DEFAULT_LIMITS } from '../../limits';
import { type Run, startRun } from '../child/run';
import { checkInputs, type InputProblem } from '../inputs';
import { type RunError, type RunMessage, type RunnerMessage } from '../protocol';
import { compileForDebug, type DebugScript, toMainStack } from './compileForDebug';

export interface LocalRunRequest {
  /** The absolute path of main.ts: the source map's source, and what stacks name. */
  readonly mainPath: string;
  /** main.ts as it is in the editor. */
  readonly code: string;
  readonly metadata: ActionMetadata;
  /** By parameter name (as events carry them) or in parameter order. */
  readonly inputs: unknown;
  /** A test run's limit (the sandbox's, by default); a debugged run has none, as a paused script must not be killed. */
  readonly timeoutMs?: number;
}

export type LocalOutcome =
  | { readonly ok: true; readonly result: unknown; readonly resultProblems: readonly ResultProblem[]; readonly duration: number }
  | { readonly ok: false; readonly error: RunError; readonly inputProblems?: readonly InputProblem[]; readonly duration: number };

type Done = Extract<RunnerMessage, { type: 'done' }>;

/** A request made ready to run: the message for run.ts, and how its end reads as an outcome. */
export type PreparedRun =
  | { readonly ok: true; readonly message: RunMessage; readonly outcome: (done: Done, duration: number) => LocalOutcome }
  | { readonly ok: false; readonly outcome: LocalOutcome };

/** The inputs checked and main.ts compiled, as the sandbox does before a run; a failure is the run's outcome. */
export function prepareLocalRun(request: LocalRunRequest, runId: number, timeoutMs: number): PreparedRun {
  const checked = checkInputs(request.metadata, request.inputs);
  if (!checked.ok) {
    const error = {
      name: 'InputError',
      message: `the inputs do not match the parameters: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      code: 'invalid-inputs',
    };
    return { ok: false, outcome: { ok: false, error, inputProblems: checked.problems, duration: 0 } };
  }
  const compiled = compileForDebug(request.code, request.mainPath);
  if (!compiled.ok) {
    const where = compiled.error.line === undefined ? '' : ` (${request.mainPath}:${compiled.error.line})`;
    return { ok: false, outcome: { ok: false, error: { name: 'SyntaxError', message: compiled.error.message + where, code: 'invalid-code' }, duration: 0 } };
  }
  const script: DebugScript = compiled.script;
  const message: RunMessage = {
    type: 'run',
    runId,
    js: script.js,
    inputsJson: JSON.stringify(checked.values),
    filename: script.filename,
    maxLogEntries: DEFAULT_LIMITS.logEntriesPerRun,
    maxLogChars: DEFAULT_LIMITS.logMessageChars,
    maxResultBytes: DEFAULT_LIMITS.resultBytes,
    timeoutMs,
  };
  const outcome = (done: Done, duration: number): LocalOutcome => {
    if (done.ok) {
      const result = JSON.parse(done.resultJson) as unknown;
      return { ok: true, result, resultProblems: checkResult(request.metadata.result.type, result), duration };
    }
    const stack = toMainStack(done.error.stack, script, request.mainPath);
    return { ok: false, error: { ...done.error, ...(stack === undefined ? {} : { stack }) }, duration };
  };
  return { ok: true, message, outcome };
}

/** Runs main once in this process, for the debugger; `log` gets each console entry as it is written. Never rejects. */
export function runLocally(request: LocalRunRequest, log: (entry: LogEntry) => void, onRun: (run: Run) => void = () => undefined): Promise<LocalOutcome> {
  const started = performance.now();
  const duration = () => Math.round((performance.now() - started) * 1000) / 1000;
  const prepared = prepareLocalRun(request, 1, request.timeoutMs ?? Number.POSITIVE_INFINITY);
  if (!prepared.ok) return Promise.resolve({ ...prepared.outcome, duration: duration() });
  return new Promise<LocalOutcome>((resolve) => {
    const run = startRun(
      prepared.message,
      (message) => {
        if (message.type === 'log') log(message.entry);
        else if (message.type === 'done') resolve(prepared.outcome(message, duration()));
      },
      () => undefined,
    );
    onRun(run);
  });
}
