import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type PGlite } from '@electric-sql/pglite';
import { type ActionEvent, type ActionListEntry, type ActionMetadata, type ActionResource } from '../../src/core/schema';
import { openDatabase } from '../../src/sandbox/store/database';
import { Store } from '../../src/sandbox/store/store';
import { eventually } from '../support/eventually';
import { assertMatchesSpec, metadata, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;

const meta = (overrides: Record<string, unknown> = {}) => metadata(overrides) as unknown as ActionMetadata;
/** The list entry of an action at metadata version `meta`, without code: the tags are those its GETs send. */
const entry = (a: ActionResource, meta = 1): ActionListEntry => ({
  key: a.key,
  name: a.name,
  description: a.description,
  id: a.id,
  eventsUrls: a.eventsUrls,
  etags: { metadata: `"meta-${meta}"`, implementation: null },
});

/** Names and descriptions that JSON escapes, or that only look as if it should. */
const AWKWARD = [
  'plain',
  'quote " and backslash \\ and slash /',
  'line\nbreak\ttab\rreturn',
  'é ß 中文 😀',
  '\u2028\u2029',
  '<script>&amp;</script>',
  "it's",
  '',
];

describe('sandbox: the action list built by the database', () => {
  let box: Box;
  let keyA: string;
  before(async () => {
    box = await withSandbox();
    keyA = box.applications[0]!.key;
  });
  after(() => box.close());

  /** Sends `body` as it is: its field order is what gets stored. */
  async function create(body: Record<string, unknown>): Promise<ActionResource> {
    const reply = await box.request('POST', '/api/application/app-a/actions', { key: keyA, json: body });
    assert.equal(reply.status, 201, reply.text);
    return reply.json as ActionResource;
  }

  async function assertList(expected: ActionListEntry[], app = 'app-a', key = keyA): Promise<void> {
    const reply = await box.request('GET', `/api/application/${app}/actions`, { key });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('content-type'), 'application/vnd.restful+json; charset=utf-8');
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    assert.equal(reply.headers.get('content-length'), String(Buffer.byteLength(reply.text)));
    assertMatchesSpec('GET', '/api/application/{applicationId}/actions', reply);
    // Byte for byte what JSON.stringify of the entries gives, as the list was sent before the database built it.
    assert.equal(reply.text, JSON.stringify(expected));
  }

  it('an application without actions lists as []', async () => {
    await assertList([], 'app-b', box.applications[1]!.key);
  });

  it('lists many actions oldest first, the same bytes as JSON.stringify of the entries, through updates and deletes', async () => {
    const created: ActionResource[] = [];
    for (let i = 0; i < 120; i++) {
      const name = `${AWKWARD[i % AWKWARD.length] || 'x'} ${i}`;
      const description = AWKWARD[(i + 3) % AWKWARD.length]!;
      // Field order is kept as sent, so name and description are not always where the list reads them first.
      const body = i % 3 === 0 ? { description, extra: { name: 'not this one' }, key: `k${i}`, name } : { key: `k${i}`, name, description, unknownField: [i] };
      created.push(await create({ ...body, ...metadata(), ...body }));
    }
    await assertList(created.map((a) => entry(a)));

    const renamed = await box.request('PUT', `/api/actions/${created[5]!.id}`, {
      key: keyA,
      json: metadata({ key: 'renamed', name: 'Renamed "again"', description: 'back\\slash' }),
    });
    assert.equal(renamed.status, 200, renamed.text);
    created[5] = renamed.json as ActionResource;
    assert.equal((await box.request('DELETE', `/api/actions/${created[7]!.id}`, { key: keyA })).status, 204);
    created.splice(7, 1);
    const coded = await box.request('PUT', `/api/actions/${created[9]!.id}/implementation`, {
      key: keyA,
      body: 'export async function main() { return 1; }',
      type: 'application/typescript',
    });
    assert.equal(coded.status, 204, coded.text);
    const expected = created.map((a, i) => entry(a, i === 5 ? 2 : 1));
    expected[9] = { ...expected[9]!, etags: { metadata: '"meta-1"', implementation: '"code-1"' } };
    await assertList(expected);
    // Each tag is the one the part's own GET sends, so a client can trust it in place of the read.
    const [meta, code] = await Promise.all([
      box.request('GET', `/api/actions/${created[5]!.id}`, { key: keyA }),
      box.request('GET', `/api/actions/${created[9]!.id}/implementation`, { key: keyA }),
    ]);
    assert.equal(meta.headers.get('etag'), '"meta-2"');
    assert.equal(code.headers.get('etag'), '"code-1"');
  });

  it('metadata holding \\u0000 or another \\u escape anywhere still lists, with the same bytes', async () => {
    const before = JSON.parse((await box.request('GET', '/api/application/app-a/actions', { key: keyA })).text) as ActionListEntry[];
    const nul = await create(
      metadata({ key: 'nul', name: 'N\u0000UL', description: 'd\u001f', parameters: [{ name: 'a', type: 'number', description: 'z\u0000' }] }),
    );
    const elsewhere = await create(metadata({ key: 'nul-elsewhere', parameters: [{ name: 'a', type: 'number', description: 'z\u0000' }] }));
    await assertList([...before, entry(nul), entry(elsewhere)]);
    // The list built in JavaScript (Postgres cannot read such metadata) carries the same tags.
    const listed = JSON.parse((await box.request('GET', '/api/application/app-a/actions', { key: keyA })).text) as ActionListEntry[];
    assert.ok(listed.every((e) => e.etags?.metadata.startsWith('"meta-')));
  });
});

