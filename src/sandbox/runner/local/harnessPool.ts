import { availableParallelism } from 'node:os';
import { type LogEntry } from '../../../core/schema';
import { DEFAULT_LIMITS } from '../../limits';
import { runnerCommand, type RunnerCommand } from '../isolation';
import { type RunError } from '../protocol';
import { type RunnerExit, RunnerProcess } from '../runnerProcess';
import { runnerSource } from '../runnerSource';
import { type LocalOutcome, type LocalRunRequest, prepareLocalRun } from './localRun';

/** A case's time limit in the Testing view's Local profile and `custom-actions test`: a loop that never ends still ends. */
export const LOCAL_CASE_TIMEOUT_MS = 30_000;
/** The runner ends a case at its time limit itself; the process is killed this much later if it has not. */
const BACKSTOP_MS = 1_000;
/** A runner process not ready by then (a machine under load takes some hundreds of ms) is given up. */
const STARTUP_MS = 20_000;

/** How many runner processes a run of `cases` cases gets: one per 8 cases, at most 4 and the machine's cores. */
export function harnessParallelism(cases: number): number {
  return Math.max(1, Math.min(4, availableParallelism(), Math.ceil(cases / 8)));
}

/**
 * The Testing view's Local profile and the command line's `test` run the repository's code in the
 * sandbox's own runner processes (child/index.ts), started as the sandbox starts them
 * (isolation.ts): Node's permission model granting nothing, no code generated from strings, an empty
 * environment, the file system's root as working directory, the sandbox's memory limit. So code that
 * got out of its realm finds no key in its environment, cannot read the parent's
 * (/proc/<pid>/environ) or any other file, and cannot start a process or open a connection.
 *
 * A few processes side by side, each taking its cases one after the other in a fresh context. A case
 * that timed out or ended its process leaves that process unused again. `cancel` ends them all; the
 * cases they held resolve undefined.
 */
export class HarnessPool {
  private readonly idle: RunnerProcess[] = [];
  private readonly processes = new Set<RunnerProcess>();
  private readonly waiting: (() => void)[] = [];
  private readonly running = new Set<() => void>();
  private runIds = 0;
  private cancelled = false;
  private closing = false;

  constructor(
    private readonly parallel: number,
    private readonly command: RunnerCommand = runnerCommand(runnerSource(), DEFAULT_LIMITS),
  ) {}

  /** One case; undefined when the pool was cancelled before it ended. */
  async run(request: LocalRunRequest, log: (entry: LogEntry) => void): Promise<LocalOutcome | undefined> {
    const started = performance.now();
    const duration = () => Math.round((performance.now() - started) * 1000) / 1000;
    const timeoutMs = request.timeoutMs ?? LOCAL_CASE_TIMEOUT_MS;
    const prepared = prepareLocalRun(request, ++this.runIds, timeoutMs);
    if (!prepared.ok) return prepared.outcome;
    if (!this.command.confined) return failed('this Node.js has no permission model, so the code of main cannot be confined: it is not run', 0);
    const runner = await this.acquire();
    if (!runner) return undefined;
    // The runner's process and pipes keep nothing alive (runnerProcess.ts): this timer does, until it is ready.
    const startup = setTimeout(() => this.discard(runner), STARTUP_MS);
    try {
      await runner.ready;
    } catch (error) {
      this.discard(runner);
      if (this.cancelled) return undefined;
      return failed(`the local run could not start: ${error instanceof Error ? error.message : String(error)}`, duration());
    } finally {
      clearTimeout(startup);
    }
    const { message } = prepared;
    return new Promise<LocalOutcome | undefined>((resolve) => {
      let settled = false;
      const end = (outcome: LocalOutcome | undefined, reuse: boolean) => {
        if (settled) return;
        settled = true;
        this.running.delete(stop);
        clearTimeout(backstop);
        runner.listen(undefined);
        if (reuse && !this.cancelled) this.release(runner);
        else this.discard(runner);
        resolve(this.cancelled ? undefined : outcome);
      };
      // Cancelled: the case ends at once, its process with it.
      const stop = () => end(undefined, false);
      this.running.add(stop);
      const backstop = setTimeout(
        () => end(failed(`main did not finish within ${timeoutMs} ms; the run was stopped`, duration(), 'TimeoutError', 'timeout'), false),
        timeoutMs + BACKSTOP_MS,
      );
      runner.listen(
        (back) => {
          if (back.runId !== message.runId) return;
          if (back.type === 'log') log(back.entry);
          // A case that timed out may have been interrupted anywhere: its process is not used again.
          else end(prepared.outcome(back, duration()), back.ok || back.error.code !== 'timeout');
        },
        (exit: RunnerExit) =>
          end(
            exit.outOfMemory
              ? failed(
                  `main used more than the ${DEFAULT_LIMITS.runMemoryMb} MB memory limit; the run was stopped`,
                  duration(),
                  'MemoryLimitError',
                  'memory-limit',
                )
              : this.cancelled
                ? undefined
                : failed(`the local run ended unexpectedly (${exit.signal ?? `exit code ${exit.code}`})`, duration(), 'Error', 'runner-crashed'),
            false,
          ),
      );
      if (runner.running) runner.send(message);
      else end(failed('the local run ended unexpectedly', duration(), 'Error', 'runner-crashed'), false);
    });
  }

  /** Ends the processes: those still running a case are stopped. */
  cancel(): void {
    this.cancelled = true;
    for (const wake of this.waiting.splice(0)) wake();
    for (const stop of [...this.running]) stop();
    for (const runner of [...this.processes]) this.discard(runner);
  }

  /** No more cases: idle processes end now, busy ones once their case is done. */
  close(): void {
    this.closing = true;
    for (const runner of this.idle.splice(0)) this.discard(runner);
  }

  /** An idle process, a new one while fewer than `parallel` exist, else the first to come free; undefined once cancelled. */
  private async acquire(): Promise<RunnerProcess | undefined> {
    for (;;) {
      if (this.cancelled) return undefined;
      const idle = this.idle.pop();
      if (idle?.running) return idle;
      if (idle) continue;
      if (this.processes.size < this.parallel) {
        const runner = new RunnerProcess(this.command);
        this.processes.add(runner);
        void runner.ended.then(() => this.processes.delete(runner));
        return runner;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private release(runner: RunnerProcess): void {
    if (this.closing && this.waiting.length === 0) return this.discard(runner);
    this.idle.push(runner);
    this.waiting.shift()?.();
  }

  private discard(runner: RunnerProcess): void {
    this.processes.delete(runner);
    const at = this.idle.indexOf(runner);
    if (at >= 0) this.idle.splice(at, 1);
    void runner.kill();
    this.waiting.shift()?.();
  }
}

function failed(message: string, duration: number, name = 'Error', code?: string): LocalOutcome {
  const error: RunError = { name, message, ...(code === undefined ? {} : { code }) };
  return { ok: false, error, duration };
}
