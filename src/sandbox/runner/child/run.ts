/**
 * One run of `main` inside the runner process: a fresh vm context set up by realm.ts, the bridge it
 * calls, and the only way into it. It imports only Node built-ins and realm.ts.
 *
 * The runner's realm calls into the context in one place, `enter`: a script run with the time left
 * (and the context's own microtask queue, drained within it), which asks the bridge what to do. So a
 * loop that never yields is interrupted here, its logs kept, even were the sandbox gone and nobody
 * left to kill the process.
 */
import { createContext, Script } from 'node:vm';
import { type LogEntry } from '../../../core/schema';
import { type RunMessage, type RunnerMessage, type RunError } from '../protocol';
import { REJECTION, type RealmBridge, type RealmHandle, setUpRealm, START } from './realm';

/** The global through which the runner enters the context. Calling it from user code does nothing: no job is waiting then. */
const ENTRY = 'sandbox:enter';
const LEVELS = new Set<string>(['debug', 'info', 'log', 'warn', 'error']);
/** Node's timers take at most this many ms; more would fire at once. */
const MAX_DELAY = 2 ** 31 - 1;
/**
 * The context's microtasks run only when the runner enters it; promises the platform settles on its
 * own (WebAssembly.compile, a refused import) need an entry to be seen. While a run waits, an empty
 * one comes this often.
 */
const PUMP_MS = 20;

const BOOTSTRAP = `(${setUpRealm.toString()})`;

type Done = Extract<RunnerMessage, { type: 'done' }>;

export interface Run {
  /** A promise of the context that nobody handled: the run fails with it, as main throwing would. */
  rejected(reason: unknown): void;
}

