/**
 * The client against the real sandbox over real HTTP: every operation end to end, the extras it
 * advertises, keys scoped to their application, conditional requests and paging of events.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, closeAllPools, createClient, type CustomActionsClient, type NormalizedEvent } from '../../src/core/client';
import { startSandbox } from '../../src/sandbox';
import { eventually } from '../support/eventually';
import { testDatabaseUrl } from './backend';
import { watchLongPolls } from './support';
import { ADD_ACTION as ADD } from '../support/metadata';

const ADD_CODE = `export function main(a: number, b: number): number {
  console.log('adding', a, b);
  return a + b;
}
`;

const FAILING_CODE = `export function main(a: number, b: number): number {
  throw new Error('no sums today ' + (a + b));
}
`;

describe('client against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let dataDir: string;
  let a: CustomActionsClient;
  let b: CustomActionsClient;
  let keyA: string;
  let keyB: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'client-sandbox-'));
    const databaseUrl = await testDatabaseUrl();
    sandbox = await startSandbox({
      ...(databaseUrl === undefined ? { dataDir } : { databaseUrl }),
      applications: [
        { id: 'app-a', name: 'A' },
        { id: 'app-b', name: 'B' },
      ],
    });
    keyA = sandbox.applications.find((app) => app.id === 'app-a')?.key ?? assert.fail('no key for app-a');
    keyB = sandbox.applications.find((app) => app.id === 'app-b')?.key ?? assert.fail('no key for app-b');
    a = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(keyA) });
    b = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(keyB) });
  });

  after(async () => {
    await closeAllPools();
    await sandbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('discovers the extras', async () => {
    const caps = await a.capabilities();
    assert.equal(caps.getAction, true);
    assert.equal(caps.getImplementation, true);
    assert.equal(caps.run, true);
    assert.ok(caps.eventsPaging, 'no events paging advertised');
    assert.ok(caps.eventsLongPoll, 'no long polling advertised');
  });

  let id: string;
  let testEvents: string;

  it('creates, lists, reads, updates and pushes code', async () => {
    assert.deepEqual(await a.listActions('app-a'), []);
    const created = await a.createAction('app-a', ADD);
    assert.ok(created.id);
    assert.equal(created.recovered, false);
    assert.match(created.location ?? '', new RegExp(`/api/actions?/${created.id}$`));
    id = created.id;

    const [listed, ...rest] = await a.listActions('app-a');
    assert.equal(rest.length, 0);
    assert.deepEqual([listed?.id, listed?.key, listed?.name, listed?.description], [id, 'add', 'Add', 'Adds two numbers']);
    assert.match(listed?.eventsUrls.Test ?? '', /^http:\/\/.+\/events$/);
    assert.match(listed?.eventsUrls.Live ?? '', /^http:\/\/.+\/events$/);
    testEvents = listed?.eventsUrls.Test ?? '';

    await a.updateAction(id, { ...ADD, description: 'Adds two numbers, carefully' });
    const resource = await a.getAction(id);
    assert.deepEqual([resource.id, resource.key, resource.description, resource.developerEmail], [id, 'add', 'Adds two numbers, carefully', 'dev@example.com']);
    assert.deepEqual(resource.parameters, ADD.parameters);

    assert.equal(await a.getImplementation(id), undefined);
    await a.putImplementation(id, ADD_CODE);
    assert.equal(await a.getImplementation(id), ADD_CODE);
  });

  it('reports a key conflict and invalid metadata with their codes and fields', async () => {
    await assert.rejects(
      a.createAction('app-a', ADD),
      (error: unknown) => error instanceof ApiError && error.kind === 'conflict' && error.code === 'key-conflict',
    );
    const invalid = { ...ADD, key: 'other', developerEmail: 'not an address' };
    const error = await a.createAction('app-a', invalid).then(
      () => assert.fail('invalid metadata was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'validation');
    assert.ok(
      error.fields.some((f) => /developerEmail/.test(f.path)),
      JSON.stringify(error.fields),
    );
    assert.equal((await a.listActions('app-a')).length, 1, 'the invalid action was created');
  });

  it('runs the action and reads its events, with conditional requests', async () => {
    const event = await a.runAction(testEvents, 'Test', [2, 3]);
    assert.deepEqual([event.ok, event.result], [true, 5]);
    assert.ok(
      event.logs.some((l) => /adding/.test(l.message)),
      JSON.stringify(event.logs),
    );
    assert.ok(event.startTime && event.startTime > 1e12, 'start time not in milliseconds');

    const page = await a.listEvents(testEvents);
    assert.equal(page.notModified, false);
    assert.ok(page.events.some((e) => e.id === event.id));
    const validator = page.etag ?? page.lastModified;
    assert.ok(validator, 'the events list sends neither ETag nor Last-Modified');
    const again = await a.listEvents(testEvents, {
      ...(page.etag ? { etag: page.etag } : {}),
      ...(page.lastModified ? { lastModified: page.lastModified } : {}),
    });
    assert.equal(again.notModified, true);
    assert.deepEqual(again.events, []);

    // The Live environment has its own, empty, list.
    const live = (await a.listActions('app-a'))[0]?.eventsUrls.Live ?? '';
    assert.deepEqual((await a.listEvents(live)).events, []);
  });

  it('records a failing run as a failure event with the error', async () => {
    await a.putImplementation(id, FAILING_CODE);
    const event = await a.runAction(testEvents, 'Test', { a: 1, b: 1 });
    assert.equal(event.ok, false);
    assert.match(event.error?.message ?? '', /no sums today 2/);
    await a.putImplementation(id, ADD_CODE);
  });

  it('pages through events with limit and cursor', async () => {
    for (let i = 0; i < 4; i++) await a.runAction(testEvents, 'Test', [i, i]);
    const seen: NormalizedEvent[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await a.listEvents(testEvents, { limit: 2, ...(cursor ? { cursor } : {}) });
      assert.ok(page.events.length <= 2, `a page of ${page.events.length}`);
      seen.push(...page.events);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    assert.equal(seen.length, 6);
    assert.equal(new Set(seen.map((e) => e.id)).size, 6, 'pages overlap');
  });

  it('a long poll returns as soon as a new event arrives', async function () {
    // The poll may wait 30 s: a test that ends within 20 s was woken by the event, not by the wait's end.
    this.timeout(20_000);
    const before = await a.listEvents(testEvents, { limit: 1 });
    const polls = watchLongPolls();
    try {
      const waiting = a.listEvents(testEvents, { limit: 1, wait: 30, ...(before.etag ? { etag: before.etag } : {}) });
      // The run once the poll is held, so the answer is its waking, not a list read after the event.
      await eventually(() => (polls.held > 0 ? true : undefined), 'the long poll held');
      const event = await a.runAction(testEvents, 'Test', [10, 20]);
      const page = await waiting;
      assert.equal(page.notModified, false);
      assert.ok(page.events.some((e) => e.id === event.id));
    } finally {
      polls.dispose();
    }
  });

  it('scopes keys to their application', async () => {
    assert.deepEqual(await b.listActions('app-b'), []);
    for (const attempt of [() => b.listActions('app-a'), () => b.getAction(id), () => b.deleteAction(id), () => a.listActions('app-b')]) {
      await assert.rejects(attempt(), (error: unknown) => error instanceof ApiError && ['auth', 'forbidden', 'not-found'].includes(error.kind));
    }
    const wrong = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve('not-a-key-at-all') });
    const error = await wrong.listActions('app-a').then(
      () => assert.fail('a wrong key was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'auth');
    assert.ok(!error.message.includes('not-a-key-at-all'));
    assert.equal((await a.listActions('app-a')).length, 1, 'the other key changed something');
  });

  it('a new application gets its own key', async () => {
    const app = await sandbox.createApplication('app-c', 'C');
    const c = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(app.key) });
    const created = await c.createAction('app-c', ADD);
    assert.equal((await c.listActions('app-c'))[0]?.id, created.id);
    await assert.rejects(a.listActions('app-c'));
  });

  it('deletes', async () => {
    await a.deleteAction(id);
    assert.deepEqual(await a.listActions('app-a'), []);
    await assert.rejects(a.getAction(id), { kind: 'not-found' });
    await assert.rejects(a.deleteAction(id), { kind: 'not-found' });
  });
});
