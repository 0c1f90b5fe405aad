/**
 * The watcher against events no one should trust: one that cannot be read must not hold back the
 * others, a server that points elsewhere ends the watch, and failures that are not the server's
 * answers back off like any other.
 */
import assert from 'node:assert/strict';
import { closeAllPools, createClient, EVENT_LIMITS, type EventsPage, NO_CAPABILITIES, type NormalizedEvent } from '../../src/core/client';
import { type EventsApi, EventsPoller, formatEvent, type PollerOptions, type PollerStatus } from '../../src/core/events';
import { eventually } from '../support/eventually';
import {
  deepEvent,
  EVENTS_OF,
  goodEvent,
  type HostileServer,
  type Listener,
  oversizedEvent,
  startForeignListener,
  startHostileServer,
} from '../support/hostileServer';

const FAST = { fastMs: 20, fastForMs: 60_000, quietAfterMs: 120_000, quietMs: 50, maxBackoffMs: 80 };

interface Watch {
  poller: EventsPoller;
  printed: NormalizedEvent[];
  statuses: PollerStatus[];
}

describe('events watcher against a hostile server', () => {
  let foreign: Listener;
  let server: HostileServer;
  const pollers: EventsPoller[] = [];

  beforeEach(async () => {
    foreign = await startForeignListener();
    server = await startHostileServer(foreign.url);
  });

  afterEach(async () => {
    for (const p of pollers.splice(0)) await p.stop();
    await closeAllPools();
    await server.close();
    await foreign.close();
  });

  function watch(eventsUrl: string, options: Partial<PollerOptions> = {}): Watch {
    const client = createClient({ baseUrl: server.url, getKey: () => Promise.resolve('hostile-test-key'), retries: 0, timeoutMs: 10_000 });
    const printed: NormalizedEvent[] = [];
    const statuses: PollerStatus[] = [];
    const poller = new EventsPoller({
      eventsUrl,
      api: () => Promise.resolve(client),
      onEvents: (events) => printed.push(...events),
      onStatus: (status) => statuses.push(status),
      schedule: FAST,
      ...options,
    });
    pollers.push(poller);
    poller.start();
    return { poller, printed, statuses };
  }

  async function streamsPast(hostile: string, why: RegExp): Promise<NormalizedEvent> {
    server.events.push(goodEvent('before', 1));
    const w = watch(EVENTS_OF('list'));
    await w.poller.whenReady();
    server.events.push(goodEvent('good-1', 2), hostile, goodEvent('good-2', 4));
    await eventually(() => (w.printed.length >= 3 ? true : undefined), 'the events around the hostile one', 10_000);
    assert.deepEqual(
      w.printed.filter((e) => !e.unreadable).map((e) => e.id),
      ['good-1', 'good-2'],
    );
    const odd = w.printed.find((e) => e.unreadable);
    assert.ok(odd, 'the hostile event is listed as unreadable');
    assert.match(odd.unreadable ?? '', why);
    assert.deepEqual(
      w.statuses.map((s) => s.kind),
      ['watching'],
      'no failure, no retry',
    );
    assert.match(formatEvent(odd, { environment: 'Test', actionKey: 'add' }).join('\n'), /unreadable event/);
    return odd;
  }

  it('an event without an id and 100,000 levels of data is an unreadable entry, and the events beside it stream', async () => {
    const odd = await streamsPast(deepEvent(100_000, 3), /nested deeper than/);
    assert.equal(odd.startTime, 1_700_000_000_030, 'what is safely known is kept');
  });

  it('an oversized event is an unreadable entry, and the events beside it stream', async function () {
    this.timeout(30_000);
    await streamsPast(oversizedEvent('huge', EVENT_LIMITS.chars + 1, 3), /larger than/);
  });

  it('entries that are not events (null, text, numbers, lists) are unreadable entries; the rest stream', async () => {
    server.events.push(goodEvent('before', 1));
    const w = watch(EVENTS_OF('list'));
    await w.poller.whenReady();
    server.events.push(goodEvent('good-1', 2), 'null', '"just text"', '42', '[1,2]', goodEvent('good-2', 4));
    await eventually(() => (w.printed.length >= 6 ? true : undefined), 'six entries');
    assert.deepEqual(
      w.printed.filter((e) => !e.unreadable).map((e) => e.id),
      ['good-1', 'good-2'],
    );
    assert.equal(w.printed.filter((e) => e.unreadable === 'not a JSON object').length, 4);
  });

  it('a page that is not JSON is reported and retried with backoff; the watch picks up once it is whole', async () => {
    server.events.push(goodEvent('before', 1));
    const w = watch(EVENTS_OF('list'));
    await w.poller.whenReady();
    server.eventsBody = `[${goodEvent('good-1', 2)}, {"id": "cut`;
    await eventually(() => (w.statuses.filter((s) => s.kind === 'retrying').length >= 3 ? true : undefined), 'three retries');
    const retries = w.statuses.filter((s): s is Extract<PollerStatus, { kind: 'retrying' }> => s.kind === 'retrying');
    assert.match(String(retries[0]?.error), /not JSON/);
    assert.ok(retries.every((r, i) => i === 0 || r.delayMs >= FAST.fastMs / 2));
    server.eventsBody = undefined;
    server.events.push(goodEvent('good-1', 2));
    await eventually(() => (w.printed.length >= 1 ? true : undefined), 'the event after the fix');
    assert.deepEqual(
      w.printed.map((e) => e.id),
      ['good-1'],
    );
  });

  for (const [label, url] of [
    ['an events URL on another origin', () => foreign.url + EVENTS_OF('test')],
    ['a next-page link to another origin', () => EVENTS_OF('next-elsewhere')],
  ] as const) {
    it(`${label} stops the watch with one status, and nothing reaches the other origin`, async () => {
      const w = watch(url(), { pageLimit: 10 });
      await eventually(() => (w.poller.stopped ? true : undefined), 'the stop');
      const stops = w.statuses.filter((s) => s.kind === 'stopped');
      assert.equal(stops.length, 1);
      assert.equal(stops[0]?.kind === 'stopped' && stops[0].reason, 'foreign-origin');
      assert.deepEqual(foreign.requests, []);
    });
  }
});

