/**
 * What the realm of `main` (a fresh vm context per run) is given: console, timers and queueMicrotask,
 * all of them functions of that realm. `setUpRealm` is never called in the runner's own realm: its
 * source text is evaluated inside the context (run.ts), so `Error`, `Reflect`, `JSON` and every other
 * name in it are the context's own. It may use nothing from outside its body.
 *
 * The rule it keeps: no object of the runner's realm ever reaches user code. The bridge (functions of
 * the runner's realm) is held in this closure only and handed primitives only; whatever it throws (a
 * stack overflow inside it, above all) is replaced by an error made here. Error.prepareStackTrace gets
 * copies of the frames made here, without their functions and receivers, and `Error` cannot be
 * replaced on the global, which is where the platform looks for it.
 */
export interface RealmBridge {
  log(level: string, message: string): void;
  setTimer(ms: number, repeat: boolean): number;
  clearTimer(id: number): void;
  succeed(resultJson: string): void;
  fail(name: string, message: string, stack: string, code: string): void;
  /** What the runner wants done on this entry: START, REJECTION, a timer id, or 0 for nothing. */
  nextJob(): number;
  /** For START: the module function (compiled in this realm) and the inputs as JSON. */
  moduleFunction(): unknown;
  inputsJson(): string;
  /** For REJECTION: the reason of a promise of this realm that nobody handled. */
  rejection(): unknown;
}

/** Handed back to the runner: functions of the realm it may call. */
export interface RealmHandle {
  /** The error a dynamic import gets: there are no modules in the sandbox. */
  importError(specifier: string): unknown;
}

export const START = -1;
export const REJECTION = -2;

