import assert from 'node:assert/strict';
import { type ActionEvent, type ActionResource, type RunResponse } from '../../src/core/schema';
import { metadata, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;

/** Code that tries to reach the host; each returns what it found, and the run must find nothing. */
const ESCAPES: Record<string, string> = {
  'globalThis.constructor.constructor': "return String(globalThis.constructor.constructor('return typeof process')());",
  'process through Function': "try { return typeof (globalThis.constructor.constructor('return process')() as any).getBuiltinModule; } catch (e) { return 'refused: ' + (e as Error).name; }",
  'this of a sloppy function': "try { return String((Function('return this')() as any).process); } catch (e) { return 'refused'; }",
  'console.log.constructor': "return String((console.log as any).constructor('return typeof process')());",
  'setTimeout.constructor': "return String((setTimeout as any).constructor('return typeof require')());",
  'an error from the bridge': "let caught: any; const deep = (n: number): void => { try { deep(n + 1); } catch (e) { try { console.log(n); } catch (inner) { caught ??= inner; } } }; deep(0); return caught ? String(caught.constructor.constructor('return typeof process')()) : 'undefined';",
  'Error.prepareStackTrace frames': "let found = 'undefined'; (Error as any).prepareStackTrace = (_e: unknown, frames: any[]) => { for (const f of frames) { const t = f.getThis?.(); if (t && t.process) found = 'process'; const fn = f.getFunction?.(); if (fn) found = 'function'; } return ''; }; try { (null as any).x; } catch (e) { void (e as Error).stack; } return found;",
  require: "try { require('fs'); return 'loaded'; } catch { return 'undefined'; }",
  'dynamic import': "return import('node:fs').then(() => 'loaded', () => 'undefined');",
  'network and host globals': "const found = Object.entries({ fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest, WebSocket: typeof WebSocket, process: typeof process, Buffer: typeof Buffer, moduleRequire: typeof (module as any).require }).filter(([, t]) => t !== 'undefined'); return found.length ? JSON.stringify(found) : 'undefined';",
  'WebAssembly compilation': "try { new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); return 'compiled'; } catch { return 'undefined'; }",
};

describe('security: runaway and hostile code in main', function () {
  this.timeout(120_000);
  let box: Box;
  let key: string;
  before(async () => {
    box = await withSandbox({ limits: { runTimeoutMs: 2_000, runMemoryMb: 32, logEntriesPerRun: 50, logMessageChars: 1_000 } });
    key = box.applications[0]!.key;
  });
  after(() => box.close());

  let n = 0;
  async function action(code: string): Promise<ActionResource> {
    const created = await box.request('POST', '/api/application/app-a/actions', { key, json: metadata({ key: `runaway${n++}`, parameters: [] }) });
    assert.equal(created.status, 201, created.text);
    const a = created.json as ActionResource;
    const put = await box.request('PUT', `/api/actions/${a.id}/implementation`, { key, body: code, type: 'application/typescript' });
    assert.equal(put.status, 204, put.text);
    return a;
  }
  async function run(a: ActionResource): Promise<ActionEvent> {
    const reply = await box.request('POST', a.eventsUrls.Test.replace(/events$/, 'runs'), { key, json: { inputs: [] } });
    assert.equal(reply.status, 200, reply.text);
    return (reply.json as RunResponse).event;
  }
  async function recorded(a: ActionResource): Promise<ActionEvent[]> {
    return (await box.request('GET', a.eventsUrls.Test, { key })).json as ActionEvent[];
  }

  for (const [name, body] of Object.entries(ESCAPES)) {
    it(`finds nothing of the host through ${name}`, async () => {
      const event = await run(await action(`export async function main(): Promise<unknown> {\n  ${body}\n}\n`));
      if (event.name === 'failure') return; // refused outright is fine too
      assert.ok(['undefined', 'refused', 'refused: ReferenceError', 'refused: TypeError'].includes(String(event.data.result)), `${name} reached: ${JSON.stringify(event.data.result)}`);
    });
  }

  for (const [name, code, codes] of [
    ['an infinite loop', 'export function main() { for (;;) {} }', ['timeout']],
    ['a promise that never settles', 'export function main() { return new Promise(() => {}); }', ['timeout']],
    ['an interval that keeps the run alive', 'export function main() { setInterval(() => {}, 1); return new Promise(() => {}); }', ['timeout']],
    ['a memory bomb', 'export function main() { const all: unknown[] = []; for (;;) all.push(new Array(1e6).fill(Math.random())); }', ['memory-limit', 'timeout']],
    ['a string that doubles', "export function main() { let s = 'x'; for (;;) s += s; }", ['memory-limit', 'timeout', undefined]],
    ['unbounded recursion', 'export function main(): number { const f = (n: number): number => f(n + 1) + 1; return f(0); }', [undefined]],
    ['process.exit through an escape', "export function main() { (globalThis as any).process?.exit(1); (globalThis.constructor.constructor('return this')() as any).process?.exit(1); return new Promise(() => {}); }", ['timeout']],
    ['a huge result', "export function main() { return 'x'.repeat(10_000_000); }", ['result-too-large', 'memory-limit']],
  ] as const) {
    it(`stops ${name} within the limits and records a failure event`, async () => {
      const a = await action(code);
      const event = await run(a);
      assert.equal(event.name, 'failure');
      assert.ok((codes as readonly (string | undefined)[]).includes(event.data.error?.code), JSON.stringify(event.data.error));
      assert.deepEqual((await recorded(a)).map((e) => e.id), [event.id]);
    });
  }

  it('caps huge log output: entries and characters', async () => {
    const a = await action("export function main() { for (let i = 0; i < 100_000; i++) console.log('y'.repeat(5_000)); return 'done'; }");
    const event = await run(a);
    assert.equal(event.data.result, 'done');
    assert.equal(event.data.logs.length, 51);
    assert.ok(event.data.logs.every((l) => l.message.length < 1_100));
    assert.match(event.data.logs.at(-1)!.message, /99950 more log entries were dropped/);
  });

  it('keeps serving while a runaway run is going: a list answers before the run ends', async () => {
    const loop = await action('export function main() { for (;;) {} }');
    let ended = false;
    const running = run(loop).then((event) => {
      ended = true;
      return event;
    });
    // Give the run a moment to start; the list is asked while it spins (2 s limit).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const list = await box.request('GET', '/api/application/app-a/actions', { key });
    assert.equal(list.status, 200);
    assert.equal(ended, false, 'the list should have answered while the run was still going');
    // A second run, of good code, goes to another worker and ends normally meanwhile.
    const good = await run(await action("export const main = () => 'fine';"));
    assert.equal(good.data.result, 'fine');
    assert.equal((await running).data.error?.code, 'timeout');
  });
});
