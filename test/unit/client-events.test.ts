import assert from 'node:assert/strict';
import { NO_CAPABILITIES } from '../../src/core/client';
import { client, closeServers, type Recorded, send, startServer } from './client-server.test';

const EVENTS = '/api/actions/a1/environments/test/events';
const INDEX = {
  service: 'custom-actions',
  version: '1',
  extensions: {
    getAction: true,
    getImplementation: true,
    run: true,
    eventsPaging: { limitParam: 'limit', cursorParam: 'cursor', maxLimit: 50 },
    eventsLongPoll: { waitParam: 'wait', maxWaitSeconds: 5 },
  },
};

function event(id: string) {
  return { id, name: 'success', data: { timings: { startTime: 1_700_000_000_000, duration: 12 }, logs: [] } };
}

describe('client events and capabilities', () => {
  afterEach(closeServers);

  it('conditional requests: sends If-None-Match / If-Modified-Since and reads 304 as "not modified"', async () => {
    const server = await startServer((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return send(res, 304, undefined, { etag: '"v1"' });
      return send(res, 200, [event('e1')], { etag: '"v1"', 'last-modified': 'Tue, 14 Nov 2023 22:13:20 GMT' });
    });
    const c = client(server);
    const first = await c.listEvents(EVENTS);
    assert.deepEqual([first.notModified, first.etag, first.lastModified, first.events.length], [false, '"v1"', 'Tue, 14 Nov 2023 22:13:20 GMT', 1]);
    const second = await c.listEvents(EVENTS, { etag: first.etag, ...(first.lastModified ? { lastModified: first.lastModified } : {}) });
    assert.deepEqual([second.notModified, second.events, second.etag], [true, [], '"v1"']);
    assert.equal(server.requests[1]?.headers['if-none-match'], '"v1"');
    assert.equal(server.requests[1]?.headers['if-modified-since'], 'Tue, 14 Nov 2023 22:13:20 GMT');
    // A plain poll asks nothing of /api.
    assert.equal(server.count('GET', '/api'), 0);
  });

  it('paging and long polling only as the capability document advertises, limits capped', async () => {
    const server = await startServer((req, res) => {
      if (req.path === '/api') return send(res, 200, INDEX);
      return send(res, 200, [event('e1')], { link: `<${EVENTS}?limit=50&cursor=c2>; rel="next"` });
    });
    const c = client(server);
    const page = await c.listEvents(EVENTS, { limit: 500, cursor: 'c1', wait: 30 });
    const request = server.requests.find((r) => r.path === EVENTS);
    assert.deepEqual(Object.fromEntries(request?.query ?? []), { limit: '50', cursor: 'c1', wait: '5' });
    assert.equal(page.nextCursor, 'c2');
    assert.equal(page.nextUrl, `${server.url}${EVENTS}?limit=50&cursor=c2`);
    await c.listEvents(EVENTS, { limit: 10 });
    assert.equal(server.count('GET', '/api'), 1, 'the capability document was asked for twice');
  });

  it('a next cursor in a wrapper object is read too', async () => {
    const server = await startServer((req, res) => (req.path === '/api' ? send(res, 404) : send(res, 200, { items: [event('e1')], nextCursor: 'n2' })));
    const page = await client(server).listEvents(EVENTS, { limit: 10 });
    assert.deepEqual([page.events.length, page.nextCursor, page.nextUrl], [1, 'n2', undefined]);
  });

  for (const [label, answer] of [
    ['404', (res: Parameters<typeof send>[0]) => send(res, 404)],
    ['405', (res: Parameters<typeof send>[0]) => send(res, 405)],
    ['an HTML page', (res: Parameters<typeof send>[0]) => send(res, 200, '<html>hello</html>')],
    ['a JSON document without extensions', (res: Parameters<typeof send>[0]) => send(res, 200, { hello: 'world' })],
  ] as const) {
    it(`a server answering GET /api with ${label} offers no extras, asked once; events go out without query`, async () => {
      const server = await startServer((req: Recorded, res) => (req.path === '/api' ? answer(res) : send(res, 200, [])));
      const c = client(server);
      assert.deepEqual(await c.capabilities(), NO_CAPABILITIES);
      await c.listEvents(EVENTS, { limit: 5, wait: 10 });
      assert.deepEqual(await c.capabilities(), NO_CAPABILITIES);
      assert.equal(server.count('GET', '/api'), 1);
      assert.equal(server.requests.find((r) => r.path === EVENTS)?.url, EVENTS);
    });
  }

  it('a 503 from /api means no extras for now, and is asked again later', async () => {
    let up = false;
    const server = await startServer((req, res) => (req.path === '/api' && up ? send(res, 200, INDEX) : send(res, 503)));
    const c = client(server, { retries: 0 });
    assert.deepEqual(await c.capabilities(), NO_CAPABILITIES);
    up = true;
    assert.equal((await c.capabilities()).run, true);
  });

  it('a refused key at /api is an auth error, not an absence', async () => {
    const server = await startServer((_req, res) => send(res, 401));
    await assert.rejects(client(server).capabilities(), { kind: 'auth', operation: 'capabilities' });
  });

  it('concurrent callers share one request, and one caller cancelling does not cancel the others', async () => {
    // The answer is held until the cancelled caller has given up, so the request is in flight throughout.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const server = await startServer((_req, res) => void held.then(() => send(res, 200, INDEX)));
    const c = client(server);
    const controller = new AbortController();
    const cancelled = c.capabilities({ signal: controller.signal });
    const other = c.capabilities();
    controller.abort();
    await assert.rejects(cancelled, { kind: 'cancelled' });
    answer();
    assert.equal((await other).eventsPaging?.maxLimit, 50);
    assert.equal(server.requests.length, 1);
  });

  it('a long poll gets its wait added to the time-out', async () => {
    const server = await startServer((req, res) => {
      if (req.path === '/api') return send(res, 200, INDEX);
      // Later than the client's own time-out, within the wait: the subject is the time-out itself.
      setTimeout(() => send(res, 200, [event('late')]), 700);
      return undefined;
    });
    const page = await client(server, { timeoutMs: 400 }).listEvents(EVENTS, { wait: 2 });
    assert.equal(page.events[0]?.id, 'late');
  });

  it('events are normalised and an events URL is used verbatim (query kept)', async () => {
    const server = await startServer((_req, res) =>
      send(res, 200, [{ id: 'x', name: 'failure', data: { message: 'it broke', timings: { startTime: 1_700_000_000, duration: 0.25 } } }]),
    );
    const page = await client(server).listEvents(`${server.url}${EVENTS}?env=test`);
    assert.equal(server.requests[0]?.url, `${EVENTS}?env=test`);
    const [e] = page.events;
    assert.deepEqual([e?.ok, e?.error?.message, e?.startTime, e?.duration], [false, 'it broke', 1_700_000_000_000, 250]);
  });
});
