/**
 * The local sandbox, measured in plain Node over loopback: listing 5,000 actions, what a warm run
 * costs beyond `main`'s own time, the first run of a freshly started sandbox, and the first run of
 * another application (runner processes are bound to one application; its first run takes the spare).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startSandbox } from '../../src/sandbox';
import { loadTemplate } from '../../src/sandbox/store/database';
import { emit, median, runBench } from '../lib';
import { addActions } from './fill';

const BENCH = 'sandbox';
const ACTIONS = 5_000;

interface Reply {
  status: number;
  ms: number;
  body: string;
}

async function call(base: string, key: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, type = 'application/json'): Promise<Reply> {
  const started = performance.now();
  const answer = await request(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': type }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await answer.body.text();
  return { status: answer.statusCode, ms: performance.now() - started, body: text };
}

function expect(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return reply;
}

const metadata = (key: string) => ({
  key,
  name: `Action ${key}`,
  description: 'Adds one.',
  developerEmail: 'dev@example.com',
  parameters: [{ name: 'n', type: 'number', description: 'A number' }],
  result: { type: 'number', description: 'n + 1' },
});

async function main(): Promise<void> {
  // A new Postgres cluster takes seconds once per machine; that is setup, not the sandbox's speed.
  await loadTemplate();

  // Cold: a sandbox started just now, its first run.
  const coldStart = performance.now();
  const sandbox = await startSandbox({ applications: [{ id: 'bench', name: 'Bench' }], log: () => undefined });
  const startMs = performance.now() - coldStart;
  try {
    const base = sandbox.url;
    const key = sandbox.applications[0]!.key;
    const created = expect(await call(base, key, 'POST', '/api/application/bench/actions', metadata('first')), 201, 'create');
    const { id, eventsUrls } = JSON.parse(created.body) as { id: string; eventsUrls: Record<string, string> };
    expect(
      await call(
        base,
        key,
        'PUT',
        `/api/actions/${id}/implementation`,
        'export function main(n: number): number {\n  return n + 1;\n}\n',
        'application/typescript',
      ),
      204,
      'put code',
    );
    const runs = `${eventsUrls.Test!.replace(/\/events$/, '')}/runs`;
    const cold = expect(await call(base, key, 'POST', runs, { inputs: [1] }), 200, 'first run');
    emit({ bench: BENCH, metric: 'cold_first_run_ms', value: cold.ms, target: 300, unit: 'ms' });
    emit({ bench: BENCH, metric: 'start_ms', value: startMs, unit: 'ms', note: 'startSandbox() to listening, template cached' });

    // Warm: the round trip of a run minus the duration the event reports for main itself.
    const overheads: number[] = [];
    const totals: number[] = [];
    for (let i = 0; i < 40; i++) {
      const reply = expect(await call(base, key, 'POST', runs, { inputs: [i] }), 200, 'run');
      const { event } = JSON.parse(reply.body) as { event: { data: { timings: { duration: number } } } };
      if (i < 5) continue;
      totals.push(reply.ms);
      overheads.push(reply.ms - event.data.timings.duration);
    }
    emit({ bench: BENCH, metric: 'warm_run_overhead_ms_median', value: median(overheads), target: 20, unit: 'ms' });
    emit({ bench: BENCH, metric: 'warm_run_ms_median', value: median(totals), unit: 'ms' });

    // Another application's first run: no process of the first may serve it; the spare does.
    const other = await sandbox.createApplication('bench-other', 'Other');
    const otherCreated = expect(await call(base, other.key, 'POST', '/api/application/bench-other/actions', metadata('other')), 201, 'create other');
    const otherAction = JSON.parse(otherCreated.body) as { id: string; eventsUrls: Record<string, string> };
    expect(
      await call(
        base,
        other.key,
        'PUT',
        `/api/actions/${otherAction.id}/implementation`,
        'export function main(n: number): number {\n  return n + 1;\n}\n',
        'application/typescript',
      ),
      204,
      'put other code',
    );
    const otherRun = expect(
      await call(base, other.key, 'POST', `${otherAction.eventsUrls.Test!.replace(/\/events$/, '')}/runs`, { inputs: [1] }),
      200,
      'other run',
    );
    emit({ bench: BENCH, metric: 'other_application_first_run_ms', value: otherRun.ms, unit: 'ms', note: 'served by the spare runner process' });
  } finally {
    await sandbox.close();
  }
  await listMany();
}

/** The list of an application with 5,000 actions, filled straight into a data directory. */
async function listMany(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'custom-actions-bench-'));
  try {
    const first = await startSandbox({ dataDir, applications: [{ id: 'bench', name: 'Bench' }], log: () => undefined });
    await first.close();
    await addActions(dataDir, 'bench', ACTIONS, metadata);
    const sandbox = await startSandbox({ dataDir, applications: [{ id: 'bench', name: 'Bench' }], log: () => undefined });
    try {
      const key = sandbox.applications[0]!.key;
      const lists: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 12; i++) {
        const reply = expect(await call(sandbox.url, key, 'GET', '/api/application/bench/actions'), 200, 'list');
        const count = (JSON.parse(reply.body) as unknown[]).length;
        if (count !== ACTIONS) throw new Error(`listed ${count} actions, expected ${ACTIONS}`);
        bytes = Buffer.byteLength(reply.body);
        if (i >= 2) lists.push(reply.ms);
      }
      emit({ bench: BENCH, metric: 'list_5000_actions_ms_median', value: median(lists), target: 50, unit: 'ms', note: `${Math.round(bytes / 1024)} KiB` });
    } finally {
      await sandbox.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench('sandbox', main);
