import { type LogEntry } from '../../core/schema';
import { type SandboxLimits } from '../limits';
import { CODE_FILENAME, compile, wrapModule } from './compile';
import { runnerCommand, type RunnerCommand } from './isolation';
import { type RunError, type RunMessage } from './protocol';
import { type RunnerExit, RunnerProcess } from './runnerProcess';
import { runnerSource } from './runnerSource';
import { type ActionRunner, type RunOutcome } from './types';

/** An idle runner bound to an application is ended after this long unused. */
const IDLE_MS = 30_000;
/** The runner ends a run at its time limit itself; the sandbox kills the process this much later if it has not. */
const BACKSTOP_MS = 1_000;

/**
 * Runs actions in runner processes (child/index.ts), kept warm: starting Node costs some 100 ms, a
 * run in a warm process a few ms.
 *
 * One fresh process always waits, spare. A process that has run code of an application is bound to
 * it: it runs only that application's code afterwards, so even code that got out of its realm would
 * see nothing of another application's runs. Bound processes stay for later runs of the same
 * application until unused for a while; at most `concurrentRuns` run at once, more wait in line. A run
 * that passes its time or memory limit ends its process (a kill stops even a tight loop).
 */
export class ProcessPool implements ActionRunner {
  private readonly processes = new Set<RunnerProcess>();
  private readonly queue: (() => void)[] = [];
  private readonly command: RunnerCommand;
  private nextRunId = 1;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly limits: SandboxLimits) {
    this.command = runnerCommand(runnerSource(), limits);
    this.topUp();
    this.sweeper = setInterval(() => this.topUp(), IDLE_MS);
    this.sweeper.unref();
  }

  /** Whether runs are confined by Node's permission model on this Node. */
  get confined(): boolean {
    return this.command.confined;
  }

  async run(code: string, inputs: unknown[], application: string): Promise<RunOutcome> {
    const startTime = Date.now();
    const compiled = compile(code);
    if (!compiled.ok) {
      const where = compiled.error.line === undefined ? '' : ` (${CODE_FILENAME}:${compiled.error.line})`;
      return { ok: false, startTime, duration: 0, logs: [], error: { name: 'SyntaxError', message: compiled.error.message + where, code: 'invalid-code' } };
    }
    let runner: RunnerProcess;
    try {
      runner = await this.acquire(application);
    } catch (error) {
      if (this.closed) throw error;
      return {
        ok: false,
        startTime,
        duration: 0,
        logs: [],
        error: { name: 'Error', message: `the runner could not start: ${error instanceof Error ? error.message : String(error)}`, code: 'runner-crashed' },
      };
    }
    const started = performance.now();
    return new Promise<RunOutcome>((resolve) => {
      const logs: LogEntry[] = [];
      const runId = this.nextRunId++;
      const end = (outcome: { ok: true; result: unknown } | { ok: false; error: RunError }, dropped = 0) => {
        clearTimeout(timer);
        runner.listen(undefined);
        if (dropped > 0)
          logs.push({
            time: Date.now(),
            level: 'warn',
            message: `${dropped} more log entries were dropped (at most ${this.limits.logEntriesPerRun} are kept per run)`,
          });
        resolve({ ...outcome, startTime, duration: Math.round((performance.now() - started) * 1000) / 1000, logs });
        this.release(runner);
      };
      const stop = (error: RunError, dropped = 0) => {
        void this.discard(runner);
        end({ ok: false, error }, dropped);
      };
      const timer = setTimeout(
        () => stop({ name: 'TimeoutError', message: `main did not finish within ${this.limits.runTimeoutMs} ms; the run was stopped`, code: 'timeout' }),
        this.limits.runTimeoutMs + BACKSTOP_MS,
      );
      runner.listen(
        (message) => {
          if (message.runId !== runId) return;
          if (message.type === 'log') logs.push(message.entry);
          // A run that timed out may have been interrupted anywhere: its process is not used again.
          else if (message.type === 'done' && !message.ok && message.error.code === 'timeout') stop(message.error, message.logsDropped);
          else if (message.type === 'done')
            end(message.ok ? { ok: true, result: JSON.parse(message.resultJson) as unknown } : { ok: false, error: message.error }, message.logsDropped);
        },
        (exit: RunnerExit) =>
          stop(
            exit.outOfMemory
              ? {
                  name: 'MemoryLimitError',
                  message: `main used more than the ${this.limits.runMemoryMb} MB memory limit; the run was stopped`,
                  code: 'memory-limit',
                }
              : { name: 'Error', message: `the runner stopped unexpectedly (${exit.signal ?? `exit code ${exit.code}`})`, code: 'runner-crashed' },
          ),
      );
      const request: RunMessage = {
        type: 'run',
        runId,
        js: wrapModule(compiled.js),
        inputsJson: JSON.stringify(inputs),
        filename: CODE_FILENAME,
        maxLogEntries: this.limits.logEntriesPerRun,
        maxLogChars: this.limits.logMessageChars,
        maxResultBytes: this.limits.resultBytes,
        timeoutMs: this.limits.runTimeoutMs,
      };
      if (runner.running) runner.send(request);
      else stop({ name: 'Error', message: 'the runner stopped unexpectedly', code: 'runner-crashed' });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const waiting of this.queue.splice(0)) waiting();
    await Promise.all([...this.processes].map((p) => this.discard(p)));
  }

  /** A process for a run of `application`: its own idle one, else the spare, else a new one; at most concurrentRuns busy. */
  private async acquire(application: string): Promise<RunnerProcess> {
    if (this.closed) throw new Error('the sandbox is closing');
    const all = [...this.processes];
    if (all.filter((p) => p.busy).length >= this.limits.concurrentRuns) {
      await new Promise<void>((resolve) => this.queue.push(resolve));
      return this.acquire(application);
    }
    const runner = all.find((p) => !p.busy && p.application === application) ?? all.find((p) => !p.busy && p.application === undefined) ?? this.spawn();
    runner.busy = true;
    runner.application = application;
    this.topUp();
    const startup = setTimeout(() => void this.discard(runner), Math.max(10_000, this.limits.runTimeoutMs));
    try {
      await runner.ready;
    } catch (error) {
      this.release(runner);
      throw error;
    } finally {
      clearTimeout(startup);
    }
    return runner;
  }

  private release(runner: RunnerProcess): void {
    runner.busy = false;
    runner.lastUsed = Date.now();
    if (!runner.running) this.processes.delete(runner);
    this.topUp();
    this.queue.shift()?.();
  }

  /** One spare always waits; the least recently used bound processes go beyond concurrentRuns + 1, and once long idle. */
  private topUp(): void {
    if (this.closed) return;
    if (![...this.processes].some((p) => !p.busy && p.application === undefined)) this.spawn();
    const idle = [...this.processes].filter((p) => !p.busy && p.application !== undefined).sort((a, b) => a.lastUsed - b.lastUsed);
    const now = Date.now();
    for (const p of idle) {
      if (this.processes.size <= this.limits.concurrentRuns + 1 && now - p.lastUsed < IDLE_MS) break;
      void this.discard(p);
    }
  }

  private spawn(): RunnerProcess {
    const runner = new RunnerProcess(this.command);
    this.processes.add(runner);
    void runner.ended.then(() => {
      if (runner.busy) return; // the run in flight hears of it and releases the process
      this.processes.delete(runner);
      this.topUp();
    });
    return runner;
  }

  private async discard(runner: RunnerProcess): Promise<void> {
    this.processes.delete(runner);
    await runner.kill();
  }
}
