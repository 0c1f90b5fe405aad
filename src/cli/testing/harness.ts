import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type LogEntry } from '../../core/schema';
import { type LocalOutcome, type LocalRunRequest } from '../../sandbox/runner/local/localRun';

/**
 * The local harness (`run-local.js --serve`, beside this bundle) driven the way the Testing view's
 * Local profile drives it: a few processes, each running its cases one after the other in a fresh
 * context, answering with JSON lines. The protocol is the harness's (src/sandbox/runner/child/local.ts).
 */
export class HarnessPool {
  private readonly workers: Worker[] = [];
  private ids = 0;
  private cancelled = false;

  constructor(
    private readonly harness: string,
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
    return this.workers.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  }

  private start(): Worker {
    // The project's own code on the machine that checked it out, as the editor's Local profile runs
    // it: none of this process's environment (keys included) is passed on, only what Node needs.
    const env: Record<string, string> = {};
    for (const name of ['PATH', 'TMPDIR', 'TMP', 'TEMP', 'SystemRoot', 'HOME', 'USERPROFILE', 'LANG']) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
    const child = spawn(process.execPath, [this.harness, '--serve'], { cwd: this.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
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
