import assert from 'node:assert/strict';
import { ApiError } from '../../src/core/client';
import { backoff } from '../../src/core/client/http';
import { client, closeServers, rejection, reset, send, startServer } from './client-server.test';
import { ADD_ACTION as METADATA } from '../support/metadata';

describe('client retries', () => {
  afterEach(closeServers);

  for (const [label, failure] of [
    ['a 500', (res: Parameters<typeof send>[0]) => send(res, 500, { message: 'oops' })],
    ['a 503 with Retry-After', (res: Parameters<typeof send>[0]) => send(res, 503, undefined, { 'retry-after': '0' })],
    ['a 429 with Retry-After', (res: Parameters<typeof send>[0]) => send(res, 429, undefined, { 'retry-after': '0' })],
    ['a 408', (res: Parameters<typeof send>[0]) => send(res, 408)],
    ['a reset connection', reset],
  ] as const) {
    it(`GET, PUT and DELETE are sent again after ${label}`, async () => {
      const server = await startServer((req, res) =>
        req.index % 2 === 0 ? failure(res) : send(res, req.method === 'GET' ? 200 : 204, req.method === 'GET' ? [] : undefined),
      );
      const c = client(server);
      await c.listActions('app');
      await c.updateAction('a', METADATA);
      await c.deleteAction('a');
      assert.deepEqual(
        server.requests.map((r) => r.method),
        ['GET', 'GET', 'PUT', 'PUT', 'DELETE', 'DELETE'],
      );
    });
  }

  it('takes the wait from Retry-After (seconds or a date), capped, and otherwise backs off with jitter', async () => {
    const server = await startServer((req, res) =>
      send(res, 429, undefined, { 'retry-after': req.index === 0 ? '7' : new Date(Date.now() + 60_000).toUTCString() }),
    );
    const seconds = await rejection(() => client(server, { retries: 0 }).listActions('app'));
    assert.ok(seconds instanceof ApiError && seconds.kind === 'rate-limited');
    assert.equal(seconds.retryAfterMs, 7000);
    assert.equal(backoff(0, seconds.retryAfterMs), 7000);
    const date = await rejection(() => client(server, { retries: 0 }).listActions('app'));
    assert.ok(date instanceof ApiError && date.retryAfterMs !== undefined && date.retryAfterMs > 50_000);
    assert.equal(backoff(0, date.retryAfterMs), 30_000);
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(5_000, 250 * 2 ** attempt);
      const wait = backoff(attempt);
      assert.ok(wait >= ceiling / 2 && wait <= ceiling, `attempt ${attempt}: ${wait}`);
    }
  });

  it('with timeoutCoversRetries, the time-out bounds the request and its retries together (a server that never answers)', async () => {
    const server = await startServer(() => undefined);
    const started = Date.now();
    const error = await rejection(() => client(server, { timeoutMs: 400, retries: 3, timeoutCoversRetries: true }).listActions('app'));
    const took = Date.now() - started;
    assert.ok(error instanceof ApiError && error.kind === 'timeout', String(error));
    assert.ok(took < 900, `took ${took} ms for a 400 ms time-out`);
  });

  it('gives up after the configured number of retries, with the last error', async () => {
    const server = await startServer((_req, res) => send(res, 502, 'bad gateway'));
    const error = await rejection(() => client(server, { retries: 2 }).listActions('app'));
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.kind, error.status, error.retryable], ['server', 502, true]);
    assert.equal(server.requests.length, 3);
  });

  it('never retries what will not change: 4xx other than 408/429, and 501', async () => {
    for (const status of [400, 401, 403, 404, 409, 413, 422, 501]) {
      const server = await startServer((_req, res) => send(res, status));
      const error = await rejection(() => client(server).updateAction('a', METADATA));
      assert.ok(error instanceof ApiError && !error.retryable, `${status} was retryable`);
      assert.equal(server.requests.length, 1, `${status} was sent again`);
      await server.close();
    }
  });

  it('a DELETE retried after its answer was lost treats 404 as done', async () => {
    const server = await startServer((req, res) => (req.index === 0 ? reset(res) : send(res, 404)));
    await client(server).deleteAction('a');
    assert.equal(server.requests.length, 2);
  });

  it('a DELETE of a missing action on the first try is an error', async () => {
    const server = await startServer((_req, res) => send(res, 404));
    await assert.rejects(client(server).deleteAction('a'), { kind: 'not-found', operation: 'deleteAction' });
  });

  it('a run (POST) is never sent again', async () => {
    const server = await startServer((_req, res) => send(res, 503));
    await assert.rejects(client(server).runAction('/api/actions/a/environments/t/events', 'Test', []), { kind: 'server' });
    assert.equal(server.requests.length, 1);
  });

  it('cancelling during the backoff wait ends it at once as cancelled', async () => {
    const server = await startServer((_req, res) => send(res, 503, undefined, { 'retry-after': '20' }));
    const controller = new AbortController();
    const pending = client(server).listActions('app', { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await assert.rejects(pending, { kind: 'cancelled', operation: 'listActions' });
    assert.equal(server.requests.length, 1);
  });
});
