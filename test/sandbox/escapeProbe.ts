/**
 * Code that runs as `main.ts` in the sandbox and looks for anything that did not come from its own
 * realm. It is plain JavaScript in a string (it is the sandbox's input, not part of this program).
 *
 * `inspect(where, value)` walks a value: its prototype chain, every own property (values, getters and
 * setters, without calling them) and whatever those reach, and reports each object whose prototype
 * chain ends at an `Object.prototype` other than this realm's, where it enters this realm, with
 * whether its `constructor.constructor('return process')()` yields a process. Findings are
 * collected, never thrown, so one run reports every one of them, not only the first.
 */
export const PROBE = String.raw`
const OWN_OBJECT_PROTOTYPE = Object.prototype;
const findings = new Set();
let inspected = 0;
let bridgeErrors = 0;

function report(message) { findings.add(message); }

function label(value) {
  try {
    if (typeof value === 'function') return 'function ' + (Reflect.getOwnPropertyDescriptor(value, 'name')?.value ?? '');
    return Object.prototype.toString.call(value);
  } catch { return 'an object'; }
}

function endsAtOurs(value) {
  let p = value;
  for (let i = 0; i < 10000 && p !== null; i++) {
    if (p === OWN_OBJECT_PROTOTYPE) return true;
    try { p = Reflect.getPrototypeOf(p); } catch { return true; }
  }
  return false;
}

function isForeign(value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  if (typeof value === 'function') return !endsAtOurs(value);
  let proto;
  try { proto = Reflect.getPrototypeOf(value); } catch { return false; }
  // A null-prototype object says nothing of its realm; whatever it holds is walked anyway.
  return proto !== null && !endsAtOurs(value);
}

function processThrough(value) {
  try {
    const make = value.constructor && value.constructor.constructor;
    if (typeof make !== 'function') return undefined;
    const found = make('return typeof process === "undefined" ? undefined : process')();
    return found && typeof found === 'object' && typeof found.pid === 'number' ? found : undefined;
  } catch { return undefined; }
}

function inspect(where, root, budget = 4000) {
  const seen = new Set();
  const queue = [[root, where]];
  while (queue.length > 0 && seen.size < budget) {
    const [value, path] = queue.shift();
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) continue;
    seen.add(value);
    inspected++;
    if (isForeign(value)) {
      // Reported where it crosses into this realm; what lies behind it is all the other realm's.
      const via = processThrough(value) ? "; its constructor.constructor('return process')() is a process" : '';
      report(path + ': ' + label(value) + ' of another realm' + via);
      continue;
    }
    try { queue.push([Reflect.getPrototypeOf(value), path + '.__proto__']); } catch {}
    let keys = [];
    try { keys = Reflect.ownKeys(value); } catch {}
    for (const key of keys) {
      let d;
      try { d = Reflect.getOwnPropertyDescriptor(value, key); } catch { continue; }
      if (!d) continue;
      const name = path + '.' + String(key);
      if ('value' in d) queue.push([d.value, name]);
      if (d.get) queue.push([d.get, name + ' (getter)']);
      if (d.set) queue.push([d.set, name + ' (setter)']);
    }
  }
}

/** Every error caught is inspected, with what reading its stack and message gives. */
function inspectError(where, error) {
  inspect(where, error);
  try { inspect(where + '.stack', error && error.stack); } catch {}
}

const ES_GLOBALS = new Set(['Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt', 'Infinity', 'NaN', 'undefined', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'globalThis', 'JSON', 'Math', 'Intl', 'ArrayBuffer', 'Atomics', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array', 'DataView', 'Map', 'BigInt', 'Set', 'WeakMap', 'WeakSet', 'Proxy', 'Reflect', 'FinalizationRegistry', 'WeakRef', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'eval', 'isFinite', 'isNaN', 'SharedArrayBuffer', 'WebAssembly', 'Iterator', 'DisposableStack', 'AsyncDisposableStack', 'SuppressedError']);

/** What the sandbox adds to the language: every global that is not ECMAScript's, and the functions it holds. */
function bridgeCalls() {
  const calls = [];
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (ES_GLOBALS.has(name)) continue;
    const value = globalThis[name];
    if (typeof value === 'function') calls.push([name, value, undefined]);
    else if (value && typeof value === 'object') {
      for (const key of Object.getOwnPropertyNames(value)) if (typeof value[key] === 'function') calls.push([name + '.' + key, value[key], value]);
    }
  }
  return calls;
}

/** Typical arguments for each kind of bridge call; unknown ones get none. */
function argumentsFor(name) {
  if (/^set(Timeout|Interval)$/.test(name)) return [() => {}, 100000];
  if (/^clear(Timeout|Interval)$/.test(name)) return [123456];
  if (name === 'queueMicrotask') return [() => {}];
  if (name.startsWith('console.')) return ['probe', { deep: [1, { x: 'y' }] }, 42];
  return [];
}

/**
 * Calls fn with the stack almost exhausted, at every depth from the deepest up until a call gets
 * through, with frames of three sizes; every error caught from the call is kept and inspected after.
 */
function underExhaustion(where, fn, self, args) {
  const caught = collectUnderExhaustion(fn, self, args);
  bridgeErrors += caught.length;
  caught.forEach((error, i) => inspectError(where + ' under stack exhaustion, error ' + i, error));
}
function collectUnderExhaustion(fn, self, args) {
  const caught = [];
  const attempt = () => Reflect.apply(fn, self, args);
  const small = (n) => { try { small(n + 1); } catch (e) { try { attempt(); return; } catch (inner) { caught[caught.length] = inner; } throw e; } };
  const medium = (n) => { const a = n + 1, b = a + 1, c = b + 1, d = c + 1; try { medium(d - 3); } catch (e) { try { attempt(); return; } catch (inner) { caught[caught.length] = inner; } throw e; } };
  const large = (n, x1, x2, x3, x4, x5, x6, x7, x8) => { try { large(n + 1, x1, x2, x3, x4, x5, x6, x7, x8); } catch (e) { try { attempt(); return; } catch (inner) { caught[caught.length] = inner; } throw e; } };
  for (const deep of [small, medium, large]) { try { deep(0, 1, 2, 3, 4, 5, 6, 7, 8); } catch {} }
  return caught;
}

function exhaustEveryBridgeCall(where) {
  for (const [name, fn, self] of bridgeCalls()) underExhaustion(where + name, fn, self, argumentsFor(name));
}

/** Frames as Error.prepareStackTrace gets them, and everything each frame hands out. */
const FRAME_METHODS = ['getThis', 'getFunction', 'getTypeName', 'getFunctionName', 'getMethodName', 'getFileName', 'getLineNumber', 'getColumnNumber', 'getEvalOrigin', 'getScriptNameOrSourceURL', 'getPromiseIndex', 'isToplevel', 'isEval', 'isNative', 'isConstructor', 'isAsync', 'isPromiseAll', 'toString'];
function inspectFrames(where, error, frames) {
  inspect(where + ': the error', error);
  inspect(where + ': the frames', frames);
  const n = frames && typeof frames.length === 'number' ? frames.length : 0;
  for (let i = 0; i < n; i++) {
    const frame = frames[i];
    for (const method of FRAME_METHODS) {
      try { inspect(where + ': frame ' + i + '.' + method + '()', frame[method]()); } catch {}
    }
  }
}
function withPrepareStackTrace(where, trigger) {
  const got = [];
  const previous = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (error, frames) => { got.push([error, frames]); return 'prepared'; };
    trigger();
  } catch (e) { inspectError(where + ': thrown', e); }
  finally { try { Error.prepareStackTrace = previous; } catch {} }
  got.forEach(([error, frames], i) => inspectFrames(where + ' #' + i, error, frames));
  return got.length;
}
function stackTriggers(where) {
  let count = 0;
  count += withPrepareStackTrace(where + 'new Error().stack', () => void new Error('x').stack);
  count += withPrepareStackTrace(where + 'a TypeError from the engine', () => { try { null.x; } catch (e) { void e.stack; } });
  count += withPrepareStackTrace(where + 'Error.captureStackTrace', () => { const o = {}; Error.captureStackTrace(o); void o.stack; });
  count += withPrepareStackTrace(where + 'a stack overflow', () => { const f = () => f(); try { f(); } catch (e) { void e.stack; } });
  count += withPrepareStackTrace(where + 'console.log formatting', () => console.log({ toJSON() { void new Error('in toJSON').stack; return 1; } }));
  count += withPrepareStackTrace(where + 'setTimeout argument conversion', () => clearTimeout(setTimeout(() => {}, { valueOf() { void new Error('in valueOf').stack; return 100000; } })));
  // The platform asks the error's global for Error.prepareStackTrace: a global Error of one's own making.
  count += withPrepareStackTrace(where + 'a replaced global Error', () => {
    const real = Error;
    const fake = { prepareStackTrace: (error, frames) => { inspectFrames(where + 'a replaced global Error', error, frames); return 'faked'; } };
    try { globalThis.Error = fake; } catch { return; }
    try { void new real('x').stack; } finally { globalThis.Error = real; }
  });
  return count;
}

/** Bridge calls given what no caller should give: every error thrown back is inspected. */
function hostileArguments(where) {
  const revoked = Proxy.revocable({}, {}); revoked.revoke();
  const throwing = { valueOf() { throw new Error('valueOf'); }, toString() { throw new Error('toString'); }, toJSON() { throw new Error('toJSON'); }, get name() { throw new Error('name'); } };
  const cyclic = {}; cyclic.self = cyclic;
  const values = [Symbol('s'), 10n, revoked.proxy, throwing, cyclic, 'x'.repeat(1000000), -1, NaN, Infinity, undefined, null, 'return process', Object.create(null), new Proxy({}, { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); } })];
  let thrown = 0;
  for (const [name, fn, self] of bridgeCalls()) {
    for (const a of values) {
      for (const args of [[a], [a, a], [() => {}, a], [a, 1, a]]) {
        try { const r = Reflect.apply(fn, self, args); inspect(where + name + ' returned', r); if (typeof r === 'number') { clearTimeout(r); clearInterval(r); } }
        catch (e) { thrown++; inspectError(where + name + '(' + typeof a + ') threw', e); }
      }
    }
  }
  return thrown;
}

/** Errors the engine and the platform make: dynamic import in every form, compilation, parsing. */
async function platformErrors(where) {
  const attempts = {
    'import()': () => import('node:fs'),
    'import() in eval': () => eval("import('node:fs')"),
    'import() in Function': () => Function("return import('node:child_process')")(),
    'import() of data:': () => eval("import('data:text/javascript,export default 1')"),
    'WebAssembly.compile': () => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])),
    'new WebAssembly.Module': () => new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])),
    'eval of bad syntax': () => eval('1 +'),
    'Function of bad syntax': () => Function('{'),
    'JSON.parse': () => JSON.parse('{'),
    'require': () => require('node:fs'),
  };
  let thrown = 0;
  for (const [name, attempt] of Object.entries(attempts)) {
    try { const r = await attempt(); inspect(where + name + ' gave', r); } catch (e) { thrown++; inspectError(where + name + ' threw', e); }
  }
  return thrown;
}

function outcome(extra) {
  const list = [...findings];
  return { findings: list.slice(0, 200), more: Math.max(0, list.length - 200), inspected, bridgeErrors, ...extra };
}

/** Runs fn in a timer callback, an interval, a microtask, a promise reaction and after an await. */
async function inEveryAsyncPath(fn) {
  await new Promise((resolve, reject) => setTimeout(() => { try { fn('in a setTimeout callback: '); resolve(); } catch (e) { reject(e); } }, 0));
  await new Promise((resolve, reject) => { const id = setInterval(() => { clearInterval(id); try { fn('in a setInterval callback: '); resolve(); } catch (e) { reject(e); } }, 0); });
  await new Promise((resolve, reject) => queueMicrotask(() => { try { fn('in a queueMicrotask callback: '); resolve(); } catch (e) { reject(e); } }));
  await Promise.resolve().then(() => fn('in a promise reaction: '));
  await null;
  fn('after an await: ');
}

/**
 * Node's own callbacks that run on top of user code, at whatever depth it chose: formatting a stack
 * and refusing an import. They can throw an error of the runner's realm (the platform's, not the
 * sandbox's, and no realm can stop it); what matters is that it leads nowhere. Every object of
 * another realm met is walked into, and every function found is asked for a process.
 */
async function nodeCallbacksUnderExhaustion() {
  const rejections = [];
  // Each import's promise, settled once its rejection is in: waited for, not given a pause.
  const imports = [];
  const targets = {
    'reading .stack': () => void new Error('x').stack,
    'Error.captureStackTrace': () => { const o = {}; Error.captureStackTrace(o); void o.stack; },
    'import() in eval': () => { imports[imports.length] = eval("import('node:fs')").then(null, (e) => { rejections[rejections.length] = e; }); },
  };
  const errors = [];
  for (const [name, fn] of Object.entries(targets)) for (const e of collectUnderExhaustion(fn, undefined, [])) errors.push([name, e]);
  await Promise.all(imports);
  for (const e of rejections) errors.push(['import() in eval, rejected', e]);
  let foreign = 0;
  const compiled = [];
  const processes = [];
  for (const [name, error] of errors) {
    if (!isForeign(error)) continue;
    foreign++;
    const seen = new Set();
    const queue = [error];
    while (queue.length > 0 && seen.size < 2000) {
      const value = queue.shift();
      if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) continue;
      seen.add(value);
      if (processThrough(value)) processes.push(name);
      if (typeof value === 'function' && isForeign(value)) {
        try { value.constructor('return 1'); compiled.push(name); } catch {}
      }
      try { queue.push(Reflect.getPrototypeOf(value)); } catch {}
      let keys = [];
      try { keys = Reflect.ownKeys(value); } catch {}
      for (const key of keys) {
        try { const d = Reflect.getOwnPropertyDescriptor(value, key); if (d) queue.push(d.value, d.get, d.set); } catch {}
      }
    }
  }
  return { errors: errors.length, foreign, compiled: [...new Set(compiled)], processes: [...new Set(processes)] };
}
`;
