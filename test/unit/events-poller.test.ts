import * as assert from 'node:assert/strict';
import { closeAllPools, createClient, type NormalizedEvent } from '../../src/core/client';
import { EventsPoller, type PollerOptions, type PollerStatus } from '../../src/core/events';
import { type Behaviour, EVENTS_PATH, EventsServer } from './events-server';
import { until } from '../support/eventually';

const FAST = { fastMs: 20, fastForMs: 60_000, quietAfterMs: 120_000, quietMs: 50, maxBackoffMs: 80 };

interface Harness {
  server: EventsServer;
  poller: EventsPoller;
  printed: NormalizedEvent[];
  statuses: PollerStatus[];
}

const running: Harness[] = [];

async function watch(behaviour: Behaviour, seed = 0, options: Partial<PollerOptions> = {}): Promise<Harness> {
  const server = new EventsServer(behaviour);
  const base = await server.start();
  for (let i = 0; i < seed; i++) server.add({});
  const client = createClient({ baseUrl: base, getKey: () => Promise.resolve('test-key'), retries: 0, timeoutMs: 10_000 });
  const printed: NormalizedEvent[] = [];
  const statuses: PollerStatus[] = [];
  const poller = new EventsPoller({
    eventsUrl: base + EVENTS_PATH,
    api: () => Promise.resolve(client),
    onEvents: (events) => printed.push(...events),
    onStatus: (status) => statuses.push(status),
    schedule: FAST,
    ...options,
  });
  const h = { server, poller, printed, statuses };
  running.push(h);
  poller.start();
  await poller.whenReady();
  return h;
}

/** Polled every 10 ms: the test server answers in milliseconds. */
const untilSoon = (check: () => boolean, what: string, timeoutMs = 10_000) => until(check, what, timeoutMs, 10);

/**
 * Adds one more event and waits until it is printed; returns what was printed before it. Polls go one
 * after another, so a repeat of what came earlier would have been printed by then.
 */
async function printedBeforeNext(h: Harness): Promise<NormalizedEvent[]> {
  const [next] = h.server.add({});
  await untilSoon(() => h.printed.some((e) => e.id === next?.id), 'the next event');
  return h.printed.filter((e) => e.id !== next?.id);
}

/**
 * Waits until another poller on the fast schedule, against a server of its own, has asked three more
 * times: a request the poller under test would still send by itself, it would have sent by then.
 */
async function threePollsLater(): Promise<void> {
  const witness = await watch({}, 0);
  const from = witness.server.listRequests;
  await untilSoon(() => witness.server.listRequests >= from + 3, 'three polls of a poller on the same schedule');
}

