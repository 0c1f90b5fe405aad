import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type LogEntry } from '../../core/schema';
import { type LocalOutcome, type LocalRunRequest } from '../../sandbox/runner/local/localRun';
import { harnessRuntime } from '../debug/localHarness';

export interface LocalJob {
  readonly request: LocalRunRequest;
  readonly log: (entry: LogEntry) => void;
}

interface Worker {
  readonly child: ChildProcess;
  readonly jobs: Map<number, { job: LocalJob; resolve: (outcome: LocalOutcome | undefined) => void }>;
}

/**
 * The harness in serve mode (`run-local.js --serve`) for one test run: a few processes, each taking
 * its cases one after the other in a fresh context, so cases run in parallel without sharing a
 * realm. `cancel` ends the processes; the cases they held resolve undefined.
 */
export class LocalRunner {
  private readonly workers: Worker[] = [];
  private next = 0;
  private ids = 0;
  private cancelled = false;

  constructor(
    private readonly harness: string,
    private readonly runtimeExecutable: string,
    private readonly cwd: string,
    private readonly parallel: number,
  ) {}

  run(job: LocalJob): Promise<LocalOutcome | undefined> {
    if (this.cancelled) return Promise.resolve(undefined);
    const worker = this.worker();
    const id = ++this.ids;
    return new Promise((resolve) => {
      worker.jobs.set(id, { job, resolve });
      worker.child.stdin?.write(JSON.stringify({ id, request: job.request }) + '\n');
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
    const worker = this.workers.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a), this.workers[this.next++ % this.workers.length]!);
    return worker;
  }

  private start(): Worker {
    const runtime = harnessRuntime(this.runtimeExecutable);
    // The user's own code on the user's machine, as Debug runs it (docs/security.md): the environment
    // of the extension host is not passed on, only what Node needs to find its temporary folder.
    const env: Record<string, string> = { ...runtime.env };
    for (const name of ['PATH', 'TMPDIR', 'TMP', 'TEMP', 'SystemRoot', 'HOME', 'USERPROFILE', 'LANG']) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    const child = spawn(runtime.command, [this.harness, '--serve'], { cwd: this.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
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
      if (message.log) pending.job.log(message.log);
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