describe('sandbox store: the list in one query, planner statistics', function () {
  this.timeout(60_000);

  /** The statements `db` is asked from now on, as it is asked them. */
  function countQueries(db: PGlite): string[] {
    const queries: string[] = [];
    const query = db.query.bind(db);
    db.query = ((sql: string, ...rest: unknown[]) => {
      queries.push(sql);
      return (query as (...args: unknown[]) => unknown)(sql, ...rest);
    }) as typeof db.query;
    return queries;
  }

  /** The store on an in-memory database whose queries are counted. */
  async function countedStore(analyzeEvery?: number): Promise<{ db: PGlite; store: Store; queries: string[] }> {
    const db = await openDatabase(undefined);
    const queries = countQueries(db);
    return { db, store: new Store(db, { analyzeEvery, log: (message) => assert.fail(message) }), queries };
  }

  it('builds the list in one query, and falls back to building it in JavaScript only for metadata Postgres cannot read', async () => {
    const { store, queries } = await countedStore();
    try {
      const app = await store.ensureApplication('app', 'App');
      const urls = (id: string) => ({
        Test: `/api/actions/${id}/environments/${app.environments.Test}/events`,
        Live: `/api/actions/${id}/environments/${app.environments.Live}/events`,
      });
      const rows = [await store.createAction('app', meta({ key: 'one', name: 'One "1"' }), 10)];
      rows.push(await store.createAction('app', meta({ key: 'two', description: 'back\\slash' }), 10));
      const expected = () =>
        JSON.stringify(
          rows.map((a) => ({
            key: a.key,
            name: a.metadata.name,
            description: a.metadata.description,
            id: a.id,
            eventsUrls: urls(a.id),
            etags: { metadata: '"meta-1"', implementation: null },
          })),
        );

      queries.length = 0;
      assert.equal(await store.listActionsJson('app', urls), expected());
      assert.equal(queries.length, 1, 'the list took more than one query');

      rows.push(await store.createAction('app', meta({ key: 'three', result: { type: 'text', description: '\u0000' } }), 10));
      queries.length = 0;
      assert.equal(await store.listActionsJson('app', urls), expected());
      assert.equal(queries.length, 2, 'metadata with \\u0000 did not fall back');
    } finally {
      await store.close();
    }
  });

  it('brings a data directory of schema 3 up to date in place: its actions list in one query, with the same bytes, before and after an update', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-schema3-'));
    try {
      let db = await openDatabase(dir);
      let store = new Store(db, { log: (message) => assert.fail(message) });
      const app = await store.ensureApplication('app', 'App');
      const urls = (id: string) => ({
        Test: `/api/actions/${id}/environments/${app.environments.Test}/events`,
        Live: `/api/actions/${id}/environments/${app.environments.Live}/events`,
      });
      const rows = [await store.createAction('app', meta({ key: 'one', name: AWKWARD[1] }), 10), await store.createAction('app', meta({ key: 'two' }), 10)];
      const listed = await store.listActionsJson('app', urls);
      await store.close();
      // What a sandbox of schema 3 left: no list_fields.
      db = await openDatabase(dir);
      await db.exec(`ALTER TABLE actions DROP COLUMN list_fields; UPDATE sandbox_meta SET value = '3' WHERE name = 'schema_version'`);
      await db.close();

      db = await openDatabase(dir);
      const queries = countQueries(db);
      store = new Store(db, { log: (message) => assert.fail(message) });
      try {
        assert.equal((await db.query<{ value: string }>("SELECT value FROM sandbox_meta WHERE name = 'schema_version'")).rows[0]?.value, '4');
        queries.length = 0;
        assert.equal(await store.listActionsJson('app', urls), listed);
        assert.equal(queries.length, 1, 'the migrated actions fell back to the list built in JavaScript');
        // Postgres keeps the list's fields on a write of the metadata.
        await store.updateAction(rows[0]!.id, meta({ key: 'one', name: 'Renamed "one"', description: AWKWARD[2] }));
        queries.length = 0;
        const after = JSON.parse(await store.listActionsJson('app', urls)) as ActionListEntry[];
        assert.equal(queries.length, 1);
        assert.deepEqual(
          after.map((e) => [e.name, e.description]),
          [
            ['Renamed "one"', AWKWARD[2]],
            [rows[1]!.metadata.name, rows[1]!.metadata.description],
          ],
        );
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gathers statistics at open, so the newest page of a big environment walks an index instead of sorting it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-stats-'));
    try {
      let db = await openDatabase(dir);
      await db.exec(`
        INSERT INTO applications VALUES ('app', 'App', 0);
        INSERT INTO environments VALUES ('test_env', 'app', 'Test'), ('live_env', 'app', 'Live');
        INSERT INTO actions (id, application_id, key, metadata, created_at, updated_at) VALUES ('act', 'app', 'k', '{}', 0, 0);
        INSERT INTO events (id, action_id, environment_id, name, data, recorded_at)
          SELECT gen_random_uuid(), 'act', 'test_env', 'success', '{"result": 1}', i FROM generate_series(1, 20000) AS i;`);
      await db.close();
      db = await openDatabase(dir);
      try {
        // The store's newest-page query (Store.listEvents), first page.
        const plan = await db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT seq, id, name, data FROM events WHERE action_id = $1 AND environment_id = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
           ORDER BY seq DESC LIMIT $4`,
          ['act', 'test_env', null, 21],
        );
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        assert.match(text, /Index Scan/, text);
        assert.doesNotMatch(text, /Sort/, text);
        // Without statistics the planner guesses a row or three for the environment; at 100,000 events that guess sorted them all.
        const estimated = Number(/Scan .*rows=(\d+)/.exec(text)?.[1]);
        assert.ok(estimated > 10_000, `the planner expects ${estimated} events in the environment, not about 20,000:\n${text}`);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gathers them again after every so many writes, off the request path', async () => {
    const { db, store } = await countedStore(20);
    const analysed = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'events'")).rows[0]!.n;
    try {
      const app = await store.ensureApplication('app', 'App');
      const action = await store.createAction('app', meta(), 10);
      assert.equal(await analysed(), 0, 'an empty table has statistics');
      const event = (i: number): ActionEvent => ({
        id: randomUUID(),
        name: 'success',
        data: { timings: { startTime: i, duration: 1 }, logs: [], result: i } as never,
      });
      for (let i = 0; i < 25; i++) assert.ok(await store.recordEvent(action.id, app.environments.Test, event(i), 100));
      await eventually(async () => ((await analysed()) > 0 ? true : undefined), 'statistics of the events', 10_000);
    } finally {
      await store.close();
    }
  });

  it('closes cleanly while a gathering is scheduled', async () => {
    const { store } = await countedStore(1);
    await store.ensureApplication('app', 'App');
    await store.createAction('app', meta(), 10);
    await store.close();
  });
});
