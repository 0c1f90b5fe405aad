/**
 * The events watcher (src/core/events) through the real REST client, at default settings, against a
 * server with only the spec's plain GET: its idle cost and the lag from an event being recorded to
 * the watcher reporting it, both after a minute of quiet and while things happen.
 *
 * A minute of quiet is not waited for: the pollers' clock runs 61 s ahead from the start, which is
 * what the schedule reads to decide the pace. Timers, requests and the server stay real.
 */
import { closeAllPools, createClient, setDefaultTransport } from '../../src/core/client';
import { createNodeTransport } from '../../src/core/client/nodeTransport';

setDefaultTransport(createNodeTransport());
import { EventsPoller } from '../../src/core/events';
import { EVENTS_PATH, EventsServer } from '../../test/unit/events-server';
import { emit, median, percentile, runBench, sleep } from '../lib';

const BENCH = 'events';
const WINDOW_MS = 30_500;
const QUIET = 12;
const ACTIVE = 4;

interface Watched {
  server: EventsServer;
  poller: EventsPoller;
  /** When each event was recorded, by id. */
  recorded: Map<string, number>;
  lags: number[];
}

async function watched(aheadMs: number): Promise<Watched> {
  const server = new EventsServer({});
  const base = await server.start();
  server.add({});
  const client = createClient({ baseUrl: base, getKey: () => Promise.resolve('bench-key') });
  const recorded = new Map<string, number>();
  const lags: number[] = [];
  const clock = { ahead: 0 };
  const poller = new EventsPoller({
    eventsUrl: base + EVENTS_PATH,
    api: () => Promise.resolve(client),
    onEvents: (events) => {
      const now = performance.now();
      for (const e of events) {
        const at = recorded.get(e.id);
        if (at !== undefined) lags.push(now - at);
      }
    },
    now: () => Date.now() + clock.ahead,
  });
  // Set after construction: the poller takes its creation as the last activity.
  clock.ahead = aheadMs;
  return { server, poller, recorded, lags };
}

function record(w: Watched): void {
  const [event] = w.server.add({ startTime: Date.now() });
  w.recorded.set(event!.id, performance.now());
}

async function main(): Promise<void> {
  const quiet = await Promise.all(Array.from({ length: QUIET }, () => watched(61_000)));
  const active = await Promise.all(Array.from({ length: ACTIVE }, () => watched(0)));
  const all = [...quiet, ...active];
  for (const w of all) w.poller.start();
  await Promise.all(all.map((w) => w.poller.whenReady()));
  const baseline = quiet.map((w) => w.server.listRequests);

  // Half the quiet environments get one event at a random moment; the other half stay idle and are counted.
  const idle = quiet.slice(0, QUIET / 2);
  const struck = quiet.slice(QUIET / 2);
  const timers = struck.map((w) => setTimeout(() => record(w), 1_000 + Math.random() * (WINDOW_MS - 12_000)));
  // The active ones get an event every 1–4 s, as when someone runs an action over and over.
  let running = true;
  const drive = active.map(async (w) => {
    while (running) {
      await sleep(1_000 + Math.random() * 3_000);
      if (running) record(w);
    }
  });
  await sleep(WINDOW_MS);
  running = false;
  await Promise.all(drive);
  timers.forEach(clearTimeout);

  const perMinute = idle.map((w, i) => ((w.server.listRequests - baseline[i]!) * 60_000) / WINDOW_MS);
  emit({
    bench: BENCH,
    metric: 'idle_requests_per_minute',
    value: Math.max(...perMinute),
    target: 6,
    unit: 'req/min',
    note: 'per watched environment after a minute of quiet',
  });
  const quietLags = struck.flatMap((w) => w.lags);
  const activeLags = active.flatMap((w) => w.lags);
  emit({
    bench: BENCH,
    metric: 'lag_after_quiet_ms_median',
    value: median(quietLags),
    target: 1200,
    unit: 'ms',
    note: `${quietLags.length} events, plain GET`,
  });
  emit({
    bench: BENCH,
    metric: 'lag_active_ms_median',
    value: median(activeLags),
    target: 1200,
    unit: 'ms',
    note: `${activeLags.length} events, p90 ${Math.round(percentile(activeLags, 90))} ms`,
  });
  await Promise.all(all.map((w) => w.poller.stop()));
  await Promise.all(all.map((w) => w.server.close()));
  await closeAllPools();
  if (quietLags.length < struck.length || activeLags.length === 0) throw new Error('some events were never reported');
}

runBench('events', main);
