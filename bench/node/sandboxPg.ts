/**
 * The sandbox on a PostgreSQL server (docs/team-sandbox.md), measured over loopback: throughput and
 * p50/p99 latency of one mixed load (list the actions, read a page of events, push code, run) on one
 * PGlite process, one Postgres-backed process, and two Postgres-backed processes behind a small
 * round-robin proxy; and the lag of a long poll held on one process for an event another records.
 * The proxy stands in front of all three, so they differ only in what is behind it. The server is a
 * temporary cluster (test/support/postgresCluster.ts), fsync off: the figures are the sandbox's, not
 * a disk's. Every loop is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import path from 'node:path';
import { request } from 'undici';
import { startPostgresCluster } from '../../test/support/postgresCluster';
import { emit, inParallel, median, note, percentile, runBench } from '../lib';

const BENCH = 'sandbox-pg';
const ROOT = path.join(__dirname, '..', '..');
const OPERATIONS = 1_200;
const CLIENTS = 16;
const ACTIONS = 20;
const LAG_SAMPLES = 20;

interface Proc {
  url: string;
  key: string;
  child: ChildProcess;
}

/** The built sandbox (scripts/sandbox.mjs builds it when stale), as a team runs it. */
function startProcess(databaseUrl: string | undefined, ensure: boolean): Promise<Proc> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'sandbox.mjs'), '--json', ...(ensure ? ['--ensure-app', 'bench:Bench'] : [])], {
    cwd: ROOT,
    env: { ...process.env, ...(databaseUrl ? { CUSTOM_ACTIONS_DATABASE_URL: databaseUrl } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes('\n')) return;
      const ready = JSON.parse(stdout) as { url: string; applications: { key: string }[] };
      resolve({ url: ready.url, key: ready.applications[0]?.key ?? '', child });
    });
  });
}

async function stopProcess(p: Proc): Promise<void> {
  if (p.child.exitCode !== null) return;
  const exited = new Promise((resolve) => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await exited;
}

/** Round-robin over `backends`, a request at a time, connections kept alive on both sides. */
function roundRobin(backends: string[]): Promise<{ url: string; server: Server }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server = createServer((req, res) => {
    const target = new URL(backends[next++ % backends.length]!);
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })),
  );
}

async function call(base: string, key: string, method: string, path: string, body?: string, type = 'application/json', headers: Record<string, string> = {}) {
  const answer = await request(base + path, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': type }), ...headers },
    body,
  });
  const text = await answer.body.text();
  if (answer.statusCode >= 400) throw new Error(`${method} ${path}: ${answer.statusCode} ${text.slice(0, 200)}`);
  return { status: answer.statusCode, headers: answer.headers, text };
}

const code = (n: number) => `export function main(a: number, b: number): number {\n  return a + b + ${n};\n}\n`;
const metadata = (key: string) =>
  JSON.stringify({
    key,
    name: `Action ${key}`,
    description: 'Adds.',
    developerEmail: 'dev@example.com',
    parameters: [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'number' },
    ],
    result: { type: 'number' },
  });

async function prepare(base: string, key: string, prefix: string, count = ACTIONS): Promise<{ id: string; events: string; runs: string }[]> {
  return inParallel(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const created = JSON.parse((await call(base, key, 'POST', '/api/application/bench/actions', metadata(`${prefix}${i}`))).text) as {
        id: string;
        eventsUrls: { Test: string };
      };
      await call(base, key, 'PUT', `/api/actions/${created.id}/implementation`, code(0), 'application/typescript');
      await call(base, key, 'POST', created.eventsUrls.Test.replace(/events$/, 'runs'), JSON.stringify({ inputs: [1, 2] }));
      return { id: created.id, events: created.eventsUrls.Test, runs: created.eventsUrls.Test.replace(/events$/, 'runs') };
    },
  );
}

