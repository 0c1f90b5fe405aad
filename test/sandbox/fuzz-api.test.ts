import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ActionResource } from '../../src/core/schema';
import { type SandboxOptions, startSandbox } from '../../src/sandbox';
import { openDatabase } from '../../src/sandbox/store/database';
import { openPostgres } from '../../src/sandbox/store/postgres';
import { Store } from '../../src/sandbox/store/store';
import { hostileRequest, type Targets } from '../support/hostile';
import { pool, send, sendRaw } from '../support/http';
import { picker, testSeed } from '../support/random';
import { postgresCluster, testDatabaseUrl } from './backend';
import { metadata, requester } from './support';

// The PostgreSQL run sends fewer: each request there is a round trip to the server, and the
// requests' kinds and the checks are the same (docs/testing.md). Asked when the test runs: the
// cluster is started by a root hook, after this file is loaded.
const PGLITE_REQUESTS = 10_000;
const POSTGRES_REQUESTS = 3_000;
const CONCURRENCY = 16;
const SEED = testSeed(20_240_501);
// Smaller than the defaults so the huge-body cases stay cheap; the code paths are the same.
const LIMITS: SandboxOptions['limits'] = { jsonBodyBytes: 64 * 1024, codeBytes: 128 * 1024 };

/** Where the fixture keeps its data: a data directory (PGlite), or a database of the PostgreSQL run. */
type Where = Pick<SandboxOptions, 'dataDir' | 'databaseUrl'>;

async function dumpOf(where: Where): Promise<Record<string, unknown[]>> {
  const store = new Store(where.databaseUrl !== undefined ? await openPostgres(where.databaseUrl, () => undefined) : await openDatabase(where.dataDir));
  try {
    return await store.dump();
  } finally {
    await store.close();
  }
}

/** The dump without the rows that requests were allowed to change: the scratch action, created actions and their events. */
function withoutAllowed(dump: Record<string, unknown[]>, allowed: Set<string>): Record<string, unknown[]> {
  return {
    ...dump,
    actions: dump.actions!.filter((row) => !allowed.has((row as { id: string }).id)),
    events: dump.events!.filter((row) => !allowed.has((row as { action_id: string }).action_id)),
  };
}

