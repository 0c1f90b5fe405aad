/**
 * The two transports (undici's pools in Node, fetch in a browser) held to the same cases over real
 * HTTP: headers and bodies both ways, a redirect refused with nothing sent on, a body over the limit,
 * a time-out, a cancellation, a refused connection. Each case runs once through the transport and once
 * through the client above it, so what the user is told does not depend on the platform.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { ApiError, createClient, TRANSPORT_ERROR, TransportError, type Transport } from '../../src/core/client';
import { createFetchTransport } from '../../src/core/client/fetchTransport';
import { createNodeTransport } from '../../src/core/client/nodeTransport';
import { type Listener, startForeignListener } from '../support/hostileServer';
import { eventually } from '../support/eventually';

const KEY = 'key-transport-8a41c2';

interface Server {
  readonly url: string;
  readonly requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

async function startServer(redirectTo: string): Promise<Server> {
  const requests: Server['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').replace(/^\/api\/application\/([^/]+)\/actions.*$/, '$1');
      if (path === 'ok' || path === 'bom') {
        res.writeHead(200, { 'content-type': 'application/json', ETag: '"v1"', 'X-Many': ['a', 'b'] });
        res.end(`${path === 'bom' ? '\uFEFF' : ''}[{"id":"a1","key":"k","name":"é"}]`);
      } else if (path === 'redirect') {
        res.writeHead(302, { location: `${redirectTo}/api/application/ok/actions` });
        res.end();
      } else if (path === 'big-declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4096) });
        res.end('x'.repeat(4096));
      } else if (path === 'big-chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < 8; i++) res.write('y'.repeat(512));
        res.end();
      } else if (path === 'conflict') {
        res.writeHead(412, { 'content-type': 'application/problem+json', etag: '"v9"' });
        res.end(JSON.stringify({ title: 'Precondition Failed', detail: 'changed since' }));
      } else if (path === 'slow') {
        // Never answers: the time-out or the cancellation ends the request.
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function refusedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  return call().then(
    (value) => assert.fail(`expected a failure, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

const TRANSPORTS: Record<string, () => Transport> = {
  'Node (undici pools)': () => createNodeTransport(),
  'browser (fetch)': () => createFetchTransport(),
};

for (const [name, make] of Object.entries(TRANSPORTS)) {
  describe(`transport: ${name}`, () => {
    let transport: Transport;
    let server: Server;
    let foreign: Listener;

    beforeEach(async () => {
      transport = make();
      foreign = await startForeignListener();
      server = await startServer(foreign.url);
    });

    afterEach(async () => {
      await transport.close();
      await server.close();
      await foreign.close();
    });

    const request = (path: string, overrides: { maxBodyBytes?: number; signal?: AbortSignal; method?: string; body?: string } = {}) =>
      transport.request({
        url: new URL(`${server.url}/api/application/${path}/actions`),
        method: overrides.method ?? 'GET',
        headers: { accept: 'application/json', 'if-none-match': '"v0"' },
        body: overrides.body,
        signal: overrides.signal ?? AbortSignal.timeout(5_000),
        timeoutMs: 5_000,
        maxBodyBytes: overrides.maxBodyBytes ?? 1_000,
      });
    const clientOf = (timeoutMs = 5_000) => createClient({ baseUrl: server.url, getKey: () => Promise.resolve(KEY), timeoutMs, retries: 0, transport });

    it('sends the headers and the body, and hands back the status, lower-cased headers and the text with its BOM', async () => {
      const response = await request('bom', { method: 'PUT', body: '{"a":"ü"}' });
      assert.equal(response.status, 200);
      assert.equal(response.headers.etag, '"v1"');
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers['x-many'], 'a, b');
      assert.equal(response.text, '\uFEFF[{"id":"a1","key":"k","name":"é"}]');
      const [sent] = server.requests;
      assert.equal(sent?.method, 'PUT');
      assert.equal(sent?.headers['if-none-match'], '"v0"');
      assert.equal(sent?.body, '{"a":"ü"}');
    });

    it('through the client: the key and the headers reach the server, the list is read', async () => {
      const actions = await clientOf().listActions('ok');
      assert.deepEqual(
        actions.map((a) => a.id),
        ['a1'],
      );
      assert.equal(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
    });

    it('follows no redirect: nothing reaches where it points, and the client calls it a protocol error', async () => {
      const response = await request('redirect').catch((error: unknown) => error);
      // undici hands the 3xx back; a browser's fetch hides it behind an opaque redirect (the stub below).
      if (response instanceof TransportError) assert.equal(response.code, TRANSPORT_ERROR.redirect);
      else assert.equal((response as { status: number }).status, 302);
      const error = await failure(() => clientOf().listActions('redirect'));
      assert.ok(error instanceof ApiError);
      assert.equal(error.kind, 'protocol');
      assert.deepEqual(foreign.requests, [], 'the redirect was followed');
    });

    it('refuses a body over the limit, declared or streamed', async () => {
      for (const path of ['big-declared', 'big-chunked']) {
        const error = await failure(() => request(path));
        assert.ok(error instanceof TransportError, String(error));
        assert.equal(error.code, TRANSPORT_ERROR.bodyTooLarge, path);
      }
    });

    it('a 412 reaches the client with the version that holds now', async () => {
      const error = await failure(() => clientOf().listActions('conflict'));
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 412);
    });

    it('ends at the time-out, which the client calls a time-out', async () => {
      const error = await failure(() => request('slow', { signal: AbortSignal.timeout(150) }));
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.code, TRANSPORT_ERROR.timeout);
      const viaClient = await failure(() => clientOf(150).listActions('slow'));
      assert.ok(viaClient instanceof ApiError);
      assert.equal(viaClient.kind, 'timeout');
    });

    it('ends when the caller cancels, which the client calls a cancellation', async () => {
      const controller = new AbortController();
      const settled = failure(() => clientOf().listActions('slow', { signal: controller.signal }));
      // Cancelled once the server holds it: in flight, not before it left.
      await eventually(() => (server.requests.some((r) => r.url.startsWith('/api/application/slow/')) ? true : undefined), 'the request at the server');
      controller.abort();
      const error = await settled;
      assert.ok(error instanceof ApiError);
      assert.equal(error.kind, 'cancelled');
    });

    it('a refused connection is a network error naming ECONNREFUSED', async () => {
      const port = await refusedPort();
      const error = await failure(() =>
        transport.request({
          url: new URL(`http://127.0.0.1:${port}/api`),
          method: 'GET',
          headers: {},
          signal: AbortSignal.timeout(5_000),
          timeoutMs: 5_000,
          maxBodyBytes: 1_000,
        }),
      );
      assert.ok(error instanceof TransportError, String(error));
      assert.equal(error.code, 'ECONNREFUSED');
      const viaClient = await failure(() =>
        createClient({ baseUrl: `http://127.0.0.1:${port}`, getKey: () => Promise.resolve(KEY), retries: 0, transport }).listActions('ok'),
      );
      assert.ok(viaClient instanceof ApiError);
      assert.equal(viaClient.kind, 'network');
      assert.match(viaClient.message, /ECONNREFUSED/);
      assert.ok(!viaClient.message.includes(KEY));
    });
  });
}

describe('transport: browser (fetch) as a browser answers', () => {
  it('an opaque redirect (what a browser hands back for redirect: manual) is refused, and the client says so', async () => {
    let init: RequestInit | undefined;
    const transport = createFetchTransport({
      fetch: (_url, given) => {
        init = given;
        return Promise.resolve({ type: 'opaqueredirect', status: 0, headers: new Headers(), body: null } as unknown as Response);
      },
    });
    const error = await failure(() =>
      createClient({ baseUrl: 'https://server.example', getKey: () => Promise.resolve(KEY), retries: 0, transport }).listActions('app'),
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'protocol');
    assert.match(error.message, /redirect, which is not followed/);
    assert.equal(init?.redirect, 'manual');
    assert.equal(init?.credentials, 'omit');
    assert.equal((init as { cache?: string }).cache, 'no-store');
  });

  it('leaves the User-Agent to the browser (one header fewer for a server’s preflight to allow)', async () => {
    let headers: Record<string, string> = {};
    const transport = createFetchTransport({
      fetch: (_url, given) => {
        headers = given.headers as Record<string, string>;
        return Promise.resolve(new Response('[]', { status: 200 }));
      },
    });
    await createClient({ baseUrl: 'https://server.example', getKey: () => Promise.resolve(KEY), retries: 0, transport }).listActions('app');
    assert.equal(headers['user-agent'], undefined);
    assert.equal(headers.authorization, `Bearer ${KEY}`);
  });

  it('a request that did not get through, for a reason the browser does not name, is a network error', async () => {
    const transport = createFetchTransport({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    const error = await failure(() =>
      createClient({ baseUrl: 'https://server.example', getKey: () => Promise.resolve(KEY), retries: 0, transport }).listActions('app'),
    );
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'network');
    assert.match(error.message, /NETWORK/);
  });
});
