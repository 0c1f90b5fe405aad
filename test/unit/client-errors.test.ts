import assert from 'node:assert/strict';
import { ApiError } from '../../src/core/client';
import { client, closeServers, KEY, rejection, reset, send, startServer } from './client-server.test';
import { ADD_ACTION as METADATA } from '../support/metadata';

async function failure(fn: () => Promise<unknown>): Promise<ApiError> {
  const error = await rejection(fn);
  assert.ok(error instanceof ApiError, `not an ApiError: ${String(error)}`);
  return error;
}

describe('client errors', () => {
  afterEach(closeServers);

  for (const [status, kind] of [
    [400, 'validation'],
    [401, 'auth'],
    [403, 'forbidden'],
    [404, 'not-found'],
    [409, 'conflict'],
    [413, 'too-large'],
    [415, 'protocol'],
    [422, 'validation'],
    [429, 'rate-limited'],
    [500, 'server'],
  ] as const) {
    it(`${status} is ${kind}`, async () => {
      const server = await startServer((_req, res) => send(res, status));
      const error = await failure(() => client(server, { retries: 0 }).updateAction('a', METADATA));
      assert.deepEqual([error.kind, error.status, error.operation], [kind, status, 'updateAction']);
      assert.match(error.message, /^Updating the metadata failed \(HTTP \d+\)/);
    });
  }

  it('reads problem JSON: code, detail and the failing fields', async () => {
    const server = await startServer((_req, res) =>
      send(
        res,
        422,
        {
          type: 'about:blank',
          title: 'Invalid',
          status: 422,
          code: 'validation-failed',
          detail: 'The metadata is invalid',
          errors: [{ path: 'parameters/0/name', message: 'required' }],
        },
        { 'content-type': 'application/problem+json' },
      ),
    );
    const error = await failure(() => client(server).createAction('app', METADATA));
    assert.deepEqual([error.kind, error.code, error.serverMessage], ['validation', 'validation-failed', 'The metadata is invalid']);
    assert.deepEqual(error.fields, [{ path: 'parameters/0/name', message: 'required' }]);
    assert.match(error.message, /parameters\/0\/name: required/);
    assert.match(error.message, /^Creating the action failed/);
  });

  for (const [label, body, expected] of [
    ['{message}', { message: 'nope' }, 'nope'],
    ['{error: string}', { error: 'bad thing' }, 'bad thing'],
    ['{error: {message, code}}', { error: { message: 'nested', code: 'E1' } }, 'nested'],
    ['plain text', 'service unavailable for maintenance', 'service unavailable for maintenance'],
    ['an HTML page', '<html><body>Bad Request</body></html>', undefined],
    ['nothing', undefined, undefined],
  ] as const) {
    it(`reads an error body of ${label}`, async () => {
      const server = await startServer((_req, res) => send(res, 400, body));
      const error = await failure(() => client(server).updateAction('a', METADATA));
      assert.equal(error.serverMessage, expected);
      assert.equal(error.kind, 'validation');
      if (expected === undefined) assert.match(error.message, /the server answered 400/);
    });
  }

  it('never carries the key, even when the server echoes it back', async () => {
    const server = await startServer((req, res) =>
      send(res, 401, {
        message: `invalid key ${KEY} in header ${String(req.headers.authorization)}`,
        errors: [{ path: KEY, message: `not ${KEY}` }],
        code: KEY,
      }),
    );
    const error = await failure(() => client(server).listActions('app'));
    assert.equal(error.kind, 'auth');
    const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
    assert.ok(!everything.includes(KEY), everything);
    assert.match(error.message, /^Listing the actions failed \(HTTP 401\)/);
    assert.match(error.hint ?? '', /sign in again with a new key/i);
  });

  it('asks for a key instead of sending a request without one', async () => {
    const server = await startServer((_req, res) => send(res, 200, []));
    const error = await failure(() => client(server, { getKey: () => Promise.resolve(undefined) }).listActions('app'));
    assert.equal(error.kind, 'auth');
    assert.equal(server.requests.length, 0);
  });

  it('an unreachable server is a network error with a hint about the base URL', async () => {
    const server = await startServer((_req, res) => send(res, 200, []));
    await server.close();
    const error = await failure(() => client(server, { retries: 0 }).listActions('app'));
    assert.equal(error.kind, 'network');
    assert.equal(error.retryable, true);
    assert.match(error.hint ?? '', /server running.*base URL/i);
    assert.match(error.message, /^Listing the actions failed/);
  });

  it('a reset connection is a network error', async () => {
    const server = await startServer((_req, res) => reset(res));
    const error = await failure(() => client(server, { retries: 1 }).listActions('app'));
    assert.equal(error.kind, 'network');
    assert.equal(server.requests.length, 2);
  });

  it('a body that trickles in past the time-out is a time-out', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const error = await failure(() => client(server, { timeoutMs: 400, retries: 0 }).listActions('app'));
    assert.equal(error.kind, 'timeout');
    assert.match(error.hint ?? '', /requestTimeoutSeconds/);
  });

  it('cancelling a request in flight is cancelled, not retried', async () => {
    const server = await startServer(() => undefined);
    const controller = new AbortController();
    const pending = client(server).listActions('app', { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const error = await failure(() => pending);
    assert.deepEqual([error.kind, error.retryable], ['cancelled', false]);
    assert.equal(server.requests.length, 1);
  });

  it('an already cancelled signal sends nothing', async () => {
    const server = await startServer((_req, res) => send(res, 200, []));
    const error = await failure(() => client(server).createAction('app', METADATA, { signal: AbortSignal.abort() }));
    assert.equal(error.kind, 'cancelled');
    assert.equal(server.requests.length, 0);
  });

  it('cancelling a create during its recovery does not send it again', async () => {
    const controller = new AbortController();
    const server = await startServer((req, res) => {
      if (req.method === 'POST') return send(res, 500);
      controller.abort();
      return undefined;
    });
    const error = await failure(() => client(server).createAction('app', METADATA, { signal: controller.signal }));
    assert.equal(error.kind, 'cancelled');
    assert.equal(server.count('POST', '/api/application/app/actions'), 1);
  });
});
