import assert from 'node:assert/strict';
import { client, closeServers, entry, KEY, send, startServer, type TestServer } from './client-server.test';
import { ADD_ACTION as METADATA } from '../support/metadata';

describe('client operations: what goes over the wire', () => {
  afterEach(closeServers);

  it('sends the Bearer key, the spec headers and the bodies of all six operations', async () => {
    const server = await startServer((req, res) => {
      if (req.method === 'POST') return send(res, 201, undefined, { location: '/api/action/a1' });
      if (req.method === 'GET' && req.path.endsWith('/events')) return send(res, 200, []);
      if (req.method === 'GET') return send(res, 200, [entry('a1', 'add')], { 'content-type': 'application/vnd.restful+json' });
      return send(res, 204);
    });
    const c = client(server, { userAgent: 'tests/1' });
    const created = await c.createAction('app-1', METADATA);
    await c.updateAction(created.id, METADATA);
    await c.putImplementation(created.id, 'export function main() {}');
    const [listed] = await c.listActions('app-1');
    await c.listEvents(listed?.eventsUrls.Test ?? '');
    await c.deleteAction(created.id);

    const [create, update, code, list, events, del] = server.requests;
    for (const r of server.requests) {
      assert.equal(r.headers.authorization, `Bearer ${KEY}`);
      assert.equal(r.headers['user-agent'], 'tests/1');
    }
    assert.deepEqual([create?.method, create?.path], ['POST', '/api/application/app-1/actions']);
    assert.equal(create?.headers['content-type'], 'application/json');
    assert.equal(create?.headers.accept, 'application/json');
    assert.deepEqual(JSON.parse(create?.body ?? ''), METADATA);
    assert.deepEqual([update?.method, update?.path, update?.headers['content-type']], ['PUT', '/api/actions/a1', 'application/json']);
    assert.deepEqual(JSON.parse(update?.body ?? ''), METADATA);
    assert.deepEqual([code?.method, code?.path], ['PUT', '/api/actions/a1/implementation']);
    assert.equal(code?.headers['content-type'], 'application/typescript');
    assert.equal(code?.headers.accept, 'application/json');
    assert.equal(code?.body, 'export function main() {}');
    assert.deepEqual([list?.method, list?.path, list?.headers.accept], ['GET', '/api/application/app-1/actions', 'application/json']);
    assert.deepEqual([events?.method, events?.path, events?.headers.accept], ['GET', '/api/actions/a1/environments/test/events', 'application/json']);
    assert.deepEqual([del?.method, del?.path, del?.headers['content-type'], del?.body], ['DELETE', '/api/actions/a1', 'application/json', '']);
    assert.equal(created.location, '/api/action/a1');
  });

  it('encodes ids in paths', async () => {
    const server = await startServer((_req, res) => send(res, 204));
    await client(server).updateAction('a/b c', METADATA);
    assert.equal(server.requests[0]?.path, '/api/actions/a%2Fb%20c');
  });

  it('reads the key on every request, so a new key takes effect at once', async () => {
    const server = await startServer((_req, res) => send(res, 200, []));
    let key = 'first-key-1234';
    const c = client(server, { getKey: () => Promise.resolve(key) });
    await c.listActions('app');
    key = 'second-key-5678';
    await c.listActions('app');
    assert.deepEqual(
      server.requests.map((r) => r.headers.authorization),
      ['Bearer first-key-1234', 'Bearer second-key-5678'],
    );
  });

  describe('tolerates what the spec leaves open', () => {
    for (const [label, status, body, headers, resourceKey] of [
      ['201, Location /api/action/<id>, no body', 201, undefined, { location: '/api/action/x1' }, undefined],
      // A Location on another origin is refused (client-hostile.test.ts); {origin} is the test server's.
      ['201, absolute Location /api/actions/<id>/', 201, undefined, { location: '{origin}/api/actions/x1/?v=1' }, undefined],
      ['200 with the resource and no Location', 200, { ...METADATA, id: 'x1' }, {}, 'add'],
      ['201 with a wrapped resource and a relative Location', 201, { action: { ...METADATA, id: 'x1' } }, { location: 'api/action/x1' }, 'add'],
      ['201 with only an id in the body', 201, { id: 'x1' }, {}, undefined],
      ['201 with a numeric id', 201, { id: 1 }, { location: '/api/action/x1' }, undefined],
    ] as const) {
      it(`create: ${label}`, async () => {
        const server: TestServer = await startServer((_req, res) =>
          send(res, status, body, 'location' in headers ? { location: headers.location.replace('{origin}', server.url) } : headers),
        );
        const created = await client(server).createAction('app', METADATA);
        assert.equal(created.id, 'x1');
        assert.equal(created.recovered, false);
        assert.equal(created.resource?.key, resourceKey);
        assert.equal(server.requests.length, 1);
      });
    }

    for (const [status, body] of [
      [200, undefined],
      [200, { ok: true }],
      [201, 'updated'],
      [204, undefined],
    ] as const) {
      it(`update, code and delete accept ${status} ${body === undefined ? 'without a body' : 'with a body'}`, async () => {
        const server = await startServer((_req, res) => send(res, status, body));
        const c = client(server);
        await c.updateAction('a', METADATA);
        await c.putImplementation('a', 'x');
        await c.deleteAction('a');
        assert.equal(server.requests.length, 3);
      });
    }

    for (const [label, body] of [
      ['a bare array', [entry('1', 'one')]],
      ['{items}', { items: [entry('1', 'one')] }],
      ['{actions}', { actions: [entry('1', 'one')] }],
      ['{data}', { data: [entry('1', 'one')], total: 1 }],
    ] as const) {
      it(`list: ${label}`, async () => {
        const server = await startServer((_req, res) => send(res, 200, body, { 'content-type': 'application/vnd.restful+json' }));
        const [a] = await client(server).listActions('app');
        assert.equal(a?.id, '1');
        assert.equal(a?.key, 'one');
      });
    }

    it('list: numeric ids, missing fields, lower-case environments, entries without a key skipped', async () => {
      const server = await startServer((_req, res) => send(res, 200, [{ id: 7, key: 'k', eventsUrls: { test: '/t/events' } }, { id: 8 }]));
      const list = await client(server).listActions('app');
      assert.deepEqual(list, [{ id: '7', key: 'k', name: 'k', description: '', eventsUrls: { Test: `${server.url}/t/events` } }]);
    });

    it('list: an empty answer is an empty list; a non-list is a protocol error', async () => {
      let empty = true;
      const server = await startServer((_req, res) => (empty ? send(res, 204) : send(res, 200, { message: 'hello' })));
      assert.deepEqual(await client(server).listActions('app'), []);
      empty = false;
      await assert.rejects(client(server).listActions('app'), { name: 'ApiError', kind: 'protocol', operation: 'listActions' });
    });

    it('events URLs: relative ones resolve against the base URL (keeping its prefix), absolute ones are used verbatim', async () => {
      const server = await startServer((req, res) => {
        if (req.path === '/prefix/api/application/app/actions') {
          return send(res, 200, [
            entry('1', 'rel'),
            { ...entry('2', 'abs'), eventsUrls: { Test: 'http://127.0.0.1:1/api/x/events', Live: '/prefix/api/y/events' } },
          ]);
        }
        return send(res, 200, []);
      });
      const [rel, abs] = await client(server, { baseUrl: `${server.url}/prefix` }).listActions('app');
      assert.equal(rel?.eventsUrls.Test, `${server.url}/prefix/api/actions/1/environments/test/events`);
      assert.equal(abs?.eventsUrls.Test, 'http://127.0.0.1:1/api/x/events');
      assert.equal(abs?.eventsUrls.Live, `${server.url}/prefix/api/y/events`);
      await client(server, { baseUrl: `${server.url}/prefix/` }).listEvents(rel?.eventsUrls.Test ?? '');
      assert.equal(server.requests[1]?.path, '/prefix/api/actions/1/environments/test/events');
    });
  });

  describe('extras', () => {
    it('getAction returns the resource with its id and resolved events URLs', async () => {
      const server = await startServer((_req, res) => send(res, 200, { ...METADATA, id: 'a1', eventsUrls: { Test: '/e/events' } }));
      const action = await client(server).getAction('a1');
      assert.equal(action.id, 'a1');
      assert.equal(action.key, 'add');
      assert.deepEqual(action.eventsUrls, { Test: `${server.url}/e/events` });
      assert.equal(server.requests[0]?.path, '/api/actions/a1');
    });

    it('getImplementation returns the text, and undefined when there is no code yet (but not when the action is missing)', async () => {
      let mode: 'code' | 'json' | 'none' | 'gone' = 'code';
      const server = await startServer((_req, res) => {
        if (mode === 'code') return send(res, 200, 'export function main() {}', { 'content-type': 'application/typescript' });
        if (mode === 'json') return send(res, 200, { source: 'from json' });
        if (mode === 'none') return send(res, 404, { code: 'no-implementation', title: 'No code' }, { 'content-type': 'application/problem+json' });
        return send(res, 404, { code: 'not-found', title: 'No such action' }, { 'content-type': 'application/problem+json' });
      });
      const c = client(server);
      assert.equal(await c.getImplementation('a1'), 'export function main() {}');
      assert.match(String(server.requests[0]?.headers.accept), /application\/typescript/);
      mode = 'json';
      assert.equal(await c.getImplementation('a1'), 'from json');
      mode = 'none';
      assert.equal(await c.getImplementation('a1'), undefined);
      mode = 'gone';
      await assert.rejects(c.getImplementation('a1'), { kind: 'not-found' });
    });

    it('runAction posts the inputs beside the events URL and normalises the event; never retried', async () => {
      const server = await startServer((req, res) =>
        req.index === 0
          ? send(res, 200, { event: { id: 'e1', name: 'success', data: { timings: { startTime: 1_700_000_000_000, duration: 5 }, logs: [], result: 3 } } })
          : send(res, 503),
      );
      const c = client(server);
      const event = await c.runAction('/api/actions/a1/environments/test/events', 'Test', [1, 2]);
      assert.deepEqual([event.id, event.ok, event.result], ['e1', true, 3]);
      const [run] = server.requests;
      assert.deepEqual([run?.method, run?.path, run?.headers['content-type']], ['POST', '/api/actions/a1/environments/test/runs', 'application/json']);
      assert.deepEqual(JSON.parse(run?.body ?? ''), { inputs: [1, 2] });
      await assert.rejects(c.runAction({ Live: `${server.url}/api/actions/a1/environments/live/events` }, 'Live', { a: 1 }), { kind: 'server' });
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[1]?.path, '/api/actions/a1/environments/live/runs');
      await assert.rejects(c.runAction({}, 'Test', []), { kind: 'protocol' });
    });

    it('runAction also takes the events URL and inputs alone', async () => {
      const server = await startServer((_req, res) => send(res, 200, { id: 'e2', name: 'failure', data: { error: 'boom' } }));
      const event = await client(server).runAction(`${server.url}/api/actions/a/environments/t/events`, { a: 1 });
      assert.deepEqual([event.ok, event.error?.message], [false, 'boom']);
    });
  });
});