describe('events poller: failures that are not the server’s answers', () => {
  const pollers: EventsPoller[] = [];
  afterEach(async () => {
    for (const p of pollers.splice(0)) await p.stop();
  });

  /** An API whose every read throws what no server sends: a bug, or a runtime limit. */
  function broken(): EventsApi & { calls: number[] } {
    const calls: number[] = [];
    return {
      calls,
      capabilities: () => Promise.resolve(NO_CAPABILITIES),
      listEvents: (): Promise<EventsPage> => {
        calls.push(Date.now());
        return Promise.reject(new RangeError('Maximum call stack size exceeded'));
      },
    };
  }

  function start(api: EventsApi, schedule: Partial<PollerOptions['schedule']>) {
    const statuses: PollerStatus[] = [];
    const poller = new EventsPoller({
      eventsUrl: '/events',
      api: () => Promise.resolve(api),
      onEvents: () => undefined,
      onStatus: (s) => statuses.push(s),
      schedule,
      random: () => 1,
    });
    pollers.push(poller);
    poller.start();
    return { poller, statuses };
  }

  it('back off exponentially up to the cap, reported as retrying, never in a tight loop', async () => {
    const api = broken();
    const { statuses } = start(api, FAST);
    await eventually(() => (api.calls.length >= 7 ? true : undefined), 'seven tries');
    const retries = statuses.filter((s): s is Extract<PollerStatus, { kind: 'retrying' }> => s.kind === 'retrying');
    assert.deepEqual(
      retries.slice(0, 6).map((r) => r.delayMs),
      [20, 40, 80, 80, 80, 80],
    );
    assert.deepEqual(
      retries.slice(0, 6).map((r) => r.failures),
      [1, 2, 3, 4, 5, 6],
    );
    assert.ok(retries.every((r) => r.error instanceof RangeError));
    for (let i = 1; i < 7; i++) {
      const gap = (api.calls[i] ?? 0) - (api.calls[i - 1] ?? 0);
      assert.ok(gap >= (retries[i - 1]?.delayMs ?? 0) - 1, `try ${i + 1} came ${gap} ms after the one before`);
    }
  });

  it('a glance (the window got the focus back) does not cut a backoff short', async () => {
    const api = broken();
    const schedule = { ...FAST, fastMs: 50, maxBackoffMs: 60_000 };
    const { poller, statuses } = start(api, schedule);
    // The fourth failure waits 400 ms; a glance 60 ms into it must not send the fifth try early.
    await eventually(() => (api.calls.length >= 4 ? true : undefined), 'four tries');
    const fourth = api.calls[3] ?? 0;
    await eventually(() => (Date.now() - fourth >= 60 ? true : undefined), '60 ms into the backoff');
    poller.glance();
    await eventually(() => (api.calls.length >= 5 ? true : undefined), 'the fifth try');
    const last = statuses.filter((s) => s.kind === 'retrying').at(3);
    assert.equal(last?.kind === 'retrying' && last.delayMs, 400);
    assert.ok((api.calls[4] ?? 0) - fourth >= 399, `the fifth try came ${(api.calls[4] ?? 0) - fourth} ms after the fourth`);
  });
});