/** Lets the poller's loop reach its sleep: it does so in the turn of the event loop its last answer came in. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

function ids(events: readonly { id: string }[]): string[] {
  return events.map((e) => e.id);
}

describe('events poller against a misbehaving server', () => {
  afterEach(async () => {
    for (const h of running.splice(0)) {
      await h.poller.stop();
      await h.server.close();
    }
  });
  after(() => closeAllPools());

  it('takes what is there as the baseline and prints only what comes after, once, oldest first', async () => {
    const h = await watch({ shuffle: true }, 5);
    assert.deepEqual(h.statuses[0], { kind: 'watching', earlier: 5 });
    const added = h.server.add({}, {}, {});
    await untilSoon(() => h.printed.length >= 3, 'three events');
    const more = h.server.add({});
    await untilSoon(() => h.printed.length >= 4, 'the fourth');
    assert.deepEqual(ids(await printedBeforeNext(h)), ids(normalizedOf([...added, ...more])));
    assert.equal(h.printed[0]?.logs[0]?.message, `log of 6`);
  });

  it('reads newer pages until a seen id, across overlapping pages, without repeats', async () => {
    const h = await watch({ paging: true, overlap: 7 }, 30, { pageLimit: 40 });
    const added = h.server.add(...Array.from({ length: 250 }, () => ({})));
    await untilSoon(() => h.printed.length >= 250, '250 events');
    const printed = await printedBeforeNext(h);
    assert.equal(printed.length, 250);
    assert.deepEqual(
      ids(printed),
      added.map((e) => e.id),
    );
    assert.ok(
      h.server.log.some((r) => r.url.includes('cursor=')),
      'older pages were read',
    );
  });

  it('prints an event that arrives late (older start time) once', async () => {
    const h = await watch({ shuffle: true }, 3);
    const [recent] = h.server.add({});
    await untilSoon(() => h.printed.length === 1, 'the first new event');
    const [late] = h.server.add({ startTime: (recent?.data.timings.startTime ?? 0) - 5_000 });
    await untilSoon(() => h.printed.length === 2, 'the late event');
    assert.deepEqual(ids(await printedBeforeNext(h)), [recent?.id, late?.id]);
  });

  it('backs off on 500s and resumes without gaps or repeats', async () => {
    const h = await watch({ etag: true }, 2);
    h.server.failNext = 4;
    const during = h.server.add({}, {});
    await untilSoon(() => h.statuses.some((s) => s.kind === 'resumed'), 'the resume');
    const after = h.server.add({});
    await untilSoon(() => h.printed.length >= 3, 'three events');
    assert.deepEqual(ids(await printedBeforeNext(h)), ids(normalizedOf([...during, ...after])));
    const retries = h.statuses.filter((s): s is Extract<PollerStatus, { kind: 'retrying' }> => s.kind === 'retrying');
    assert.equal(retries.length, 4);
    assert.ok(
      retries.every((r, i) => i === 0 || r.delayMs >= FAST.fastMs),
      'never faster than the schedule',
    );
  });

  it('sends If-None-Match and takes 304 as no news', async () => {
    const h = await watch({ etag: true }, 2);
    await untilSoon(() => h.server.log.filter((r) => r.status === 304).length >= 3, 'three 304s');
    assert.ok(h.server.log.some((r) => r.ifNoneMatch === '"v1"' || r.ifNoneMatch?.startsWith('"v')));
    const [added] = h.server.add({});
    await untilSoon(() => h.printed.length === 1, 'the event after the 304s');
    assert.equal(h.printed[0]?.id, added?.id);
  });

  it('stops for good on a 401, with one status, and sends nothing more', async () => {
    const h = await watch({}, 1);
    h.server.refuseKey = true;
    await untilSoon(() => h.poller.stopped, 'the stop');
    const stops = h.statuses.filter((s) => s.kind === 'stopped');
    assert.equal(stops.length, 1);
    assert.equal(stops[0]?.kind === 'stopped' && stops[0].reason, 'auth');
    const count = h.server.log.length;
    await threePollsLater();
    assert.equal(h.server.log.length, count);
  });

  it('sends no request after stop()', async () => {
    const h = await watch({}, 1);
    await h.poller.stop();
    const count = h.server.log.length;
    await threePollsLater();
    assert.equal(h.server.log.length, count);
  });

  it('holds requests open where the server offers long poll, and delivers what arrives meanwhile', async () => {
    const h = await watch({ etag: true, longPoll: true }, 1, { schedule: { ...FAST, fastMs: 1, quietMs: 1 }, longPollSeconds: 1 });
    await untilSoon(() => h.server.log.some((r) => r.url.includes('wait=')), 'a long poll');
    const before = h.server.listRequests;
    await untilSoon(() => h.server.log.some((r) => r.url.includes('wait=') && r.status === 304), 'a long poll held to its end (1 s)');
    // Held requests: with a 1 ms interval, plain polling would have sent hundreds meanwhile.
    assert.ok(h.server.listRequests - before <= 2, `requests while held: ${h.server.listRequests - before}`);
    const [added] = h.server.add({});
    await untilSoon(() => h.printed.length === 1, 'the event');
    assert.equal(h.printed[0]?.id, added?.id);
  });

  it('keeps memory bounded with 100,000 events on a server without paging', async function () {
    this.timeout(60_000);
    const h = await watch({ etag: true }, 100_000, { seenCap: 5_000 });
    assert.ok(h.poller.remembered <= 5_500, `remembered ${h.poller.remembered}`);
    const added = h.server.add({}, {});
    await untilSoon(() => h.printed.length >= 2, 'two events');
    assert.deepEqual(
      ids(await printedBeforeNext(h)),
      added.map((e) => e.id),
    );
    assert.ok(h.poller.remembered <= 5_500);
  });

  it('reads only the newest page as the baseline on a paging server with 100,000 events', async function () {
    this.timeout(60_000);
    const h = await watch({ paging: true }, 100_000, { pageLimit: 50 });
    assert.equal(h.server.listRequests, 1);
    assert.equal(h.poller.recent(20).length, 20);
    const added = h.server.add({});
    await untilSoon(() => h.printed.length === 1, 'the event');
    assert.equal(h.printed[0]?.id, added[0]?.id);
  });

  it('speeds up on poke after a quiet spell', async () => {
    const h = await watch({}, 1, { schedule: { ...FAST, fastForMs: 0, quietAfterMs: 0, quietMs: 60_000 } });
    // Asleep for the quiet interval, so the poke has something to cut short.
    await turn();
    const before = h.server.listRequests;
    const [added] = h.server.add({});
    h.poller.poke();
    await untilSoon(() => h.printed.length === 1, 'the poked event', 5_000);
    assert.equal(h.printed[0]?.id, added?.id);
    assert.ok(h.server.listRequests > before);
  });

  it('asks once at a glance in a quiet spell, and no more often than the fast pace', async () => {
    // The poller's clock, moved by the test: a glance counts the fast interval since the last request on it.
    let clock = 1_700_000_000_000;
    const h = await watch({}, 1, { schedule: { ...FAST, fastMs: 200, fastForMs: 0, quietAfterMs: 0, quietMs: 60_000 }, now: () => clock });
    await turn();
    clock += 300;
    const before = h.server.listRequests;
    const [added] = h.server.add({});
    h.poller.glance();
    await untilSoon(() => h.printed.length === 1, 'the event seen at a glance', 5_000);
    assert.equal(h.printed[0]?.id, added?.id);
    assert.equal(h.server.listRequests, before + 1);
    // Glances right after a request send nothing; the pace stays quiet.
    await turn();
    for (let i = 0; i < 5; i++) h.poller.glance();
    await threePollsLater();
    assert.equal(h.server.listRequests, before + 1);
  });
});

function normalizedOf(raw: { id: string; data: { timings: { startTime: number } } }[]): { id: string }[] {
  return [...raw].sort((a, b) => a.data.timings.startTime - b.data.timings.startTime).map((e) => ({ id: e.id }));
}
