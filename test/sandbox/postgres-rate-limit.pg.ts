import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { postgresCluster } from './backend';
import { type SandboxProcess, startSandboxProcess, stopSandboxProcess } from './sandboxProcess';

/**
 * `--rate-limit N` of a team's sandbox, several processes on one PostgreSQL database
 * (docs/team-sandbox.md): the allowance is the team's, not each process's. Each process is the CLI
 * in a process of its own, so nothing is shared but the database. PostgreSQL run only.
 */
const N = 20;

describe('--rate-limit across several sandbox processes on one PostgreSQL database', function () {
  this.timeout(120_000);
  let processes: SandboxProcess[] = [];
  let team: string;
  let other: string;

  before(async function () {
    const cluster = postgresCluster();
    assert.ok(cluster, 'this suite runs in the PostgreSQL run only (npm run test:sandbox-pg)');
    const databaseUrl = await cluster.createDatabase();
    const startProcess = (args: string[]) => startSandboxProcess(databaseUrl, ['--rate-limit', String(N), ...args]);
    const first = await startProcess(['--ensure-app', 'team:Team', '--ensure-app', 'other:Other']);
    processes = [first, ...(await Promise.all([startProcess([]), startProcess([])]))];
    team = first.applications.find((a) => a.id === 'team')!.key;
    other = first.applications.find((a) => a.id === 'other')!.key;
  });
  after(async () => {
    await Promise.all(processes.map(stopSandboxProcess));
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
