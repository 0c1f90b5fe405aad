import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { type ActionEvent, type ActionResource, type RunResponse } from '../../src/core/schema';
import { eventually } from '../support/eventually';
import { canSeeProcesses, isAlive, nodeChildren } from './runnerProcesses';
import { metadata, requester, ROOT, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;

/** Code that tries to reach the host; each returns what it found, and the run must find nothing. */
const ESCAPES: Record<string, string> = {
  'globalThis.constructor.constructor': "return String(globalThis.constructor.constructor('return typeof process')());",
  'process through Function':
    "try { return typeof (globalThis.constructor.constructor('return process')() as any).getBuiltinModule; } catch (e) { return 'refused: ' + (e as Error).name; }",
  'this of a sloppy function': "try { return String((Function('return this')() as any).process); } catch (e) { return 'refused'; }",
  'console.log.constructor': "return String((console.log as any).constructor('return typeof process')());",
  'setTimeout.constructor': "return String((setTimeout as any).constructor('return typeof require')());",
  // Every error, at every depth: the first one caught is the sandbox's own, and once only it was looked at (security-escape.test.ts goes further).
  'an error from the bridge':
    "const caught: any[] = []; for (const call of [() => console.log('x'), () => setTimeout(() => {}, 1), () => clearTimeout(1)]) { const deep = (n: number): void => { try { deep(n + 1); } catch (e) { try { call(); return; } catch (inner) { caught.push(inner); } throw e; } }; try { deep(0); } catch {} } const found = caught.map((c) => { try { return String(c.constructor.constructor('return typeof process')()); } catch { return 'refused'; } }).filter((t) => t !== 'undefined' && t !== 'refused'); return found.length ? found.join() : 'undefined';",
  'Error.prepareStackTrace frames':
    "let found = 'undefined'; (Error as any).prepareStackTrace = (_e: unknown, frames: any[]) => { for (const f of frames) { const t = f.getThis?.(); if (t && t.process) found = 'process'; const fn = f.getFunction?.(); if (fn) found = 'function'; } return ''; }; try { (null as any).x; } catch (e) { void (e as Error).stack; } return found;",
  require: "try { require('fs'); return 'loaded'; } catch { return 'undefined'; }",
  'dynamic import': "return import('node:fs').then(() => 'loaded', () => 'undefined');",
  'network and host globals':
    "const found = Object.entries({ fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest, WebSocket: typeof WebSocket, process: typeof process, Buffer: typeof Buffer, moduleRequire: typeof (module as any).require }).filter(([, t]) => t !== 'undefined'); return found.length ? JSON.stringify(found) : 'undefined';",
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
      assert.ok(
        ['undefined', 'refused', 'refused: ReferenceError', 'refused: TypeError'].includes(String(event.data.result)),
        `${name} reached: ${JSON.stringify(event.data.result)}`,
      );
    });
  }

  for (const [name, code, codes] of [
    ['an infinite loop', 'export function main() { for (;;) {} }', ['timeout']],
    ['a promise that never settles', 'export function main() { return new Promise(() => {}); }', ['timeout']],
    ['an interval that keeps the run alive', 'export function main() { setInterval(() => {}, 1); return new Promise(() => {}); }', ['timeout']],
    [
      'a memory bomb',
      'export function main() { const all: unknown[] = []; for (;;) all.push(new Array(1e6).fill(Math.random())); }',
      ['memory-limit', 'timeout'],
    ],
    ['a string that doubles', "export function main() { let s = 'x'; for (;;) s += s; }", ['memory-limit', 'timeout', undefined]],
    ['unbounded recursion', 'export function main(): number { const f = (n: number): number => f(n + 1) + 1; return f(0); }', [undefined]],
    [
      'process.exit through an escape',
      "export function main() { (globalThis as any).process?.exit(1); (globalThis.constructor.constructor('return this')() as any).process?.exit(1); return new Promise(() => {}); }",
      ['timeout'],
    ],
    ['a huge result', "export function main() { return 'x'.repeat(10_000_000); }", ['result-too-large', 'memory-limit']],
  ] as const) {
    it(`stops ${name} within the limits and records a failure event`, async () => {
      const a = await action(code);
      const event = await run(a);
      assert.equal(event.name, 'failure');
      assert.ok((codes as readonly (string | undefined)[]).includes(event.data.error?.code), JSON.stringify(event.data.error));
      assert.deepEqual(
        (await recorded(a)).map((e) => e.id),
        [event.id],
      );
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

  it('keeps what main logged before the memory limit stopped it', async () => {
    const a = await action(
      "export function main() { console.log('before the bomb'); const all: unknown[] = []; for (;;) all.push(new Array(1e6).fill(Math.random())); }",
    );
    const event = await run(a);
    assert.ok(['memory-limit', 'timeout'].includes(event.data.error?.code ?? ''), JSON.stringify(event.data.error));
    assert.deepEqual(
      event.data.logs.map((l) => l.message),
      ['before the bomb'],
    );
  });

  it('keeps serving while a runaway run is going: a list answers before the run ends', async () => {
    const loop = await action('export function main() { for (;;) {} }');
    // The runners of this process and the CPU each has used: the one that takes the run spins.
    const before = new Map(nodeChildren().map((p) => [p.pid, p.cpuTicks]));
    const spinning = () => nodeChildren().some((p) => p.cpuTicks - (before.get(p.pid) ?? Number.POSITIVE_INFINITY) >= 5);
    let ended = false;
    const running = run(loop).then((event) => {
      ended = true;
      return event;
    });
    // The list is asked once the run spins (2 s limit); a run that ended first fails the check below.
    if (canSeeProcesses) await eventually(() => (spinning() || ended ? true : undefined), 'the run spinning in a runner');
    const list = await box.request('GET', '/api/application/app-a/actions', { key });
    assert.equal(list.status, 200);
    assert.equal(ended, false, 'the list should have answered while the run was still going');
    // A second run, of good code, goes to another runner process and ends normally meanwhile.
    const good = await run(await action("export const main = () => 'fine';"));
    assert.equal(good.data.result, 'fine');
    assert.equal((await running).data.error?.code, 'timeout');
  });
});

describe('security: no runaway run outlives its sandbox', function () {
  this.timeout(120_000);
  let cli: ChildProcess | undefined;
  after(() => cli?.kill('SIGKILL'));

  it('a run spinning when the sandbox process is killed stops at its time limit by itself, and its process exits', async function () {
    if (!canSeeProcesses) this.skip();
    const child = spawn(
      process.execPath,
      ['--require', 'tsx/cjs', path.join(ROOT, 'src/sandbox/cli.ts'), '--json', '--port', '0', '--ensure-app', 'orphan:Orphan'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    cli = child;
    const ready = await new Promise<{ url: string; applications: { key: string }[] }>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { url: string; applications: { key: string }[] });
      });
      child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
    });
    const request = requester(ready.url);
    const key = ready.applications[0]!.key;
    const a = (await request('POST', '/api/application/orphan/actions', { key, json: metadata({ parameters: [] }) })).json as ActionResource;
    await request('PUT', `/api/actions/${a.id}/implementation`, { key, body: 'export function main() { for (;;) {} }', type: 'application/typescript' });
    const running = request('POST', a.eventsUrls.Test.replace(/events$/, 'runs'), { key, json: { inputs: [] } }).catch(() => undefined);
    // Half a second of CPU: the run is in its loop.
    const spinning = await eventually(() => nodeChildren(child.pid).find((p) => p.cpuTicks > 50), 'a runner spinning');
    const runners = nodeChildren(child.pid).map((p) => p.pid);
    child.kill('SIGKILL');
    await running;
    // The sandbox's limit is 5 s: the spinning runner interrupts itself then, sees its input closed and exits; the others at once.
    await eventually(() => (runners.some(isAlive) ? undefined : true), `the runners ${runners.join(', ')} (${spinning.pid} spinning) to exit`, 20_000);
  });
});
