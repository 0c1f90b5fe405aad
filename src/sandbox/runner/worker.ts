/**
 * The runner worker: runs `main` of one action at a time in a fresh vm context with no require,
 * process, network or file system. The sandbox terminates this worker when a run passes its
 * wall-clock limit or its memory limit, so nothing here needs to guard against runaway code.
 *
 * It imports only Node built-ins: under tsx the sandbox loads it as transpiled source (see pool.ts).
 *
 * The context reaches the host only through `bridge`, held in a closure of the bootstrap and given
 * primitives only; results cross as JSON strings, so no host object (and no host Function) leaks in.
 */
import { parentPort } from 'node:worker_threads';
import { createContext, Script } from 'node:vm';
import type { LogEntry } from '../../core/schema';
import type { RunMessage, WorkerMessage } from './protocol';

const BOOTSTRAP = `(function (bridge) {
  'use strict';
  const b = bridge;
  const callbacks = new Map();
  const format = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return String(v.stack || v);
    if (typeof v === 'function') return '[Function ' + (v.name || 'anonymous') + ']';
    if (typeof v === 'bigint') return String(v) + 'n';
    try { const j = JSON.stringify(v); return j === undefined ? String(v) : j; } catch (e) { return String(v); }
  };
  const logger = (level) => (...args) => { b.log(level, args.map((a) => { try { return format(a); } catch (e) { return '[unprintable]'; } }).join(' ')); };
  globalThis.console = Object.freeze({ log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug'), trace: logger('debug') });
  const addTimer = (repeat) => (fn, ms, ...args) => {
    if (typeof fn !== 'function') throw new TypeError('the callback must be a function');
    const id = b.setTimer(Math.max(0, Number(ms) || 0), repeat);
    callbacks.set(id, () => fn(...args));
    return id;
  };
  const clear = (id) => { callbacks.delete(id); b.clearTimer(Number(id)); };
  globalThis.setTimeout = addTimer(false);
  globalThis.setInterval = addTimer(true);
  globalThis.clearTimeout = clear;
  globalThis.clearInterval = clear;
  globalThis.queueMicrotask = (fn) => { Promise.resolve().then(fn); };
  const describe = (e) => {
    try {
      if (e instanceof Error || (e && typeof e === 'object')) {
        return [String(e.name || 'Error'), String(e.message ?? ''), String(e.stack || ''), e.code === undefined ? '' : String(e.code)];
      }
      return ['Error', 'main threw a ' + typeof e + ': ' + format(e), '', ''];
    } catch (inner) { return ['Error', 'main threw something that cannot be described', '', '']; }
  };
  const fail = (e) => { const d = describe(e); b.fail(d[0], d[1], d[2], d[3]); };
  return {
    fire(id, repeat) {
      const cb = callbacks.get(id);
      if (!repeat) callbacks.delete(id);
      if (cb) try { cb(); } catch (e) { fail(e); }
    },
    run(moduleFunction, inputsJson) {
      try {
        const exports = {};
        const module = { exports };
        const require = (name) => { throw new Error('imports are not available in the sandbox: ' + JSON.stringify(String(name))); };
        moduleFunction.call(exports, exports, require, module);
        const main = module.exports && module.exports.main;
        if (typeof main !== 'function') {
          const e = new Error('main.ts does not export a function named main'); e.name = 'MissingMainError'; throw e;
        }
        const inputs = JSON.parse(inputsJson);
        Promise.resolve().then(() => main(...inputs)).then((r) => {
          let json;
          try { json = JSON.stringify(r === undefined ? null : r); } catch (e) { const err = new Error('the result cannot be turned into JSON: ' + String(e && e.message)); err.name = 'ResultError'; return fail(err); }
          b.succeed(json === undefined ? 'null' : json);
        }, fail);
      } catch (e) { fail(e); }
    },
  };
})`;

const bootstrap = new Script(BOOTSTRAP, { filename: 'sandbox-bootstrap.js' });

interface Bridge {
  log(level: unknown, message: unknown): void;
  setTimer(ms: unknown, repeat: unknown): number;
  clearTimer(id: unknown): void;
  succeed(json: unknown): void;
  fail(name: unknown, message: unknown, stack: unknown, code: unknown): void;
}

interface Bootstrapped {
  fire(id: number, repeat: boolean): void;
  run(moduleFunction: unknown, inputsJson: string): void;
}

const LEVELS = new Set<LogEntry['level']>(['debug', 'info', 'log', 'warn', 'error']);

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message);
}

function run(message: RunMessage): void {
  const { runId } = message;
  const timers = new Map<number, NodeJS.Timeout>();
  let nextTimer = 1;
  let logs = 0;
  let dropped = 0;
  let finished = false;
  const finish = (outcome: WorkerMessage) => {
    if (finished) return;
    finished = true;
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    post(outcome);
  };
  const text = (value: unknown, max: number) => {
    const s = typeof value === 'string' ? value : '';
    return s.length > max ? `${s.slice(0, max)}… (${s.length - max} more characters)` : s;
  };
  let api: Bootstrapped | undefined;
  const bridge: Bridge = {
    log(level, value) {
      if (finished) return;
      if (logs >= message.maxLogEntries) {
        dropped++;
        return;
      }
      logs++;
      const entry: LogEntry = { time: Date.now(), level: LEVELS.has(level as LogEntry['level']) ? (level as LogEntry['level']) : 'log', message: text(value, message.maxLogChars) };
      post({ type: 'log', runId, entry });
    },
    setTimer(ms, repeat) {
      const id = nextTimer++;
      if (finished) return id;
      const delay = typeof ms === 'number' ? ms : 0;
      const fire = () => api?.fire(id, repeat === true);
      timers.set(id, repeat === true ? setInterval(fire, delay) : setTimeout(() => (timers.delete(id), fire()), delay));
      return id;
    },
    clearTimer(id) {
      const timer = typeof id === 'number' ? timers.get(id) : undefined;
      if (timer) clearTimeout(timer);
      if (typeof id === 'number') timers.delete(id);
    },
    succeed(json) {
      const resultJson = typeof json === 'string' ? json : 'null';
      if (Buffer.byteLength(resultJson) > message.maxResultBytes) {
        finish({ type: 'done', runId, ok: false, error: { name: 'ResultError', message: `the result is larger than ${message.maxResultBytes} bytes of JSON`, code: 'result-too-large' }, logsDropped: dropped });
      } else {
        finish({ type: 'done', runId, ok: true, resultJson, logsDropped: dropped });
      }
    },
    fail(name, msg, stack, code) {
      const error = { name: text(name, 200) || 'Error', message: text(msg, 4000), stack: stackOfMain(text(stack, 20_000), message.filename), ...(code ? { code: text(code, 200) } : {}) };
      finish({ type: 'done', runId, ok: false, error, logsDropped: dropped });
    },
  };
  try {
    // A null-prototype global: with a plain {} its `constructor` is the host's Object, and
    // `globalThis.constructor.constructor('return process')()` would hand the worker's process to main.
    const context = createContext(Object.create(null) as object, { name: 'custom action', codeGeneration: { strings: true, wasm: false } });
    api = (bootstrap.runInContext(context) as (b: Bridge) => Bootstrapped)(bridge);
    const moduleFunction = new Script(message.js, { filename: message.filename }).runInContext(context) as unknown;
    api.run(moduleFunction, message.inputsJson);
  } catch (error) {
    bridge.fail(error instanceof Error ? error.name : 'Error', error instanceof Error ? error.message : String(error), error instanceof Error ? error.stack : '', '');
  }
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

parentPort?.on('message', (message: RunMessage) => {
  if (message.type === 'run') run(message);
});
