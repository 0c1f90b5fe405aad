import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { transform } from 'sucrase';
import { type LogEntry } from '../../core/schema';
import { type SandboxLimits } from '../limits';
import { CODE_FILENAME, compile, wrapModule } from './compile';
import { type RunMessage, type WorkerMessage } from './protocol';
import { type ActionRunner, type RunOutcome } from './types';

interface Slot {
  worker: Worker;
  busy: boolean;
  /** Set while a run is in flight: the handler of this worker's messages, exit and errors. */
  current?: (event: { message?: WorkerMessage; exit?: { code: number; error?: Error } }) => void;
}

/**
 * Runs actions in worker threads with heap limits. One worker is kept warm; more start when runs
 * overlap, up to `concurrentRuns`. A run that passes its time or memory limit ends its worker
 * (terminate stops even a tight loop) and a fresh one takes its place.
 */
export class WorkerPool implements ActionRunner {
  private readonly slots = new Set<Slot>();
  private readonly queue: (() => void)[] = [];
  private nextRunId = 1;
  private closed = false;

  constructor(private readonly limits: SandboxLimits) {
    this.spawn();
  }

  async run(code: string, inputs: unknown[]): Promise<RunOutcome> {
    const startTime = Date.now();
    const started = performance.now();
    const compiled = compile(code);
    if (!compiled.ok) {
      const where = compiled.error.line === undefined ? '' : ` (${CODE_FILENAME}:${compiled.error.line})`;
      return { ok: false, startTime, duration: 0, logs: [], error: { name: 'SyntaxError', message: compiled.error.message + where, code: 'invalid-code' } };
    }
    const slot = await this.acquire();
    return new Promise<RunOutcome>((resolve) => {
      const logs: LogEntry[] = [];
      const runId = this.nextRunId++;
      const end = (outcome: Omit<RunOutcome, 'startTime' | 'duration' | 'logs'>, dropped = 0) => {
        clearTimeout(timer);
        slot.current = undefined;
        if (dropped > 0) logs.push({ time: Date.now(), level: 'warn', message: `${dropped} more log entries were dropped (at most ${this.limits.logEntriesPerRun} are kept per run)` });
        resolve({ ...outcome, startTime, duration: Math.round((performance.now() - started) * 1000) / 1000, logs });
        this.release(slot);
      };
      const kill = (error: NonNullable<RunOutcome['error']>) => {
        void this.discard(slot);
        end({ ok: false, error });
      };
      const timer = setTimeout(
        () => kill({ name: 'TimeoutError', message: `main did not finish within ${this.limits.runTimeoutMs} ms; the run was stopped`, code: 'timeout' }),
        this.limits.runTimeoutMs,
      );
      slot.current = ({ message, exit }) => {
        if (message?.runId !== runId && !exit) return;
        if (message?.type === 'log') logs.push(message.entry);
        else if (message?.type === 'done') end(message.ok ? { ok: true, result: JSON.parse(message.resultJson) as unknown } : { ok: false, error: message.error }, message.logsDropped);
        else if (exit) {
          const memory = exit.error && (exit.error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
          kill(
            memory
              ? { name: 'MemoryLimitError', message: `main used more than the ${this.limits.runMemoryMb} MB memory limit; the run was stopped`, code: 'memory-limit' }
              : { name: 'Error', message: `the runner stopped unexpectedly${exit.error ? `: ${exit.error.message}` : ` (exit code ${exit.code})`}`, code: 'runner-crashed' },
          );
        }
      };
      const request: RunMessage = {
        type: 'run',
        runId,
        js: wrapModule(compiled.js),
        inputsJson: JSON.stringify(inputs),
        filename: CODE_FILENAME,
        maxLogEntries: this.limits.logEntriesPerRun,
        maxLogChars: this.limits.logMessageChars,
        maxResultBytes: this.limits.resultBytes,
      };
      slot.worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting();
    await Promise.all([...this.slots].map((slot) => this.discard(slot)));
  }

  private acquire(): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('the sandbox is closing'));
    const idle = [...this.slots].find((s) => !s.busy);
    const slot = idle ?? (this.slots.size < this.limits.concurrentRuns ? this.spawn() : undefined);
    if (slot) {
      slot.busy = true;
      return Promise.resolve(slot);
    }
    return new Promise((resolve, reject) => this.queue.push(() => (this.closed ? reject(new Error('the sandbox is closing')) : resolve(this.acquire()))));
  }

  private release(slot: Slot): void {
    if (this.slots.has(slot)) {
      slot.busy = false;
      // Keep one warm worker; the others were only for overlapping runs.
      const idle = [...this.slots].filter((s) => !s.busy);
      if (idle.length > 1 && this.queue.length === 0) void this.discard(slot);
    } else if (!this.closed && this.slots.size === 0) {
      this.spawn();
    }
    this.queue.shift()?.();
  }

  private discard(slot: Slot): Promise<number> {
    this.slots.delete(slot);
    slot.worker.removeAllListeners('exit');
    return slot.worker.terminate();
  }

  private spawn(): Slot {
    const source = workerSource();
    const worker = new Worker(source.code ?? source.file!, {
      eval: source.code !== undefined,
      env: {},
      argv: [],
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.runMemoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    // Whatever the worker prints must not reach the sandbox's stdout (the --json line is the only output there).
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    const slot: Slot = { worker, busy: false };
    let lastError: Error | undefined;
    worker.on('message', (message: WorkerMessage) => slot.current?.({ message }));
    worker.on('error', (error) => (lastError = error));
    worker.on('exit', (code) => {
      this.slots.delete(slot);
      slot.current?.({ exit: { code, error: lastError } });
      if (!this.closed && this.slots.size === 0) this.spawn();
    });
    this.slots.add(slot);
    return slot;
  }
}

let cachedSource: { file?: string; code?: string } | undefined;

/** dist/sandbox-worker.js beside the bundle; under tsx, worker.ts transpiled here (it imports only Node built-ins). */
function workerSource(): { file?: string; code?: string } {
  if (cachedSource) return cachedSource;
  const bundled = path.join(__dirname, 'sandbox-worker.js');
  if (existsSync(bundled)) return (cachedSource = { file: bundled });
  const source = path.join(__dirname, 'worker.ts');
  if (!existsSync(source)) throw new Error(`the runner worker is missing: neither ${bundled} nor ${source} exists`);
  const code = transform(readFileSync(source, 'utf8'), { transforms: ['typescript', 'imports'], production: true, filePath: source }).code;
  return (cachedSource = { code });
}
