import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { postgresCluster } from './backend';
import { requester, type Requester, ROOT } from './support';

/**
 * `--rate-limit N` of a team's sandbox, several processes on one PostgreSQL database
 * (docs/team-sandbox.md): the allowance is the team's, not each process's. Each process is the CLI
 * in a process of its own, so nothing is shared but the database. PostgreSQL run only.
 */
const CLI = path.join(ROOT, 'src/sandbox/cli.ts');
const N = 20;

interface Proc {
  request: Requester;
  child: ChildProcess;
  exited: Promise<number | null>;
  applications: { id: string; key: string }[];
}

function startProcess(databaseUrl: string, extra: string[]): Promise<Proc> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', CLI, '--json', '--port', '0', '--rate-limit', String(N), ...extra], {
    cwd: ROOT,
    env: { ...process.env, CUSTOM_ACTIONS_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the sandbox exited with ${code}: ${stderr}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes('\n')) return;
      const { url, applications } = JSON.parse(stdout) as { url: string; applications: { id: string; key: string }[] };
      resolve({ request: requester(url), child, exited, applications });
    });
  });
}

describe('--rate-limit across several sandbox processes on one PostgreSQL database', function () {
  this.timeout(120_000);
  let processes: Proc[] = [];
  let team: string;
  let other: string;

  before(async function () {
    const cluster = postgresCluster();
    assert.ok(cluster, 'this suite runs in the PostgreSQL run only (npm run test:sandbox-pg)');
    const databaseUrl = await cluster.createDatabase();
    const first = await startProcess(databaseUrl, ['--ensure-app', 'team:Team', '--ensure-app', 'other:Other']);
    processes = [first, ...(await Promise.all([startProcess(databaseUrl, []), startProcess(databaseUrl, [])]))];
    team = first.applications.find((a) => a.id === 'team')!.key;
    other = first.applications.find((a) => a.id === 'other')!.key;
  });
  after(async () => {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
  });

  /** `count` requests spread over the three processes at once; the statuses and how long the burst took, in minutes. */
  async function burst(count: number, keyOf: (i: number) => string, application: string): Promise<{ statuses: number[]; minutes: number }> {
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: count }, (_, i) => processes[i % processes.length]!.request('GET', `/api/application/${application}/actions`, { key: keyOf(i) })),
    );
    for (const r of replies.filter((r) => r.status === 429)) assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
    return { statuses: replies.map((r) => r.status), minutes: (performance.now() - started) / 60_000 };
  }
  /** What a bucket of N a minute may have let through in that time: the burst and what refilled meanwhile. */
  const allowance = (minutes: number) => N + Math.ceil(minutes * N);

  it('a team within its allowance is served by every process', async () => {
    const { statuses } = await burst(N - 2, () => other, 'other');
    assert.deepEqual(
      statuses.filter((s) => s !== 200),
      [],
    );
  });

  it('three processes together serve a key at most N a minute, not 3 N', async () => {
    const { statuses, minutes } = await burst(3 * N, () => team, 'team');
    const served = statuses.filter((s) => s === 200).length;
    assert.ok(served >= N - 1, `only ${served} of the first ${N} were served`);
    assert.ok(served <= allowance(minutes), `${served} requests of one key were served, more than the ${N} a minute of --rate-limit ${N}`);
    assert.equal(served + statuses.filter((s) => s === 429).length, 3 * N, JSON.stringify(statuses));
  });

  it('guessed keys from one address are judged against one allowance, whichever process they reach', async () => {
    const { statuses, minutes } = await burst(3 * N, () => `ca_${randomBytes(16).toString('hex')}`, 'team');
    const judged = statuses.filter((s) => s === 401).length;
    assert.ok(judged <= allowance(minutes), `${judged} guessed keys were judged, more than the ${N} a minute of --rate-limit ${N}`);
    assert.equal(judged + statuses.filter((s) => s === 429).length, 3 * N, JSON.stringify(statuses));
  });
});
