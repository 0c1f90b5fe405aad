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
  /** How many applications the tests made: each test's get ids no other test uses. */
  let made = 0;
  // Each test's own two applications and their clients (beforeEach): what one test makes, no other sees.
  let appA: string;
  let appB: string;
  let a: CustomActionsClient;
  let b: CustomActionsClient;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'client-sandbox-'));
    const databaseUrl = await testDatabaseUrl();
    sandbox = await startSandbox({ ...(databaseUrl === undefined ? { dataDir } : { databaseUrl }), applications: [] });
  });

  after(async () => {
    await closeAllPools();
    await sandbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A new application of the sandbox, and a client with its key. */
  async function application(name: string): Promise<{ id: string; client: CustomActionsClient }> {
    const { id, key } = await sandbox.createApplication(`${name}-${++made}`, name);
    return { id, client: createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key) }) };
  }

  beforeEach(async () => {
    ({ id: appA, client: a } = await application('app-a'));
    ({ id: appB, client: b } = await application('app-b'));
  });

  /** The action `add` in A with its code, as the test that creates it leaves it: its id and its environments' events. */
  async function addAction(): Promise<{ id: string; testEvents: string; liveEvents: string }> {
    const { id } = await a.createAction(appA, ADD);
    await a.putImplementation(id, ADD_CODE);
    const listed = (await a.listActions(appA)).find((l) => l.id === id) ?? assert.fail('the action created is not listed');
    const events = (environment: 'Test' | 'Live') => listed.eventsUrls[environment] ?? assert.fail(`no ${environment} events URL listed`);
    return { id, testEvents: events('Test'), liveEvents: events('Live') };
  }

  it('discovers the extras', async () => {
    const caps = await a.capabilities();
    assert.equal(caps.getAction, true);
    assert.equal(caps.getImplementation, true);
    assert.equal(caps.run, true);
    assert.ok(caps.eventsPaging, 'no events paging advertised');
    assert.ok(caps.eventsLongPoll, 'no long polling advertised');
  });

  it('creates, lists, reads, updates and pushes code', async () => {
    assert.deepEqual(await a.listActions(appA), []);
    const created = await a.createAction(appA, ADD);
    assert.ok(created.id);
    assert.equal(created.recovered, false);
    assert.match(created.location ?? '', new RegExp(`/api/actions?/${created.id}$`));
    const id = created.id;

    const [listed, ...rest] = await a.listActions(appA);
    assert.equal(rest.length, 0);
    assert.deepEqual([listed?.id, listed?.key, listed?.name, listed?.description], [id, 'add', 'Add', 'Adds two numbers']);
    assert.match(listed?.eventsUrls.Test ?? '', /^http:\/\/.+\/events$/);
    assert.match(listed?.eventsUrls.Live ?? '', /^http:\/\/.+\/events$/);

    await a.updateAction(id, { ...ADD, description: 'Adds two numbers, carefully' });
    const resource = await a.getAction(id);
    assert.deepEqual([resource.id, resource.key, resource.description, resource.developerEmail], [id, 'add', 'Adds two numbers, carefully', 'dev@example.com']);
    assert.deepEqual(resource.parameters, ADD.parameters);

    assert.equal(await a.getImplementation(id), undefined);
    await a.putImplementation(id, ADD_CODE);
    assert.equal(await a.getImplementation(id), ADD_CODE);
  });

  it('reports a key conflict and invalid metadata with their codes and fields', async () => {
    await addAction();
    await assert.rejects(
      a.createAction(appA, ADD),
      (error: unknown) => error instanceof ApiError && error.kind === 'conflict' && error.code === 'key-conflict',
    );
    const invalid = { ...ADD, key: 'other', developerEmail: 'not an address' };
    const error = await a.createAction(appA, invalid).then(
      () => assert.fail('invalid metadata was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'validation');
    assert.ok(
      error.fields.some((f) => /developerEmail/.test(f.path)),
      JSON.stringify(error.fields),
    );
    assert.equal((await a.listActions(appA)).length, 1, 'the invalid action was created');
  });

  it('runs the action and reads its events, with conditional requests', async () => {
    const { testEvents, liveEvents } = await addAction();
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
    assert.deepEqual((await a.listEvents(liveEvents)).events, []);
  });

  it('records a failing run as a failure event with the error', async () => {
    const { id, testEvents } = await addAction();
    await a.putImplementation(id, FAILING_CODE);
    const event = await a.runAction(testEvents, 'Test', { a: 1, b: 1 });
    assert.equal(event.ok, false);
    assert.match(event.error?.message ?? '', /no sums today 2/);
  });

  it('pages through events with limit and cursor', async () => {
    const { testEvents } = await addAction();
    for (let i = 0; i < 6; i++) await a.runAction(testEvents, 'Test', [i, i]);
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
    const { testEvents } = await addAction();
    await a.runAction(testEvents, 'Test', [1, 2]);
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
    const { id } = await addAction();
    assert.deepEqual(await b.listActions(appB), []);
    for (const attempt of [() => b.listActions(appA), () => b.getAction(id), () => b.deleteAction(id), () => a.listActions(appB)]) {
      await assert.rejects(attempt(), (error: unknown) => error instanceof ApiError && ['auth', 'forbidden', 'not-found'].includes(error.kind));
    }
    const wrong = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve('not-a-key-at-all') });
    const error = await wrong.listActions(appA).then(
      () => assert.fail('a wrong key was accepted'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'auth');
    assert.ok(!error.message.includes('not-a-key-at-all'));
    assert.equal((await a.listActions(appA)).length, 1, 'the other key changed something');
  });

  it('a new application gets its own key', async () => {
    const { id: appC, client: c } = await application('app-c');
    const created = await c.createAction(appC, ADD);
    assert.equal((await c.listActions(appC))[0]?.id, created.id);
    await assert.rejects(a.listActions(appC));
  });

  it('deletes', async () => {
    const { id } = await addAction();
    await a.deleteAction(id);
    assert.deepEqual(await a.listActions(appA), []);
    await assert.rejects(a.getAction(id), { kind: 'not-found' });
    await assert.rejects(a.deleteAction(id), { kind: 'not-found' });
  });
});