/** OPERATIONS requests from CLIENTS clients at once, in a fixed mix: 4 lists, 3 event pages, 2 code pushes, 1 run in every 10. */
async function mixedLoad(label: string, base: string, key: string): Promise<void> {
  const actions = await prepare(base, key, 'mix');
  const latencies: number[] = [];
  const started = performance.now();
  await inParallel(
    Array.from({ length: OPERATIONS }, (_, i) => i),
    CLIENTS,
    async (i) => {
      const action = actions[i % ACTIONS]!;
      const kind = i % 10;
      const t0 = performance.now();
      if (kind < 4) await call(base, key, 'GET', '/api/application/bench/actions');
      else if (kind < 7) await call(base, key, 'GET', `${action.events}?limit=20`);
      else if (kind < 9) await call(base, key, 'PUT', `/api/actions/${action.id}/implementation`, code(i), 'application/typescript');
      else await call(base, key, 'POST', action.runs, JSON.stringify({ inputs: [i, 1] }));
      latencies.push(performance.now() - t0);
    },
  );
  const seconds = (performance.now() - started) / 1000;
  emit({ bench: BENCH, metric: `${label}_throughput`, value: OPERATIONS / seconds, unit: 'req/s', note: `${OPERATIONS} mixed requests, ${CLIENTS} clients` });
  emit({ bench: BENCH, metric: `${label}_p50_ms`, value: median(latencies), unit: 'ms' });
  emit({ bench: BENCH, metric: `${label}_p99_ms`, value: percentile(latencies, 99), unit: 'ms' });
}

async function eventLag(a: Proc, b: Proc): Promise<void> {
  const [action] = await prepare(a.url, a.key, 'lag', 1);
  const lags: number[] = [];
  for (let i = 0; i < LAG_SAMPLES; i++) {
    const etag = (await call(a.url, a.key, 'GET', action!.events)).headers.etag as string;
    const poll = call(a.url, a.key, 'GET', `${action!.events}?wait=10`, undefined, 'application/json', { 'if-none-match': etag }).then(() => performance.now());
    // The poll is held on A before B records (were it not, it would answer at once and look faster).
    await new Promise((resolve) => setTimeout(resolve, 50));
    await call(b.url, b.key, 'POST', action!.runs, JSON.stringify({ inputs: [i, 1] }));
    const recorded = performance.now();
    lags.push((await poll) - recorded);
  }
  emit({
    bench: BENCH,
    metric: 'cross_process_event_lag_p50_ms',
    value: median(lags),
    target: 100,
    unit: 'ms',
    note: `long poll on A, run on B; from B's answer (after its commit) to A's`,
  });
  emit({ bench: BENCH, metric: 'cross_process_event_lag_max_ms', value: Math.max(...lags), target: 100, unit: 'ms', note: `${LAG_SAMPLES} events` });
}

async function main(): Promise<void> {
  const cluster = await startPostgresCluster((m) => note(m));
  const procs: Proc[] = [];
  const proxies: Server[] = [];
  try {
    const viaProxy = async (label: string, backends: Proc[]) => {
      const proxy = await roundRobin(backends.map((p) => p.url));
      proxies.push(proxy.server);
      await mixedLoad(label, proxy.url, backends[0]!.key);
    };
    const pglite = await startProcess(undefined, true);
    procs.push(pglite);
    await viaProxy('pglite_1_process', [pglite]);
    await stopProcess(pglite);

    const single = await startProcess(await cluster.createDatabase(), true);
    procs.push(single);
    await viaProxy('postgres_1_process', [single]);
    await stopProcess(single);

    const shared = await cluster.createDatabase();
    const a = await startProcess(shared, true);
    const b = { ...(await startProcess(shared, false)), key: a.key };
    procs.push(a, b);
    await viaProxy('postgres_2_processes', [a, b]);
    await eventLag(a, b);
  } finally {
    for (const server of proxies) server.close();
    await Promise.all(procs.map(stopProcess));
    await cluster.stop();
  }
}

runBench(BENCH, main);