export function setUpRealm(bridge: RealmBridge, entryName: string, start: number, rejectionJob: number): RealmHandle {
  'use strict';
  // Taken once, before user code runs: later changes to the globals cannot reach these.
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const OwnError = Error;
  const OwnRangeError = RangeError;
  const OwnTypeError = TypeError;
  const bridged = freeze({
    log: bridge.log,
    setTimer: bridge.setTimer,
    clearTimer: bridge.clearTimer,
    succeed: bridge.succeed,
    fail: bridge.fail,
    nextJob: bridge.nextJob,
    moduleFunction: bridge.moduleFunction,
    inputsJson: bridge.inputsJson,
    rejection: bridge.rejection,
  });

  /** An error of this realm in place of one the runner's realm threw: only its name and message are read. */
  const ownError = (foreign: unknown): Error => {
    let name = 'Error';
    let message = 'the sandbox could not complete the call';
    try {
      const f = foreign as { name?: unknown; message?: unknown };
      if (typeof f.name === 'string') name = f.name;
      if (typeof f.message === 'string') message = f.message;
    } catch {
      // Keep the defaults.
    }
    const Kind = name === 'RangeError' ? OwnRangeError : name === 'TypeError' ? OwnTypeError : OwnError;
    return new Kind(message);
  };
  /** Every call into the runner's realm goes through here. */
  const host = <A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R => {
    try {
      return apply(fn, undefined, args);
    } catch (error) {
      throw ownError(error);
    }
  };

  const format = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (v instanceof OwnError) return String(v.stack || v);
    if (typeof v === 'function') return `[Function ${v.name || 'anonymous'}]`;
    if (typeof v === 'bigint') return `${String(v)}n`;
    try {
      const j = JSON.stringify(v);
      return j === undefined ? String(v) : j;
    } catch {
      return String(v);
    }
  };
  const logger = (level: string) =>
    freeze((...args: unknown[]): void => {
      const text = args
        .map((a) => {
          try {
            return format(a);
          } catch {
            return '[unprintable]';
          }
        })
        .join(' ');
      host(bridged.log, level, text);
    });
  const console = freeze({
    log: logger('log'),
    info: logger('info'),
    warn: logger('warn'),
    error: logger('error'),
    debug: logger('debug'),
    trace: logger('debug'),
  });

  const callbacks = new Map<number, { run: () => void; repeat: boolean }>();
  const addTimer = (repeat: boolean) =>
    freeze((fn: unknown, ms?: unknown, ...args: unknown[]): number => {
      if (typeof fn !== 'function') throw new OwnTypeError('the callback must be a function');
      const id = host(bridged.setTimer, Math.max(0, Number(ms) || 0), repeat);
      callbacks.set(id, { run: () => void apply(fn, undefined, args), repeat });
      return id;
    });
  const clear = freeze((id?: unknown): void => {
    const n = Number(id);
    callbacks.delete(n);
    host(bridged.clearTimer, n);
  });
  const globals: Record<string, unknown> = {
    console,
    setTimeout: addTimer(false),
    setInterval: addTimer(true),
    clearTimeout: clear,
    clearInterval: clear,
    queueMicrotask: freeze((fn: unknown): void => {
      if (typeof fn !== 'function') throw new OwnTypeError('the callback must be a function');
      void Promise.resolve().then(() => apply(fn, undefined, []));
    }),
  };
  for (const name of Object.keys(globals)) defineProperty(globalThis, name, { value: globals[name], writable: true, configurable: true, enumerable: false });

  // Error.prepareStackTrace: user code gets frames copied here, holding primitives only (getThis and
  // getFunction give undefined), whatever realm the platform's frames come from. The platform looks
  // the hook up on the global's `Error`, so `Error` stays this realm's and the hook an accessor.
  const FRAME_METHODS = [
    'getTypeName',
    'getFunctionName',
    'getMethodName',
    'getFileName',
    'getLineNumber',
    'getColumnNumber',
    'getEvalOrigin',
    'getScriptNameOrSourceURL',
    'getPromiseIndex',
    'isToplevel',
    'isEval',
    'isNative',
    'isConstructor',
    'isAsync',
    'isPromiseAll',
    'toString',
  ];
  const copyFrame = (site: Record<string, unknown>) => {
    const frame: Record<string, () => unknown> = { getThis: () => undefined, getFunction: () => undefined };
    for (const method of FRAME_METHODS) {
      let value: unknown;
      try {
        const fn = site[method];
        value = typeof fn === 'function' ? apply(fn, site, []) : undefined;
      } catch {
        value = undefined;
      }
      const primitive = value === null || (typeof value !== 'object' && typeof value !== 'function') ? value : undefined;
      frame[method] = () => primitive;
    }
    return freeze(frame);
  };
  const copyFrames = (sites: unknown): object[] => {
    const copies: object[] = [];
    try {
      const list = sites as ArrayLike<Record<string, unknown>>;
      const n = typeof list.length === 'number' ? list.length : 0;
      for (let i = 0; i < n; i++) copies.push(copyFrame(list[i]!));
    } catch {
      // Fewer frames: never an object of the other realm.
    }
    return copies;
  };
  let userPrepare: unknown;
  const prepareStackTrace = function (this: unknown, error: unknown, sites: unknown): unknown {
    return apply(userPrepare as (...args: unknown[]) => unknown, this, [error, copyFrames(sites)]);
  };
  defineProperty(OwnError, 'prepareStackTrace', {
    // Unset, it reads as unset, and the platform formats stacks as usual.
    get: () => (typeof userPrepare === 'function' ? prepareStackTrace : userPrepare),
    // Setting back what was read (the usual save-and-restore) must not make the hook call itself.
    set: (fn: unknown) => {
      userPrepare = fn === prepareStackTrace ? undefined : fn;
    },
    enumerable: false,
    configurable: false,
  });
  defineProperty(globalThis, 'Error', { value: OwnError, writable: false, configurable: false, enumerable: false });

  const describe = (e: unknown): [string, string, string, string] => {
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const x = e as { name?: unknown; message?: unknown; stack?: unknown; code?: unknown };
        return [String(x.name || 'Error'), String(x.message ?? ''), String(x.stack || ''), x.code === undefined ? '' : String(x.code)];
      }
      return ['Error', `main threw a ${typeof e}: ${format(e)}`, '', ''];
    } catch {
      return ['Error', 'main threw something that cannot be described', '', ''];
    }
  };
  const fail = (e: unknown): void => {
    const d = describe(e);
    host(bridged.fail, d[0], d[1], d[2], d[3]);
  };
  const succeed = (r: unknown): void => {
    let json: string | undefined;
    try {
      json = JSON.stringify(r === undefined ? null : r);
    } catch (e) {
      const err = new OwnError(`the result cannot be turned into JSON: ${String((e as { message?: unknown } | null)?.message)}`);
      err.name = 'ResultError';
      return fail(err);
    }
    host(bridged.succeed, typeof json === 'string' ? json : 'null');
  };
  const startMain = (): void => {
    const moduleFunction = host(bridged.moduleFunction) as (exports: object, require: unknown, module: object) => void;
    const exports = {};
    const module: { exports: unknown } = { exports };
    const require = (name: unknown) => {
      throw new OwnError(`imports are not available in the sandbox: ${JSON.stringify(String(name))}`);
    };
    apply(moduleFunction, exports, [exports, require, module]);
    const main = (module.exports as { main?: unknown } | null)?.main;
    if (typeof main !== 'function') {
      const e = new OwnError('main.ts does not export a function named main');
      e.name = 'MissingMainError';
      throw e;
    }
    const inputs = JSON.parse(host(bridged.inputsJson)) as unknown[];
    void Promise.resolve()
      .then(() => apply(main, undefined, inputs))
      .then(succeed, fail);
  };
  /** The one way in: the runner enters the realm by calling this (with a time limit), then asks what to do. */
  const enter = function (): void {
    try {
      const job = host(bridged.nextJob);
      if (job === start) startMain();
      else if (job === rejectionJob) fail(host(bridged.rejection));
      else if (job > 0) {
        const callback = callbacks.get(job);
        if (callback && !callback.repeat) callbacks.delete(job);
        callback?.run();
      }
    } catch (e) {
      fail(e);
    }
  };
  defineProperty(globalThis, entryName, { value: freeze(enter), writable: false, configurable: false, enumerable: false });
  return freeze({
    importError: (specifier: string) => new OwnError(`imports are not available in the sandbox: ${JSON.stringify(specifier)}`),
  });
}
