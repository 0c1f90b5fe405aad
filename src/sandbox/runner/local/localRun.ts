/**
 * One run of `main` on the user's machine, for the debugger: the sandbox's own input check, its
 * run.ts and realm.ts (the same globals, timers, console and result rules), then the declared
 * result type checked as the Testing feature checks it. What differs from the sandbox, and cannot be
 * otherwise: no time limit (a paused script must not be killed) and no confinement (the process is
 * the user's own Node, started by the debugger in a trusted workspace; docs/security.md).
 */
import { type ActionMetadata, type LogEntry } from '../../../core/schema';
import { checkResult, type ResultProblem } from '../../../core/testing/resultCheck';
import { DEFAULT_LIMITS } from '../../limits';
import { type Run, startRun } from '../child/run';
import { checkInputs, type InputProblem } from '../inputs';
import { type RunError } from '../protocol';
import { compileForDebug, toMainStack } from './compileForDebug';

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

/** Runs main once; `log` gets each console entry as it is written. Never rejects. */
export function runLocally(request: LocalRunRequest, log: (entry: LogEntry) => void, onRun: (run: Run) => void = () => undefined): Promise<LocalOutcome> {
  const started = performance.now();
  const duration = () => Math.round((performance.now() - started) * 1000) / 1000;
  const checked = checkInputs(request.metadata, request.inputs);
  if (!checked.ok) {
    const error = {
      name: 'InputError',
      message: `the inputs do not match the parameters: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      code: 'invalid-inputs',
    };
    return Promise.resolve({ ok: false, error, inputProblems: checked.problems, duration: duration() });
  }
  const compiled = compileForDebug(request.code, request.mainPath);
  if (!compiled.ok) {
    const where = compiled.error.line === undefined ? '' : ` (${request.mainPath}:${compiled.error.line})`;
    return Promise.resolve({ ok: false, error: { name: 'SyntaxError', message: compiled.error.message + where, code: 'invalid-code' }, duration: duration() });
  }
  const { script } = compiled;
  return new Promise<LocalOutcome>((resolve) => {
    const run = startRun(
      {
        type: 'run',
        runId: 1,
        js: script.js,
        inputsJson: JSON.stringify(checked.values),
        filename: script.filename,
        maxLogEntries: DEFAULT_LIMITS.logEntriesPerRun,
        maxLogChars: DEFAULT_LIMITS.logMessageChars,
        maxResultBytes: DEFAULT_LIMITS.resultBytes,
        timeoutMs: request.timeoutMs ?? Number.POSITIVE_INFINITY,
      },
      (message) => {
        if (message.type === 'log') log(message.entry);
        else if (message.type === 'done' && message.ok) {
          const result = JSON.parse(message.resultJson) as unknown;
          resolve({ ok: true, result, resultProblems: checkResult(request.metadata.result.type, result), duration: duration() });
        } else if (message.type === 'done') {
          const stack = toMainStack(message.error.stack, script, request.mainPath);
          resolve({ ok: false, error: { ...message.error, ...(stack === undefined ? {} : { stack }) }, duration: duration() });
        }
      },
      () => undefined,
    );
    onRun(run);
  });
}
