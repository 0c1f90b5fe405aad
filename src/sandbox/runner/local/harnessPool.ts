import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { type LogEntry } from '../../../core/schema';
import { type LocalOutcome, type LocalRunRequest } from './localRun';

/** How a harness process is started: the Node to run it with and what its environment starts from. */
export interface HarnessRuntime {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
}

/** A case's time limit in the Testing view's Local profile and `custom-actions test`: a loop that never ends still ends. */
export const LOCAL_CASE_TIMEOUT_MS = 30_000;

/** How many harness processes a run of `cases` cases gets: one per 8 cases, at most 4 and the machine's cores. */
export function harnessParallelism(cases: number): number {
  return Math.max(1, Math.min(4, availableParallelism(), Math.ceil(cases / 8)));
}

/**
 * The harness in serve mode (`run-local.js --serve`) for one test run, as the Testing view's Local
 * profile and the command line's `test` drive it: a few processes, each taking its cases one after
 * the other in a fresh context, so cases run in parallel without sharing a realm. The protocol is the
 * harness's (`harness.ts` beside this file): a JSON line per case in, its logs and outcome out.
 * `cancel` ends the processes; the cases they held resolve undefined.
 */
export class HarnessPool {
  private readonly workers: Worker[] = [];
  private ids = 0;
  private cancelled = false;

  constructor(
    private readonly harness: string,
    private readonly runtime: HarnessRuntime,
    private readonly cwd: string,
    private readonly parallel: number,
  ) {}

  /** One case; undefined when the pool was cancelled before it ended. */
  run(request: LocalRunRequest, log: (entry: LogEntry) => void): Promise<LocalOutcome | undefined> {
    if (this.cancelled) return Promise.resolve(undefined);
    const worker = this.worker();
    const id = ++this.ids;
    return new Promise((resolve) => {
      worker.jobs.set(id, { log, resolve });
      worker.child.stdin?.write(JSON.stringify({ id, request }) + '\n');
    });
  }

  /** Ends the processes: those still running a case are stopped. */
  cancel(): void {
    this.cancelled = true;
    for (const worker of this.workers.splice(0)) {
      worker.child.kill();
      for (const pending of worker.jobs.values()) pending.resolve(undefined);
      worker.jobs.clear();
    }
  }

  /** No more cases: each process ends once its own are done. */
  close(): void {
    for (const worker of this.workers) worker.child.stdin?.end();
  }

  private worker(): Worker {
    if (this.workers.length < this.parallel) {
      const worker = this.start();
      this.workers.push(worker);
      return worker;
    }
    // The one with the fewest cases waiting, so a slow case does not hold up the others.
    return this.workers.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  }

  private start(): Worker {
    // The user's own code on the user's machine, as Debug runs it (docs/security.md): the environment
    // of the process that starts it (the extension host's, a pipeline's with its keys) is not passed
    // on, only what Node needs to find its temporary folder.
    const env: Record<string, string> = { ...this.runtime.env };
    for (const name of ['PATH', 'TMPDIR', 'TMP', 'TEMP', 'SystemRoot', 'HOME', 'USERPROFILE', 'LANG']) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    const child = spawn(this.runtime.command, [this.harness, '--serve'], { cwd: this.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const worker: Worker = { child, jobs: new Map() };
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let message: { id?: number; log?: LogEntry; outcome?: LocalOutcome };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        return;
      }
      const pending = message.id === undefined ? undefined : worker.jobs.get(message.id);
      if (!pending) return;
      if (message.log) pending.log(message.log);
      if (message.outcome) {
        worker.jobs.delete(message.id!);
        pending.resolve(message.outcome);
      }
    });
    const ended = (why: string) => {
      for (const pending of worker.jobs.values())
        pending.resolve({
          ok: false,
          error: { name: 'Error', message: `the local run ended unexpectedly: ${why}${stderr ? `\n${stderr.trim()}` : ''}` },
          duration: 0,
        });
      worker.jobs.clear();
      const at = this.workers.indexOf(worker);
      if (at >= 0) this.workers.splice(at, 1);
    };
    child.on('error', (error) => ended(error.message));
    child.on('exit', (code, signal) => ended(signal ? `stopped by ${signal}` : `exit code ${code ?? '?'}`));
    return worker;
  }
}

interface Worker {
  readonly child: ChildProcess;
  readonly jobs: Map<number, { log: (entry: LogEntry) => void; resolve: (outcome: LocalOutcome | undefined) => void }>;
}
