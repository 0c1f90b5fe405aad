/**
 * An environment with 100,000 events in the sandbox: what fetching and rendering its newest page costs,
 * and how much memory a watcher of it holds. Run with --expose-gc so the heap is measured settled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { closeAllPools, createClient, setDefaultTransport } from '../../src/core/client';
import { createNodeTransport } from '../../src/core/client/nodeTransport';

setDefaultTransport(createNodeTransport());
import { EventsPoller, fetchNewest, formatEvent } from '../../src/core/events';
import { startSandbox } from '../../src/sandbox';
import { loadTemplate } from '../../src/sandbox/store/database';
import { emit, median, runBench, sleep } from '../lib';
import { addEvents } from './fill';

const BENCH = 'history';
const EVENTS = 100_000;
/** What the Test and Live nodes show by default (customActions.tree.recentEvents). */
const PAGE = 20;

const metadata = {
  key: 'busy',
  name: 'Busy',
  description: '',
  developerEmail: 'dev@example.com',
  parameters: [{ name: 'n', type: 'number', description: '' }],
  result: { type: 'number', description: '' },
};
const CODE = 'export function main(n: number): number {\n  console.log("got", n);\n  return n + 1;\n}\n';

async function call(url: string, key: string, method: 'GET' | 'POST' | 'PUT', body?: string, type = 'application/json') {
  const started = performance.now();
  const answer = await request(url, {
    method,
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body ? { 'content-type': type } : {}) },
    body,
  });
  const text = await answer.body.text();
  if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, text };
}

function heapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function main(): Promise<void> {
  await loadTemplate();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'custom-actions-bench-'));
  const apps = [{ id: 'bench', name: 'Bench' }];
  try {
    let sandbox = await startSandbox({ dataDir, applications: apps, log: () => undefined });
    let key = sandbox.applications[0]!.key;
    const created = await call(`${sandbox.url}/api/application/bench/actions`, key, 'POST', JSON.stringify(metadata));
    const { id, eventsUrls } = JSON.parse(created.text) as { id: string; eventsUrls: { Test: string } };
    await call(`${sandbox.url}/api/actions/${id}/implementation`, key, 'PUT', CODE, 'application/typescript');
    const runs = `${eventsUrls.Test.replace(/\/events$/, '')}/runs`;
    await call(sandbox.url + runs, key, 'POST', JSON.stringify({ inputs: [1] }));
    await sandbox.close();
    const environmentId = /environments\/([^/]+)\/events$/.exec(eventsUrls.Test)![1]!;
    await addEvents(dataDir, id, environmentId, EVENTS);

    sandbox = await startSandbox({ dataDir, applications: apps, log: () => undefined });
    key = sandbox.applications[0]!.key;
    try {
      const pageUrl = `${sandbox.url}${eventsUrls.Test}?limit=${PAGE}`;
      const times: number[] = [];
      for (let i = 0; i < 25; i++) {
        const { ms, text } = await call(pageUrl, key, 'GET');
        if ((JSON.parse(text) as unknown[]).length !== PAGE) throw new Error('short page');
        if (i >= 5) times.push(ms);
      }
      emit({
        bench: BENCH,
        metric: 'newest_page_ms_median',
        value: median(times),
        target: 20,
        unit: 'ms',
        note: `loopback round trip (an upper bound of the server's time), ${EVENTS} events, limit ${PAGE}`,
      });

      // The tree's Test node: one request through the extension's client, then the lines the channel would show.
      const client = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key) });
      const renders: number[] = [];
      for (let i = 0; i < 15; i++) {
        const started = performance.now();
        const newest = await fetchNewest(client, sandbox.url + eventsUrls.Test, PAGE);
        const lines = newest.flatMap((e) => formatEvent(e, { environment: 'Test', actionKey: 'busy' }));
        if (lines.length < PAGE) throw new Error('nothing rendered');
        if (i >= 5) renders.push(performance.now() - started);
      }
      emit({ bench: BENCH, metric: 'fetch_and_render_newest_ms_median', value: median(renders), unit: 'ms', note: 'client request, normalize, format' });

      const before = heapMb();
      const poller = new EventsPoller({ eventsUrl: sandbox.url + eventsUrls.Test, api: () => Promise.resolve(client), onEvents: () => undefined });
      poller.start();
      await poller.whenReady();
      // Some runs while watched, so the watcher holds what it saw beyond the baseline.
      for (let i = 0; i < 100; i++) await call(sandbox.url + runs, key, 'POST', JSON.stringify({ inputs: [i] }));
      poller.poke();
      await sleep(2_500);
      const during = heapMb();
      emit({
        bench: BENCH,
        metric: 'watcher_heap_mb',
        value: during - before,
        target: 50,
        unit: 'MB',
        note: `heap growth with one watcher on ${EVENTS} events, ${poller.requests} requests, ${poller.remembered} ids remembered`,
      });
      await poller.stop();
      await closeAllPools();
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench('history', main);
