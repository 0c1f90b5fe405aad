import assert from 'node:assert/strict';
import { type ActionEvent, type ActionResource, type RunResponse } from '../../src/core/schema';
import { eventually } from '../support/eventually';
import { assertMatchesSpec, metadata, watchLongPolls, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;
const RUNS = '/api/actions/{actionId}/environments/{environmentId}/runs';
const EVENTS = '/api/actions/{actionId}/environments/{environmentId}/events';

describe('sandbox: runs and events', () => {
  let box: Box;
  let key: string;
  before(async () => {
    box = await withSandbox({ limits: { runTimeoutMs: 1_500, runMemoryMb: 32, logEntriesPerRun: 5 } });
    key = box.applications[0]!.key;
  });
  after(() => box.close());

  async function action(code: string, overrides: Record<string, unknown> = {}): Promise<ActionResource> {
    const created = await box.request('POST', '/api/application/app-a/actions', {
      key,
      json: metadata({ key: `k${Math.random().toString(36).slice(2)}`, ...overrides }),
    });
    const a = created.json as ActionResource;
    const put = await box.request('PUT', `/api/actions/${a.id}/implementation`, { key, body: code, type: 'application/typescript' });
    assert.equal(put.status, 204, put.text);
    return a;
  }
  const runsOf = (a: ActionResource, env: 'Test' | 'Live' = 'Test') => a.eventsUrls[env].replace(/events$/, 'runs');
  async function run(a: ActionResource, inputs: unknown, env: 'Test' | 'Live' = 'Test'): Promise<ActionEvent> {
    const reply = await box.request('POST', runsOf(a, env), { key, json: { inputs } });
    assert.equal(reply.status, 200, reply.text);
    assertMatchesSpec('POST', RUNS, reply);
    return (reply.json as RunResponse).event;
  }

  it('runs main with positional or named inputs, captures console calls, records a success event', async () => {
    const a = await action(
      "import type { Inputs } from './action.generated';\nexport async function main(a: Inputs['a'], b: number) {\n  console.log('adding', a, b, { deep: [1] });\n  console.warn('careful');\n  return a + b;\n}\n",
    );
    const event = await run(a, [2, 3]);
    assert.equal(event.name, 'success');
    assert.equal(event.data.result, 5);
    assert.deepEqual(
      event.data.logs.map((l) => [l.level, l.message]),
      [
        ['log', 'adding 2 3 {"deep":[1]}'],
        ['warn', 'careful'],
      ],
    );
    assert.equal((await run(a, { a: 10, b: -1 }, 'Live')).data.result, 9);
    const test = await box.request('GET', a.eventsUrls.Test, { key });
    assertMatchesSpec('GET', EVENTS, test);
    assert.deepEqual(
      (test.json as ActionEvent[]).map((e) => e.id),
      [event.id],
    );
  });

  it('records a failure with the error and the lines of main.ts', async () => {
    const a = await action('export function main(a: number, b: number): number {\n  const x: number = a;\n  throw new TypeError(`bad ${x + b}`);\n}\n');
    const event = await run(a, [1, 2]);
    assert.equal(event.name, 'failure');
    assert.equal(event.data.error?.name, 'TypeError');
    assert.equal(event.data.error?.message, 'bad 3');
    assert.match(event.data.error!.stack!, /main\.ts:3:/);
    assert.doesNotMatch(event.data.error!.stack!, /worker|node:/);
  });

  it('refuses inputs that do not fit the parameters (400 invalid-inputs with paths)', async () => {
    const a = await action('export function main(a: number, b: number) { return a + b; }', {
      parameters: [
        { name: 'a', type: 'number' },
        { name: 'b', type: { type: 'single-choice', choices: [{ id: 'x', label: 'X' }] } },
      ],
    });
    for (const [inputs, paths] of [
      [
        ['1', 'y'],
        ['inputs[0]', 'inputs[1]'],
      ],
      [{ a: 1 }, ['inputs.b']],
      [{ a: 1, b: 'x', c: 2 }, ['inputs.c']],
      [[1], ['inputs']],
      ['nope', ['inputs']],
    ] as const) {
      const reply = await box.request('POST', runsOf(a), { key, json: { inputs } });
      assert.equal(reply.status, 400, JSON.stringify(inputs));
      assertMatchesSpec('POST', RUNS, reply);
      assert.deepEqual(
        (reply.json as { errors: { path: string }[] }).errors.map((e) => e.path),
        paths,
      );
    }
    assert.equal((await box.request('POST', runsOf(a), { key, json: {} })).status, 400);
  });

  it('stops runaway code (loop, memory bomb, never-settling promise) and records failures; the next run works', async function () {
    this.timeout(60_000);
    const loop = await action("export function main(a: number, b: number) {\n  console.log('spinning');\n  while (true) {}\n}\n");
    const bomb = await action('export function main() {\n  const all: string[][] = [];\n  for (;;) all.push(new Array(1e6).fill("x"));\n}\n');
    const hang = await action('export function main() {\n  return new Promise(() => {});\n}\n');
    const escape = await action(
      "export function main() {\n  const p = (console.log as any).constructor('return typeof process')();\n  let imported = 'no';\n  try { require('fs'); imported = 'yes'; } catch { imported = 'refused'; }\n  return [imported, typeof process, typeof fetch, p];\n}\n",
    );
    const looped = await run(loop, [1, 2]);
    assert.equal(looped.name, 'failure');
    assert.equal(looped.data.error?.code, 'timeout');
    assert.deepEqual(
      looped.data.logs.map((l) => l.message),
      ['spinning'],
    );
    const bombed = await run(bomb, [1, 2]);
    assert.equal(bombed.name, 'failure');
    assert.ok(['memory-limit', 'timeout'].includes(bombed.data.error!.code!), JSON.stringify(bombed.data.error));
    assert.equal((await run(hang, [1, 2])).data.error?.code, 'timeout');
    const isolated = await run(escape, [1, 2]);
    assert.deepEqual(isolated.data.result, ['refused', 'undefined', 'undefined', 'undefined']);
    const ok = await action('export const main = (a: number, b: number) => a * b;');
    assert.equal((await run(ok, [6, 7])).data.result, 42);
  });

  it('caps the logs of a run', async () => {
    const a = await action('export function main() {\n  for (let i = 0; i < 50; i++) console.log(i);\n  return null;\n}\n');
    const event = await run(a, [1, 2]);
    assert.equal(event.data.logs.length, 6);
    assert.match(event.data.logs[5]!.message, /45 more log entries were dropped/);
  });

  it('pages newest first with a next link, answers If-None-Match with 304, and long polls until a new event', async function () {
    // The last poll may wait 30 s: a test that ends within 25 s was woken by the event, not by the wait's end.
    this.timeout(25_000);
    const a = await action('export function main(a: number, b: number) { return a + b; }');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await run(a, [i, 0])).id);
    const first = await box.request('GET', `${a.eventsUrls.Test}?limit=2`, { key });
    assert.deepEqual(
      (first.json as ActionEvent[]).map((e) => e.id),
      ids.slice(0, 2),
    );
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    assert.ok(link, first.headers.get('link') ?? 'no link');
    const second = await box.request('GET', link, { key });
    assert.deepEqual(
      (second.json as ActionEvent[]).map((e) => e.id),
      ids.slice(2, 4),
    );
    const third = await box.request('GET', /^<([^>]+)>/.exec(second.headers.get('link')!)![1]!, { key });
    assert.deepEqual(
      (third.json as ActionEvent[]).map((e) => e.id),
      ids.slice(4),
    );
    assert.equal(third.headers.get('link'), null);

    const all = await box.request('GET', a.eventsUrls.Test, { key });
    const etag = all.headers.get('etag')!;
    assert.ok(all.headers.get('last-modified'));
    const same = await box.request('GET', a.eventsUrls.Test, { key, headers: { 'If-None-Match': etag } });
    assert.equal(same.status, 304);
    assertMatchesSpec('GET', EVENTS, same);
    const timedOut = await box.request('GET', `${a.eventsUrls.Test}?wait=1`, { key, headers: { 'If-None-Match': etag } });
    assert.equal(timedOut.status, 304);
    const polls = watchLongPolls();
    try {
      const waiting = box.request('GET', `${a.eventsUrls.Test}?wait=30`, { key, headers: { 'If-None-Match': etag } });
      // The run once the poll is held, so the answer is its waking, not a list read after the event.
      await eventually(() => (polls.held > 0 ? true : undefined), 'the long poll held');
      const fresh = await run(a, [9, 9]);
      const woken = await waiting;
      assert.equal(woken.status, 200);
      assert.equal((woken.json as ActionEvent[])[0]!.id, fresh.id);
      assert.notEqual(woken.headers.get('etag'), etag);
    } finally {
      polls.dispose();
    }
  });

  it('keeps at most eventsPerEnvironment events, dropping the oldest', async () => {
    const small = await withSandbox({ limits: { eventsPerEnvironment: 3 } });
    try {
      const k = small.applications[0]!.key;
      const created = (await small.request('POST', '/api/application/app-a/actions', { key: k, json: metadata() })).json as ActionResource;
      await small.request('PUT', `/api/actions/${created.id}/implementation`, {
        key: k,
        body: 'export const main = (a: number) => a;',
        type: 'application/typescript',
      });
      for (let i = 0; i < 5; i++) await small.request('POST', created.eventsUrls.Test.replace(/events$/, 'runs'), { key: k, json: { inputs: [i, 0] } });
      const list = (await small.request('GET', created.eventsUrls.Test, { key: k })).json as ActionEvent[];
      assert.deepEqual(
        list.map((e) => e.data.result),
        [4, 3, 2],
      );
    } finally {
      await small.close();
    }
  });
});