export function startRun(message: RunMessage, send: (message: RunnerMessage) => void, ended: () => void): Run {
  const { runId } = message;
  // A debugged run (local.ts) has no time limit: a script paused at a breakpoint must not be killed.
  const limited = Number.isFinite(message.timeoutMs);
  const deadline = limited ? Date.now() + message.timeoutMs : Number.POSITIVE_INFINITY;
  const timers = new Map<number, NodeJS.Timeout>();
  let nextTimer = 1;
  let logs = 0;
  let dropped = 0;
  let finished = false;
  let job = 0;
  let rejection: unknown;
  let moduleFunction: unknown;
  // What the context asked for during the current entry, applied once the entry has returned.
  let pendingTimers: [number, unknown, boolean][] = [];
  let pendingClears: unknown[] = [];
  let outcome: Done | undefined;
  let pumpScheduled = false;

  const pump = setInterval(() => enter(0), PUMP_MS);
  // Waiting on something that never comes: the run ends here. A loop that never yields is stopped by
  // the entry's own time limit, at the same moment.
  const limit = limited ? setTimeout(() => giveUp(), message.timeoutMs) : undefined;
  const finish = (done: RunnerMessage) => {
    if (finished) return;
    finished = true;
    clearInterval(pump);
    clearTimeout(limit);
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    send(done);
    ended();
  };
  const failWith = (error: RunError) => finish({ type: 'done', runId, ok: false, error, logsDropped: dropped });
  const text = (value: unknown, max: number) => {
    const s = typeof value === 'string' ? value : '';
    return s.length > max ? `${s.slice(0, max)}… (${s.length - max} more characters)` : s;
  };

  // Functions of this realm, called from the context with primitives only. User code may call them
  // with the stack all but exhausted, and Node's own machinery (streams, timer lists) must never be
  // stopped half-way by an overflow: they only note what was asked, applied once the entry returns.
  // Logs alone go out at once, through a write that keeps no state (`send`), so that what a run
  // logged survives it spinning or running out of memory.
  const bridge: RealmBridge = Object.freeze(
    Object.assign(Object.create(null) as object, {
      log(level: unknown, value: unknown): void {
        if (outcome) return;
        if (logs >= message.maxLogEntries) {
          dropped++;
          return;
        }
        const entry: LogEntry = {
          time: Date.now(),
          level: typeof level === 'string' && LEVELS.has(level) ? (level as LogEntry['level']) : 'log',
          message: text(value, message.maxLogChars),
        };
        send({ type: 'log', runId, entry });
        logs++;
      },
      setTimer(ms: unknown, repeat: unknown): number {
        const id = nextTimer++;
        if (!outcome) pendingTimers.push([id, ms, repeat === true]);
        return id;
      },
      clearTimer(id: unknown): void {
        pendingClears.push(id);
      },
      succeed(json: unknown): void {
        outcome ??= { type: 'done', runId, ok: true, resultJson: typeof json === 'string' ? json : 'null', logsDropped: 0 };
      },
      fail(name: unknown, msg: unknown, stack: unknown, code: unknown): void {
        outcome ??= {
          type: 'done',
          runId,
          ok: false,
          error: { name: text(name, 200) || 'Error', message: text(msg, 4000), stack: text(stack, 20_000), ...(code ? { code: text(code, 200) } : {}) },
          logsDropped: 0,
        };
      },
      nextJob(): number {
        const next = job;
        job = 0;
        return next;
      },
      moduleFunction: (): unknown => moduleFunction,
      inputsJson: (): string => message.inputsJson,
      rejection: (): unknown => rejection,
    }),
  ) as RealmBridge;

  /** Carries out what the last entry asked for, from the event loop's own shallow stack. */
  function apply(): void {
    const [added, cleared] = [pendingTimers, pendingClears];
    pendingTimers = [];
    pendingClears = [];
    const gone = new Set(cleared);
    for (const [id, ms, repeat] of added) {
      if (gone.has(id) || finished || outcome) continue;
      const delay = typeof ms === 'number' && ms >= 0 ? Math.min(ms, MAX_DELAY) : 0;
      const fire = repeat ? () => enter(id) : () => (timers.delete(id), enter(id));
      timers.set(id, repeat ? setInterval(fire, delay) : setTimeout(fire, delay));
    }
    for (const id of gone) {
      const timer = typeof id === 'number' ? timers.get(id) : undefined;
      if (timer) clearTimeout(timer);
      if (typeof id === 'number') timers.delete(id);
    }
    if (!outcome) return;
    if (outcome.ok && Buffer.byteLength(outcome.resultJson) > message.maxResultBytes) {
      failWith({ name: 'ResultError', message: `the result is larger than ${message.maxResultBytes} bytes of JSON`, code: 'result-too-large' });
    } else if (!outcome.ok) {
      failWith({ ...outcome.error, stack: stackOfMain(outcome.error.stack ?? '', message.filename) });
    } else {
      finish({ ...outcome, logsDropped: dropped });
    }
  }

  let realm: RealmHandle | undefined;
  // A dynamic import anywhere in the context (eval and Function included) is refused with an error
  // of the context. The platform settles the import's promise outside the entry: an empty entry
  // follows at once, not only at the next pump.
  const importModuleDynamically = (specifier: string): never => {
    if (!pumpScheduled) {
      pumpScheduled = true;
      setImmediate(() => {
        pumpScheduled = false;
        enter(0);
      });
    }
    throw realm ? realm.importError(String(specifier)) : new Error('imports are not available in the sandbox');
  };
  const context = createContext(Object.create(null) as object, {
    name: 'custom action',
    // Without --experimental-vm-modules the import hook cannot be installed; then there must be no
    // code from strings, where an import() would get the platform's error (main.ts's own imports are
    // rewritten to require by compile.ts).
    codeGeneration: { strings: process.execArgv.includes('--experimental-vm-modules'), wasm: false },
    microtaskMode: 'afterEvaluate',
    importModuleDynamically,
  });
  const entry = new Script(`globalThis[${JSON.stringify(ENTRY)}]()`, { filename: 'sandbox-enter.js', importModuleDynamically });

  /** Runs one job in the context within what is left of the run's time, then does what it asked. */
  function enter(next: number): void {
    if (finished) return;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return giveUp();
    job = next;
    const entered = Date.now();
    try {
      entry.runInContext(context, limited ? { timeout: remaining } : {});
    } catch {
      // The entry catches everything user code throws; what gets here is the time limit, or the
      // context in a state it cannot report from. The error itself is not read: it may be the context's.
      // vm's watchdog keeps a clock of its own, so an entry it stopped may end a millisecond or two
      // before Date.now() reaches the deadline: an entry that used up (nearly) all it was given timed out.
      if (limited && (Date.now() >= deadline || Date.now() - entered >= remaining - 2)) return giveUp();
      outcome ??= {
        type: 'done',
        runId,
        ok: false,
        error: { name: 'Error', message: 'the run ended in a way the sandbox cannot describe', code: 'runner-crashed' },
        logsDropped: 0,
      };
    } finally {
      job = 0;
    }
    apply();
  }
  /** The run's time is up. The sandbox ends this process after such a run (and a little later on its own, should this never come). */
  function giveUp(): void {
    failWith({ name: 'TimeoutError', message: `main did not finish within ${message.timeoutMs} ms; the run was stopped`, code: 'timeout' });
  }

  try {
    const setUp = new Script(BOOTSTRAP, { filename: 'sandbox-realm.js', importModuleDynamically }).runInContext(context) as typeof setUpRealm;
    realm = setUp(bridge, ENTRY, START, REJECTION);
    moduleFunction = new Script(message.js, { filename: message.filename, importModuleDynamically }).runInContext(
      context,
      limited ? { timeout: message.timeoutMs } : {},
    );
  } catch (error) {
    // Errors of this realm only: compiling (the sandbox checked that the code parses), or setting up the context.
    failWith({ name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) });
  }
  enter(START);

  return {
    rejected(reason) {
      if (finished) return;
      rejection = reason;
      enter(REJECTION);
      rejection = undefined;
    },
  };
}

/** The error line and the frames in the action's own file: the sandbox's frames say nothing to its author. */
function stackOfMain(stack: string, filename: string): string | undefined {
  if (!stack) return undefined;
  const lines = stack.split('\n');
  const frames = lines.filter((line) => /^\s+at /.test(line));
  const head = lines.filter((line) => !/^\s+at /.test(line));
  const own = frames.filter((line) => line.includes(`${filename}:`));
  return [...head, ...own].join('\n');
}
