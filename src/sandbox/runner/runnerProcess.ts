import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { type RunnerCommand } from './isolation';
import { type RunMessage, type RunnerMessage } from './protocol';

export interface RunnerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** V8 gave up for want of heap: the run passed its memory limit. */
  outOfMemory: boolean;
  /** The last of what the process printed on stderr, to say why it stopped. */
  stderr: string;
}

/** What a run sends back: its logs and its end. */
export type RunMessageBack = Exclude<RunnerMessage, { type: 'ready' }>;

/** Node's last words when the heap limit is reached. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/;
const STDERR_KEPT = 4_000;

/**
 * One runner process (child/index.ts): its JSON lines, its stderr (kept short, never printed: the
 * sandbox's stdout and stderr carry only the sandbox's own output) and its end.
 */
export class RunnerProcess {
  /** Set when the process first runs code of an application; it then runs that application's code only. */
  application: string | undefined;
  busy = false;
  lastUsed = Date.now();
  /** Settles when the process can take runs; rejects when it ended before, or came up unconfined where it should be. */
  readonly ready: Promise<void>;
  readonly ended: Promise<RunnerExit>;
  private readonly child: ChildProcessWithoutNullStreams;
  private listener: ((message: RunMessageBack) => void) | undefined;
  private exitListener: ((exit: RunnerExit) => void) | undefined;
  private stderr = '';
  private exit: RunnerExit | undefined;

  constructor(command: RunnerCommand) {
    this.child = spawn(process.execPath, [...command.args], { env: { ...command.env }, cwd: command.cwd, stdio: 'pipe', windowsHide: true });
    // An idle runner keeps nothing alive: a run in flight has its own timer for that.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT)));
    let buffered = '';
    let markReady: () => void;
    let failReady: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => ((markReady = resolve), (failReady = reject)));
    // Nobody may be waiting yet; the rejection is still seen by whoever awaits it later.
    this.ready.catch(() => undefined);
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        let message: RunnerMessage;
        try {
          message = JSON.parse(line) as RunnerMessage;
        } catch {
          continue;
        }
        if (message.type === 'ready') {
          if (message.confined === command.confined) markReady();
          else failReady(new Error(`the runner came up ${message.confined ? 'confined' : 'unconfined'}, expected otherwise`));
        } else this.listener?.(message);
      }
    });
    this.ended = new Promise<RunnerExit>((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.exit) return;
        this.exit = { code, signal, outOfMemory: OUT_OF_MEMORY.test(this.stderr), stderr: this.stderr.trim() };
        failReady(
          new Error(
            `the runner stopped before it was ready${this.stderr ? `: ${this.exit.stderr.split('\n').slice(-3).join(' ')}` : ` (exit code ${code ?? signal})`}`,
          ),
        );
        resolve(this.exit);
        this.exitListener?.(this.exit);
      };
      // stderr may still hold Node's last words when 'exit' comes; 'close' comes after all output.
      this.child.once('close', done);
      this.child.once('error', (error) => {
        this.stderr += String(error.message);
        done(null, null);
      });
    });
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Where the messages of the run in flight go; undefined between runs. */
  listen(listener: ((message: RunMessageBack) => void) | undefined, onExit?: (exit: RunnerExit) => void): void {
    this.listener = listener;
    this.exitListener = onExit;
  }

  send(message: RunMessage): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends the process at once (a tight loop included) and waits until it is gone. */
  async kill(): Promise<RunnerExit> {
    this.exitListener = undefined;
    this.listener = undefined;
    if (this.running) this.child.kill('SIGKILL');
    return this.ended;
  }
}
