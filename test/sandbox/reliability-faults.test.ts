import assert from 'node:assert/strict';
import { ApiError, closeAllPools, createClient, type CustomActionsClient, type NormalizedEvent } from '../../src/core/client';
import { PushQueue } from '../../src/core/deploy/pushQueue';
import { EventsPoller } from '../../src/core/events';
import { type ActionListEntry, type ActionMetadata, type ActionResource, type RunResponse } from '../../src/core/schema';
import { FAULT_KINDS, type FaultProxy, startFaultProxy } from '../support/faultProxy';
import { picker, testSeed } from '../support/random';
import { metadata, withSandbox } from './support';
import { until } from '../support/eventually';

type Box = Awaited<ReturnType<typeof withSandbox>>;
const SEED = testSeed(7_331);
const RATE = 0.3;

/** Polled every 20 ms: the faults come and go in milliseconds. */
const untilSoon = (check: () => boolean, what: string, timeoutMs: number) => until(check, what, timeoutMs, 20);

/** Sends again until the server takes it: what any writer must do once the client's own retries are spent. */
async function persist<T>(attempt: () => Promise<T>, tries = 25): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= tries || !(error instanceof ApiError) || !error.retryable) throw error;
    }
  }
}

describe('reliability: 30 % of requests faulted between the client and the sandbox', function () {
  this.timeout(120_000);
  let box: Box;
  let key: string;
  let proxy: FaultProxy;
  let client: CustomActionsClient;
  before(async () => {
    box = await withSandbox();
    key = box.applications[0]!.key;
    proxy = await startFaultProxy({ target: box.url, rate: RATE, seed: SEED, holdMs: 1_500 });
    // A short time-out so `timeout` faults cost little; the proxy holds longer than it.
    client = createClient({ baseUrl: proxy.url, getKey: () => Promise.resolve(key), timeoutMs: 1_000, retries: 3 });
  });
  after(async () => {
    await proxy.close();
    await closeAllPools();
    await box.close();
  });

  async function direct<T>(method: string, path: string, json?: unknown): Promise<T> {
    const reply = await box.request(method, path, { key, json });
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.status} ${reply.text}`);
    return reply.json as T;
  }

  it('200 saves across 10 actions through the PushQueue: every action ends with its last save on the server', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await direct<ActionResource>('POST', '/api/application/app-a/actions', metadata({ key: `save${i}` }))).id);
    const queue = new PushQueue<boolean>({
      send: (id, content, signal) => client.putImplementation(id, content, { signal }).then(() => true),
      failed: () => false,
    });
    const p = picker(SEED);
    const latest = new Map<string, string>();
    const saves: Promise<{ id: string; content: string; accepted: boolean }>[] = [];
    const before = { ...proxy.stats };
    for (let n = 0; n < 200; n++) {
      const id = ids[p.int(ids.length)]!;
      const content = `export const main = () => ${n}; // save ${n}\n`;
      latest.set(id, content);
      saves.push(queue.push(id, content).then((s) => ({ id, content, accepted: s.result })));
      // Saves come in bursts, as when someone types and saves: some overlap a push in flight, some do not.
      if (p.chance(0.3)) await new Promise((r) => setTimeout(r, p.int(40)));
    }
    const settled = await Promise.all(saves);
    // The extension's rule after a failed push: Retry pushes the file as it is then (its last save) until it is accepted.
    for (const id of ids) {
      const last = settled.filter((s) => s.id === id).at(-1);
      if (!last || last.accepted) continue;
      for (let tries = 0; !(await queue.push(id, latest.get(id)!)).result; tries++) assert.ok(tries < 25, `action ${id} was never accepted`);
    }
    for (const id of ids) {
      const stored = await box.request('GET', `/api/actions/${id}/implementation`, { key });
      assert.equal(stored.text, latest.get(id) ?? (assert.equal(stored.status, 404), stored.text), `action ${id} lost its last save`);
    }
    // How many pushes 200 saves make depends on how many coalesce, that is on how fast the server
    // answers (fewer on PostgreSQL under load): the faults are held to a share of the requests sent.
    const delta = (k: keyof typeof before) => proxy.stats[k] - before[k];
    const faults = FAULT_KINDS.reduce((sum, k) => sum + delta(k), 0);
    const requests = faults + delta('passed');
    assert.ok(faults >= 5 && faults >= requests * 0.15, `the saves met faults (${faults} of ${requests} requests)`);
  });

  it('creates under faults never make a duplicate: each key once on the server, with the id the client reported', async () => {
    const keys = Array.from({ length: 30 }, (_, i) => `create${i}`);
    const reported = new Map<string, string>();
    let recovered = 0;
    await Promise.all(
      keys.map(async (k) => {
        for (let tries = 0; ; tries++) {
          try {
            const created = await client.createAction('app-a', metadata({ key: k }) as unknown as ActionMetadata);
            if (created.recovered) recovered++;
            reported.set(k, created.id);
            return;
          } catch (error) {
            // The client gave up without knowing; the caller tries again, and the client finds what landed.
            assert.ok(error instanceof ApiError && error.kind !== 'conflict', `create ${k}: ${String(error)}`);
            assert.ok(tries < 20, `create ${k} never succeeded`);
          }
        }
      }),
    );
    const listed = (await direct<ActionListEntry[]>('GET', '/api/application/app-a/actions')).filter((e) => e.key.startsWith('create'));
    assert.equal(listed.length, keys.length);
    for (const entry of listed) assert.equal(reported.get(entry.key), entry.id, `the id reported for ${entry.key}`);
    assert.ok(recovered > 0, 'some creates were recovered from an ambiguous failure');
  });

  it("a caller's retry of a create the client could not settle resolves to the action that landed, not a conflict", async () => {
    // Every answer is lost after the sandbox acted on it (the create lands, the list is never read)
    // until the network heals; then the caller's retry meets its own create as a key conflict.
    let healed = false;
    const lossy = await startFaultProxy({ target: box.url, rate: 1, seed: SEED, kinds: ['reset-after'], spare: () => healed });
    try {
      const api = createClient({ baseUrl: lossy.url, getKey: () => Promise.resolve(key), timeoutMs: 5_000, retries: 0 });
      const sent = metadata({ key: 'settled' }) as unknown as ActionMetadata;
      await assert.rejects(api.createAction('app-a', sent), (error: unknown) => error instanceof ApiError && error.kind === 'network');
      healed = true;
      const retried = await api.createAction('app-a', sent);
      assert.equal(retried.recovered, true);
      const listed = (await direct<ActionListEntry[]>('GET', '/api/application/app-a/actions')).filter((e) => e.key === 'settled');
      assert.deepEqual(
        listed.map((e) => e.id),
        [retried.id],
      );
      // Other metadata under the same key is not the caller's create: a plain conflict.
      await assert.rejects(api.createAction('app-a', { ...sent, name: 'Other' }), (error: unknown) => error instanceof ApiError && error.kind === 'conflict');
    } finally {
      await lossy.close();
    }
  });

  it('metadata updates never leave a half-written action: every read is one whole version', async () => {
    const versions: Record<string, unknown>[] = Array.from({ length: 30 }, (_, v) =>
      metadata({
        key: 'meta',
        name: `Version ${v}`,
        description: `${'d'.repeat(v * 50)} v${v}`,
        parameters: Array.from({ length: (v % 5) + 1 }, (_, i) => ({ name: `p${i}v${v}`, type: i % 2 ? 'text' : 'number' })),
        result: v % 2 ? { type: 'number' } : { type: { type: 'object', properties: { [`total${v}`]: { type: 'number' } } } },
      }),
    );
    const created = await direct<ActionResource>('POST', '/api/application/app-a/actions', versions[0]);
    const seen: unknown[] = [];
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const { id: _id, eventsUrls: _u, hasImplementation: _h, updatedAt: _t, ...stored } = await direct<ActionResource>('GET', `/api/actions/${created.id}`);
        seen.push(stored);
      }
    })();
    for (const version of versions.slice(1)) await persist(() => client.updateAction(created.id, version as unknown as ActionMetadata));
    writing = false;
    await reader;
    assert.ok(seen.length > 10, `the reader saw ${seen.length} states`);
    for (const state of seen)
      assert.ok(
        versions.some((v) => JSON.stringify(v) === JSON.stringify(state)),
        `a state that is no version sent: ${JSON.stringify(state).slice(0, 300)}`,
      );
    const { id: _id, eventsUrls: _u, hasImplementation: _h, updatedAt: _t, ...last } = await direct<ActionResource>('GET', `/api/actions/${created.id}`);
    assert.equal(JSON.stringify(last), JSON.stringify(versions.at(-1)));
  });

  it('streams every event exactly once through the faulty proxy', async () => {
    const action = await direct<ActionResource>('POST', '/api/application/app-a/actions', metadata({ key: 'stream', parameters: [] }));
    await box.request('PUT', `/api/actions/${action.id}/implementation`, {
      key,
      body: "export function main() { console.log('ran'); return 1; }",
      type: 'application/typescript',
    });
    const printed: NormalizedEvent[] = [];
    const poller = new EventsPoller({
      eventsUrl: new URL(action.eventsUrls.Test, proxy.url).toString(),
      api: () => Promise.resolve(client),
      onEvents: (events) => printed.push(...events),
      schedule: { fastMs: 50, fastForMs: 120_000, quietAfterMs: 240_000, quietMs: 100, maxBackoffMs: 200 },
      longPollSeconds: 1,
      random: picker(SEED),
    });
    poller.start();
    try {
      await poller.whenReady();
      const ran: string[] = [];
      for (let i = 0; i < 40; i++) {
        ran.push((await direct<RunResponse>('POST', action.eventsUrls.Test.replace(/events$/, 'runs'), { inputs: [] })).event.id);
        if (i % 8 === 0) poller.poke();
      }
      await untilSoon(() => printed.length >= ran.length, `${ran.length} events (have ${printed.length})`, 60_000);
      // One run more, printed after the others: a duplicate printed late would have come before it (polls go one after another).
      const next = (await direct<RunResponse>('POST', action.eventsUrls.Test.replace(/events$/, 'runs'), { inputs: [] })).event.id;
      poller.poke();
      await untilSoon(() => printed.some((e) => e.id === next), 'the run after the others', 60_000);
      assert.deepEqual(printed.map((e) => e.id).sort(), [...ran, next].sort());
    } finally {
      await poller.stop();
    }
  });
});
