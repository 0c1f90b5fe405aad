/**
 * The client against a server that names other origins: every URL it hands back is used only on the
 * base URL's origin, and a counting listener on the other origin must never hear a single request.
 */
import assert from 'node:assert/strict';
import { ApiError, closeAllPools, createClient, ForeignOriginError } from '../../src/core/client';
import { EVENTS_OF, type HostileServer, type Listener, startForeignListener, startHostileServer } from '../support/hostileServer';
import { onBaseOrigin } from '../../src/core/client/urls';
import { ADD_ACTION } from '../support/metadata';

const KEY = 'key-hostile-5d1c0e9b';

describe('client against a hostile server: the key stays on the base URL’s origin', () => {
  let foreign: Listener;
  let server: HostileServer;

  beforeEach(async () => {
    foreign = await startForeignListener();
    server = await startHostileServer(foreign.url);
  });

  afterEach(async () => {
    await closeAllPools();
    await server.close();
    await foreign.close();
  });

  const clientOf = (baseUrl = server.url) => createClient({ baseUrl, getKey: () => Promise.resolve(KEY), timeoutMs: 5_000, retries: 0 });

  /** Nothing reaches the other origin; the refusal names the operation, says where the server pointed, and that nothing went there. */
  async function refused(operation: string, call: () => Promise<unknown>, listener: Listener = foreign): Promise<void> {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.deepEqual(listener.requests, [], 'the other origin heard from the client');
    assert.ok(error instanceof ForeignOriginError, `expected a ForeignOriginError, got ${String(error)}`);
    assert.ok(error instanceof ApiError);
    assert.equal(error.operation, operation);
    assert.equal(error.retryable, false);
    assert.match(error.message, /another origin/);
    assert.match(error.message, /nothing was sent/);
    assert.ok(error.message.includes(new URL(listener.url).origin), error.message);
    assert.ok(!error.message.includes(KEY));
  }

  it('an absolute events URL on another origin: listed as is, but reading its events is refused and nothing reaches it', async () => {
    const [action] = await clientOf().listActions('foreign');
    assert.equal(action?.eventsUrls.Test, foreign.url + EVENTS_OF('test'));
    await refused('listEvents', () => clientOf().listEvents(action?.eventsUrls.Test ?? ''));
    await refused('listEvents', () => clientOf().listEvents(action?.eventsUrls.Live ?? '', { limit: 10, wait: 5 }));
  });

  it('running an action through an events URL on another origin is refused', async () => {
    const [action] = await clientOf().listActions('foreign');
    await refused('runAction', () => clientOf().runAction(action?.eventsUrls ?? {}, 'Test', { a: 1, b: 2 }));
    const described = await clientOf().getAction('a1');
    await refused('runAction', () => clientOf().runAction(described.eventsUrls.Live ?? '', { a: 1, b: 2 }));
  });

  for (const trick of ['scheme-relative', 'backslash']) {
    it(`a ${trick} events URL resolves to another origin and is refused`, async () => {
      const [action] = await clientOf().listActions(trick);
      assert.equal(new URL(action?.eventsUrls.Test ?? '').origin, new URL(foreign.url).origin);
      await refused('listEvents', () => clientOf().listEvents(action?.eventsUrls.Test ?? ''));
    });
  }

  it('an http:// URL under an https:// base is refused: the key never goes out in clear text', async () => {
    // The base names https on the listener's port; the listener speaks plain http and would hear the key.
    const secure = clientOf(`https://127.0.0.1:${foreign.port}/`);
    const downgraded = `http://127.0.0.1:${foreign.port}${EVENTS_OF('test')}`;
    await refused('listEvents', () => secure.listEvents(downgraded));
    await refused('runAction', () => secure.runAction(downgraded, 'Test', {}));
  });

  it('another host on the same port is another origin', async function () {
    // 127.0.0.2 is loopback on Linux; where it cannot be bound (macOS by default) there is nothing to test.
    const other = await startForeignListener('127.0.0.2').catch(() => undefined);
    if (!other) return this.skip();
    try {
      const c = clientOf(`http://127.0.0.1:${other.port}`);
      await refused('listEvents', () => c.listEvents(other.url + EVENTS_OF('test')), other);
    } finally {
      await other.close();
    }
  });

  it('a Location header on another origin fails the create with the typed error', async () => {
    await refused('createAction', () => clientOf().createAction('foreign', ADD_ACTION));
    // The POST itself went to the base URL, once: a refusal is not an ambiguous failure to retry.
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 1);
  });

  it('a next-page link on another origin is refused', async () => {
    await refused('listEvents', () => clientOf().listEvents(EVENTS_OF('next-elsewhere'), { limit: 10 }));
  });

  for (const [trick, status] of [
    ['redirect', 302],
    ['redirect-307', 307],
  ] as const) {
    it(`a ${status} to another origin is not followed, for reads and for runs`, async () => {
      await assert.rejects(clientOf().listEvents(`/api/actions/a1/environments/${trick}/events`), { kind: 'protocol', status });
      await assert.rejects(clientOf().runAction(`/api/actions/a1/environments/${trick}/events`, {}), { kind: 'protocol', status });
      assert.deepEqual(foreign.requests, []);
    });
  }

  it('same-origin absolute and relative URLs keep working', async () => {
    for (const trick of ['same-origin', 'relative']) {
      const [action] = await clientOf().listActions(trick);
      assert.equal(action?.eventsUrls.Test, server.url + EVENTS_OF('test'));
    }
    server.events.push('{"id":"e1","name":"success"}');
    const page = await clientOf().listEvents(`${server.url}${EVENTS_OF('list')}`);
    assert.deepEqual(
      page.events.map((e) => e.id),
      ['e1'],
    );
    assert.equal((await clientOf().runAction(`${server.url}${EVENTS_OF('list')}`, {})).id, 'run');
    const created = await clientOf().createAction('same-origin', ADD_ACTION);
    assert.deepEqual([created.id, created.location], ['a1', `${server.url}/api/action/a1`]);
    assert.deepEqual(foreign.requests, []);
  });
});

describe('the origin rule, on its own', () => {
  for (const [base, url, same] of [
    ['https://api.example.com/', 'https://api.example.com/api/x', true],
    ['https://api.example.com/', 'HTTPS://API.EXAMPLE.COM:443/api/x', true],
    ['https://api.example.com/prefix/', 'https://api.example.com/elsewhere/x', true],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/api/x?page=2', true],
    ['https://api.example.com/', 'http://api.example.com/api/x', false],
    ['https://api.example.com/', 'https://api.example.com:8443/api/x', false],
    ['https://api.example.com/', 'https://example.com/api/x', false],
    ['https://api.example.com/', 'https://api.example.com.evil.test/api/x', false],
    ['https://api.example.com/', 'https://api.example.com@evil.test/api/x', false],
    ['http://127.0.0.1:8080/', 'http://localhost:8080/api/x', false],
    ['http://127.0.0.1:8080/', 'http://127.0.0.2:8080/api/x', false],
    ['http://127.0.0.1:8080/', 'file:///etc/passwd', false],
    ['http://127.0.0.1:8080/', 'javascript:alert(1)', false],
  ] as const) {
    it(`${url} under ${base}: ${same ? 'used' : 'refused'}`, () => {
      const check = () => onBaseOrigin(new URL(base), new URL(url), 'listEvents');
      if (same) assert.equal(check().href, new URL(url).href);
      else assert.throws(check, ForeignOriginError);
    });
  }
});