describe('fuzz: hostile requests to the sandbox', function () {
  this.timeout(180_000);
  let dir: string;
  let where: Where;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sandbox-fuzz-'));
    const databaseUrl = await testDatabaseUrl();
    where = databaseUrl === undefined ? { dataDir: dir } : { databaseUrl };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`answers ${PGLITE_REQUESTS} generated requests (${POSTGRES_REQUESTS} on PostgreSQL) with 2xx or 4xx (a problem body on failure), keeps serving, and failed requests change nothing`, async () => {
    const REQUESTS = postgresCluster() ? POSTGRES_REQUESTS : PGLITE_REQUESTS;
    // The fixture: two applications, protected actions with code and events, and a scratch action.
    const first = await startSandbox({
      ...where,
      applications: [
        { id: 'app-a', name: 'A' },
        { id: 'app-b', name: 'B' },
      ],
      limits: LIMITS,
      log: () => undefined,
    });
    const a = first.applications[0]!;
    const b = first.applications[1]!;
    const req = requester(first.url);
    const created: ActionResource[] = [];
    for (const [k, key, app] of [
      ['one', a.key, 'app-a'],
      ['two', a.key, 'app-a'],
      ['scratch', a.key, 'app-a'],
      ['foreign', b.key, 'app-b'],
    ] as const) {
      const reply = await req('POST', `/api/application/${app}/actions`, { key, json: metadata({ key: k }) });
      assert.equal(reply.status, 201, reply.text);
      const action = reply.json as ActionResource;
      await req('PUT', `/api/actions/${action.id}/implementation`, {
        key,
        body: 'export const main = (a: number, b: number) => a + b;',
        type: 'application/typescript',
      });
      await req('POST', action.eventsUrls.Test.replace(/events$/, 'runs'), { key, json: { inputs: [1, 2] } });
      created.push(action);
    }
    await first.close();
    const [one, two, scratch, foreign] = created as [ActionResource, ActionResource, ActionResource, ActionResource];
    const before = await dumpOf(where);

    const logged: string[] = [];
    const box = await startSandbox({ ...where, applications: [], limits: LIMITS, log: (m) => logged.push(m) });
    // At most CONCURRENCY connections. Without keepAlive, node:http still hands a connection to a
    // request waiting in its queue when the previous answer ends, so connections are reused: every body
    // is sent with its length (test/support/http.ts), else the server reads it as the next request.
    const agent = new Agent({ keepAlive: false, maxSockets: CONCURRENCY });
    const targets: Targets = {
      appId: 'app-a',
      otherAppId: 'app-b',
      key: a.key,
      otherKey: b.key,
      protectedIds: [one.id, two.id],
      foreignId: foreign.id,
      envId: one.eventsUrls.Test.split('/')[5]!,
      foreignEnvId: foreign.eventsUrls.Test.split('/')[5]!,
      jsonBodyBytes: LIMITS!.jsonBodyBytes!,
      codeBytes: LIMITS!.codeBytes!,
    };
    const allowed = new Set([scratch.id]);
    const byStatus = new Map<number, number>();
    const byCategory = new Map<string, number>();
    const wrong: string[] = [];
    let resets = 0;
    try {
      const p = picker(SEED);
      // Generated up front, in order, so the seed alone decides every request whatever the scheduling.
      const requests = Array.from({ length: REQUESTS }, (_, n) => hostileRequest(p, targets, scratch.id, n));
      await pool(REQUESTS, CONCURRENCY, async (i) => {
        const r = requests[i]!;
        byCategory.set(r.category, (byCategory.get(r.category) ?? 0) + 1);
        let reply;
        try {
          // A refused body (too large, unauthenticated) may close its connection while the client still
          // sends: such a request is sent once more and must then get a real answer. Every reset counts.
          for (let attempt = 1; ; attempt++) {
            try {
              reply = await send(box.url, agent, r);
              break;
            } catch (error) {
              if ((error as { code?: string }).code !== 'ECONNRESET' || attempt === 2) throw error;
              resets++;
            }
          }
        } catch (error) {
          // The server may close a connection after refusing an oversized or unauthenticated body.
          if (r.category === 'huge-body' || r.category === 'deep-json' || !r.headers.Authorization) return;
          wrong.push(`${r.category} ${r.method} ${r.path.slice(0, 80)}: ${String(error)}`);
          return;
        }
        byStatus.set(reply.status, (byStatus.get(reply.status) ?? 0) + 1);
        const what = `${r.category} ${r.method} ${r.path.slice(0, 80)} → ${reply.status} ${reply.body.toString('utf8').slice(0, 200)}`;
        if (reply.status >= 500) return void wrong.push(what);
        if (reply.status >= 200 && reply.status < 300) {
          if (r.method === 'POST' && /\/actions$/.test(r.path.split('?')[0]!)) {
            allowed.add(String(reply.headers.location).split('/').pop()!);
          } else if (!['GET', 'HEAD'].includes(r.method.toUpperCase()) && !r.path.includes(scratch.id)) {
            wrong.push(`a write succeeded: ${what}`);
          }
          return;
        }
        if (reply.status >= 400 && r.method !== 'HEAD') {
          const type = String(reply.headers['content-type'] ?? '');
          // Node's own parser answers requests it cannot read (bad method, oversized head) with an empty 400 or 431.
          if (type === '' && reply.body.length === 0 && [400, 431].includes(reply.status)) return;
          let body: { status?: unknown; code?: unknown } | undefined;
          try {
            body = JSON.parse(reply.body.toString('utf8')) as typeof body;
          } catch {
            body = undefined;
          }
          if (!type.startsWith('application/problem+json') || body?.status !== reply.status || typeof body.code !== 'string')
            wrong.push(`not a problem body: ${what}`);
        }
      });
      // Bytes no client would send: broken request lines, header folding, conflicting lengths, a lying chunk size.
      const raw = [
        'GET /api HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        'POST /api/application/app-a/actions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\nabc',
        'GET /api HTTP/9.9\r\n\r\n',
        'GET\r\n\r\n',
        '\u0000\u0001\u0002\r\n\r\n',
        'GET /api HTTP/1.1\r\nHost: x\r\n folded: header\r\n\r\n',
        `GET /api HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(70_000)}\r\n\r\n`,
        'PUT /api/actions/x HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
        'PUT /api/actions/x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n',
      ];
      const rawStatuses = await Promise.all(raw.map((bytes) => sendRaw(box.url, Buffer.from(bytes, 'latin1'))));
      for (const [i, status] of rawStatuses.entries()) if (status >= 500) wrong.push(`raw request ${i} → ${status}`);

      // Still serving, and the protected actions still answer as before.
      const after = await requester(box.url)('GET', '/api/application/app-a/actions', { key: a.key });
      assert.equal(after.status, 200);
      assert.deepEqual(logged, [], 'the sandbox logged unexpected errors');
      assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} wrong answers`);
      assert.equal(
        [...byCategory.values()].reduce((x, y) => x + y, 0),
        REQUESTS,
      );
      // At most 1 in 200 on both backends. Before bodies were framed, a GET, OPTIONS or TRACE with a body
      // poisoned its kept-alive connection: about 1 % of requests were hung up on PostgreSQL (some twice
      // in a row), a few in ten thousand on PGlite. With framed bodies no run has seen one.
      assert.ok(resets < REQUESTS / 200, `${resets} connections were reset`);
      assert.ok(byCategory.size >= 12, `every category was generated: ${[...byCategory.keys()].join(', ')}`);
    } finally {
      agent.destroy();
      await box.close();
    }
    assert.ok(!allowed.has(one.id) && !allowed.has(two.id));
    const afterDump = await dumpOf(where);
    assert.deepEqual(withoutAllowed(afterDump, allowed), withoutAllowed(before, allowed));
  });
});
