import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { LISTENER_NAME } from '../../src/sandbox/store/postgres';
import { eventually } from '../support/eventually';
import { postgresCluster } from './backend';
import { nodeChildren } from './runnerProcesses';
import { type SandboxProcess, SANDBOX_CLI, startSandboxProcess, stopSandboxProcess } from './sandboxProcess';
import { metadata, ROOT } from './support';

/**
 * Several sandbox processes on one PostgreSQL database, as a team runs them behind a load balancer
 * (docs/team-sandbox.md): each process is the CLI in a process of its own, so nothing is shared
 * but the database. Runs only in the PostgreSQL run of the suites (npm run test:sandbox-pg).
 */
function admin(databaseUrl: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', SANDBOX_CLI, 'admin', ...args, '--database-url', databaseUrl], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('Several sandbox processes on one PostgreSQL database', function () {
  this.timeout(120_000);
  let databaseUrl: string;
  let a: SandboxProcess;
  let b: SandboxProcess;
  let key: string;
  /** The test's own connection, to see what the sandboxes' connections do (pg_stat_activity). */
  let observer: pg.Client;

  before(async function () {
    const cluster = postgresCluster();
    assert.ok(cluster, 'this suite runs in the PostgreSQL run only (npm run test:sandbox-pg)');
    databaseUrl = await cluster.createDatabase();
    // A migrates the new database; B starts on it at the same time and must wait for that, not race it.
    [a, b] = await Promise.all([startSandboxProcess(databaseUrl, ['--ensure-app', 'team:Team']), startSandboxProcess(databaseUrl)]);
    key = a.applications[0]!.key;
    observer = new pg.Client({ connectionString: databaseUrl });
    await observer.connect();
  });
  after(async () => {
    await observer?.end();
    await Promise.all([stopSandboxProcess(a), stopSandboxProcess(b)]);
  });

  /** The database's clock now: what `pollHeld` counts from. */
  const databaseNow = async () => (await observer.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;

  /**
   * Waits until a sandbox's connection has answered, since `since`, the last query a long poll makes
   * before it waits: the read of the list's version. The poll sent after `since` is the only request
   * that reads it then, so from that moment its process holds it, and an event wakes it.
   */
  async function pollHeld(since: Date): Promise<void> {
    await eventually(
      async () =>
        (
          await observer.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'custom-actions-sandbox'
               AND state = 'idle' AND query LIKE 'SELECT seq, recorded_at FROM events %' AND query_start > $1`,
            [since],
          )
        ).rowCount! > 0
          ? true
          : undefined,
      'the long poll held',
    );
  }

  async function createAction(via: SandboxProcess, k: string, code = 'export async function main(a: number, b: number) { return a + b; }') {
    const created = await via.request('POST', '/api/application/team/actions', { key, json: metadata({ key: k }) });
    assert.equal(created.status, 201, created.text);
    const id = (created.json as { id: string }).id;
    const pushed = await via.request('PUT', `/api/actions/${id}/implementation`, { key, body: code, type: 'application/typescript' });
    assert.equal(pushed.status, 204, pushed.text);
    const envs = (created.json as { eventsUrls: { Test: string } }).eventsUrls;
    return { id, events: envs.Test, runs: envs.Test.replace(/\/events$/, '/runs') };
  }

  it('each answers the health endpoint without a key', async () => {
    for (const p of [a, b]) {
      const health = await p.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.deepEqual(health.json, { status: 'ok', database: 'ok' });
    }
  });

  it('a long poll held on A is woken by an event B records, long before its wait runs out', async () => {
    const action = await createAction(a, 'lag');
    for (let i = 0; i < 3; i++) {
      const current = await a.request('GET', action.events, { key });
      const etag = current.headers.get('etag')!;
      const since = await databaseNow();
      const started = performance.now();
      const poll = a
        .request('GET', `${action.events}?wait=20`, { key, headers: { 'If-None-Match': etag } })
        .then((reply) => ({ reply, at: performance.now() }));
      // Held on A before B records the event (were it not held yet, it would answer the new list at
      // once, and would say nothing of a wake).
      await pollHeld(since);
      const ran = await b.request('POST', action.runs, { key, json: { inputs: [1, i] } });
      assert.equal(ran.status, 200, ran.text);
      const { reply, at } = await poll;
      assert.equal(reply.status, 200, `the poll on A answered ${reply.status}, not the new list`);
      assert.equal((reply.json as { id: string }[])[0]?.id, (ran.json as { event: { id: string } }).event.id);
      // Only B's NOTIFY can end it before its 20 s: A never looks again by itself. How soon is the
      // bench's to measure (sandbox-pg: the lag of a long poll, p50 12 ms on this project's machine).
      assert.ok(at - started < 10_000, `the poll answered after ${Math.round(at - started)} ms of its 20 s`);
    }
  });

  it('of concurrent conditional writes to one action on A and B, exactly one wins and the other gets 412', async () => {
    const action = await createAction(a, 'race');
    for (let round = 0; round < 10; round++) {
      const current = await a.request('GET', `/api/actions/${action.id}`, { key });
      const etag = current.headers.get('etag')!;
      const [onA, onB] = await Promise.all(
        [a, b].map((p, i) =>
          p.request('PUT', `/api/actions/${action.id}`, {
            key,
            json: metadata({ key: 'race', description: `round ${round} by ${i}` }),
            headers: { 'If-Match': etag },
          }),
        ),
      );
      assert.deepEqual([onA!.status, onB!.status].sort(), [200, 412], `round ${round}: ${onA!.status} ${onB!.status}`);
      const code = await a.request('GET', `/api/actions/${action.id}/implementation`, { key });
      const codeTag = code.headers.get('etag')!;
      const pushes = await Promise.all(
        [a, b].map((p, i) =>
          p.request('PUT', `/api/actions/${action.id}/implementation`, {
            key,
            body: `export async function main(a: number, b: number) { return a + b + ${round * 10 + i}; }`,
            type: 'application/typescript',
            headers: { 'If-Match': codeTag },
          }),
        ),
      );
      assert.deepEqual(pushes.map((p) => p.status).sort(), [204, 412], `round ${round} (code)`);
    }
    // The winners' versions follow one another with no gap and no repeat.
    const versions = (await b.request('GET', `/api/actions/${action.id}/versions`, { key })).json as { versions: { kind: string; version: number }[] };
    const meta = versions.versions.filter((v) => v.kind === 'metadata').map((v) => v.version);
    assert.deepEqual(
      meta.sort((x, y) => x - y),
      Array.from({ length: 11 }, (_, i) => i + 1),
    );
  });

  it('two creates of one key on A and B at once: one is created, the other is a key conflict', async () => {
    for (let round = 0; round < 5; round++) {
      const replies = await Promise.all(
        [a, b].map((p) => p.request('POST', '/api/application/team/actions', { key, json: metadata({ key: `twin-${round}` }) })),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [201, 409], replies.map((r) => r.text).join('\n'));
    }
  });

  it('a key revoked by the admin command is refused at once by both processes; a key it issues works on both', async () => {
    const issued = await admin(databaseUrl, ['issue-key', 'team', '--json']);
    assert.equal(issued.code, 0, issued.stderr);
    const { key: second, keyId } = JSON.parse(issued.stdout) as { key: string; keyId: string };
    for (const p of [a, b]) assert.equal((await p.request('GET', '/api/application/team/actions', { key: second })).status, 200);
    const listed = await admin(databaseUrl, ['list-keys', 'team']);
    assert.match(listed.stdout, new RegExp(`^${keyId}\\t`, 'm'));
    assert.ok(!listed.stdout.includes(second), 'list-keys never shows a key');
    const revoked = await admin(databaseUrl, ['revoke-key', keyId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    for (const p of [a, b]) assert.equal((await p.request('GET', '/api/application/team/actions', { key: second })).status, 401);
    // The first key is untouched.
    assert.equal((await b.request('GET', '/api/application/team/actions', { key })).status, 200);
  });

  it('a long poll still wakes after its process lost the connection it listens on', async () => {
    const action = await createAction(a, 'reconnect');
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const cut = await admin.query<{ n: number }>(
        'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
        [LISTENER_NAME],
      );
      assert.equal(cut.rows[0]!.n, 2, 'both processes listen');
    } finally {
      await admin.end();
    }
    await eventually(() => (/reconnecting/.test(a.stderr()) ? true : undefined), 'A notices the lost connection');
    // Once A listens again, a poll held there wakes on B's event (well before its 20 s end).
    await eventually(
      async () => {
        const etag = (await a.request('GET', action.events, { key })).headers.get('etag')!;
        const since = await databaseNow();
        const started = performance.now();
        const poll = a.request('GET', `${action.events}?wait=3`, { key, headers: { 'If-None-Match': etag } });
        await pollHeld(since);
        assert.equal((await b.request('POST', action.runs, { key, json: { inputs: [1, 2] } })).status, 200);
        const reply = await poll;
        return reply.status === 200 && performance.now() - started < 2_500 ? true : undefined;
      },
      'a poll on A woken by an event B records',
      30_000,
    );
  });

  it('SIGTERM lets a run in flight finish and answer before the process exits', async () => {
    const c = await startSandboxProcess(databaseUrl);
    const action = await createAction(
      c,
      'slow',
      'export async function main(a: number, b: number) { await new Promise((r) => setTimeout(r, 1500)); return a + b; }',
    );
    // Its spare runner, started with it: the run takes it, and a new spare is started in its place.
    await eventually(() => (nodeChildren(c.child.pid!).length === 1 ? true : undefined), 'the spare runner of C');
    const run = c.request('POST', action.runs, { key, json: { inputs: [2, 3] } });
    // Stop once the run is under way (the event list is still empty then): its runner taken, a new spare there.
    await eventually(() => (nodeChildren(c.child.pid!).length >= 2 ? true : undefined), 'the run under way on C');
    c.child.kill('SIGTERM');
    const reply = await run;
    assert.equal(reply.status, 200, reply.text);
    assert.equal(await c.exited, 0, c.stderr());
    const events = await b.request('GET', action.events, { key });
    assert.equal((events.json as { id: string }[])[0]?.id, (reply.json as { event: { id: string } }).event.id);
  });

  it('kill -9 of a process during a burst of deploys loses nothing acknowledged and leaves nothing half-written', async () => {
    const c = await startSandboxProcess(databaseUrl);
    const actions = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => createAction(b, `burst-${i}`)));
    /** Per action: the last acknowledged code push, its version (from the ETag) and its text; and the same of its metadata. */
    const acknowledged = new Map<string, { version: number; code: string }>();
    const acknowledgedMeta = new Map<string, { version: number; description: string }>();
    let acks = 0;
    let killed = false;
    const burst = actions.map(async (action) => {
      for (let n = 0; !killed && n < 10_000; n++) {
        const code = `export async function main(a: number, b: number) { return a + b + ${n}; } // ${action.id}`;
        const meta = n % 3 === 0;
        const reply = await c
          .request('PUT', meta ? `/api/actions/${action.id}` : `/api/actions/${action.id}/implementation`, {
            key,
            ...(meta ? { json: metadata({ key: `burst-${action.id}`, description: `push ${n}` }) } : { body: code, type: 'application/typescript' }),
          })
          .catch(() => undefined);
        if (!reply) return; // the connection died with the process: not acknowledged
        if (!meta && reply.status === 204) {
          acknowledged.set(action.id, { version: Number(/"code-(\d+)"/.exec(reply.headers.get('etag') ?? '')?.[1]), code });
          acks++;
        }
        if (meta && reply.status === 200) {
          acknowledgedMeta.set(action.id, { version: Number(/"meta-(\d+)"/.exec(reply.headers.get('etag') ?? '')?.[1]), description: `push ${n}` });
        }
      }
    });
    await eventually(() => (acks >= 60 ? true : undefined), '60 acknowledged pushes', 60_000);
    c.child.kill('SIGKILL');
    killed = true;
    await Promise.all(burst);
    await c.exited;
    for (const action of actions) {
      const ack = acknowledged.get(action.id);
      if (!ack) continue;
      const kept = await b.request('GET', `/api/actions/${action.id}/versions/implementation/${ack.version}`, { key });
      assert.equal(kept.status, 200, `acknowledged version ${ack.version} of ${action.id} is kept`);
      assert.equal(kept.text, ack.code);
      const current = await b.request('GET', `/api/actions/${action.id}/implementation`, { key });
      assert.ok(Number(/"code-(\d+)"/.exec(current.headers.get('etag')!)?.[1]) >= ack.version);
    }
    assert.ok(acknowledgedMeta.size > 0, 'metadata pushes were acknowledged too');
    for (const [id, ack] of acknowledgedMeta) {
      const kept = await b.request('GET', `/api/actions/${id}/versions/metadata/${ack.version}`, { key });
      assert.equal(kept.status, 200, `acknowledged metadata version ${ack.version} of ${id} is kept`);
      assert.equal((kept.json as { description: string }).description, ack.description);
      const current = await b.request('GET', `/api/actions/${id}`, { key });
      assert.ok(Number(/"meta-(\d+)"/.exec(current.headers.get('etag')!)?.[1]) >= ack.version);
    }
    // Nothing half-written: every action's versions are exactly those its history holds, and its code is its newest version's.
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      const torn = await check.query(
        `SELECT a.id FROM actions a WHERE
           a.code_version <> coalesce((SELECT max(version) FROM action_versions v WHERE v.action_id = a.id AND v.kind = 'implementation'), 0)
        OR a.metadata_version <> (SELECT max(version) FROM action_versions v WHERE v.action_id = a.id AND v.kind = 'metadata')
        OR a.implementation IS DISTINCT FROM (SELECT content FROM action_versions v WHERE v.action_id = a.id AND v.kind = 'implementation' AND v.version = a.code_version)
        OR a.metadata::text <> (SELECT content FROM action_versions v WHERE v.action_id = a.id AND v.kind = 'metadata' AND v.version = a.metadata_version)`,
      );
      assert.deepEqual(torn.rows, []);
    } finally {
      await check.end();
    }
  });
});
