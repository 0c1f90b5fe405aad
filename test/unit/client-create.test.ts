import assert from 'node:assert/strict';
import { type ServerResponse } from 'node:http';
import { ApiError } from '../../src/core/client';
import { client, closeServers, entry, type Recorded, rejection, reset, send, startServer } from './client-server.test';
import { ADD_ACTION as METADATA } from '../support/metadata';

const CREATE = '/api/application/app/actions';

/**
 * A server that keeps its actions, so a create it "lost" the answer to is still in the list. `onPost`
 * decides each POST: whether the action is stored, and how the server answers.
 */
async function storingServer(onPost: (n: number) => { store: boolean; answer: (res: ServerResponse) => void }) {
  const actions: { id: string; key: string }[] = [];
  let posts = 0;
  const server = await startServer((req: Recorded, res) => {
    if (req.method === 'GET')
      return send(
        res,
        200,
        actions.map((a) => entry(a.id, a.key)),
      );
    const { store, answer } = onPost(posts++);
    if (store) {
      const key = (JSON.parse(req.body) as { key: string }).key;
      if (actions.some((a) => a.key === key)) return send(res, 409, { code: 'key-conflict', title: 'Key taken' });
      actions.push({ id: `id-${actions.length + 1}`, key });
    }
    return answer(res);
  });
  return { server, actions };
}

const created = (res: ServerResponse, id = 'id-1') => send(res, 201, undefined, { location: `/api/action/${id}` });

describe('client create: never a duplicate after an ambiguous failure', () => {
  afterEach(closeServers);

  for (const [label, answer] of [
    ['a 500', (res: ServerResponse) => send(res, 500)],
    ['a reset connection', reset],
    ['a 201 without Location or id', (res: ServerResponse) => send(res, 201)],
  ] as const) {
    it(`${label} after the action was stored: found by key in the list, not sent again`, async () => {
      const { server, actions } = await storingServer(() => ({ store: true, answer }));
      const result = await client(server).createAction('app', METADATA);
      assert.deepEqual([result.id, result.recovered], ['id-1', true]);
      assert.equal(actions.length, 1);
      assert.equal(server.count('POST', CREATE), 1);
      assert.equal(server.count('GET', CREATE), 1);
    });
  }

  it('a 500 before anything was stored: not in the list, so sent once more', async () => {
    const { server, actions } = await storingServer((n) =>
      n === 0 ? { store: false, answer: (res) => send(res, 500) } : { store: true, answer: (res) => created(res) },
    );
    const result = await client(server).createAction('app', METADATA);
    assert.deepEqual([result.id, result.recovered], ['id-1', false]);
    assert.equal(actions.length, 1);
    assert.equal(server.count('POST', CREATE), 2);
  });

  it('a time-out after the server stored it: found by key', async () => {
    const { server, actions } = await storingServer(() => ({ store: true, answer: () => undefined }));
    const result = await client(server, { timeoutMs: 300 }).createAction('app', METADATA);
    assert.deepEqual([result.id, result.recovered], ['id-1', true]);
    assert.equal(actions.length, 1);
    assert.equal(server.count('POST', CREATE), 1);
  });

  it('a key conflict in answer to the second try means the first one landed: resolved by key', async () => {
    // The list lags behind the store (an eventually consistent server): the first look finds nothing.
    const stored: string[] = [];
    let lists = 0;
    const server = await startServer((req, res) => {
      if (req.method === 'GET') return send(res, 200, lists++ === 0 ? [] : stored.map((k, i) => entry(`id-${i + 1}`, k)));
      if (stored.length) return send(res, 409, { code: 'key-conflict', title: 'Key taken' });
      stored.push('add');
      return send(res, 502);
    });
    const result = await client(server).createAction('app', METADATA);
    assert.deepEqual([result.id, result.recovered], ['id-1', true]);
    assert.equal(server.count('POST', CREATE), 2);
    assert.equal(stored.length, 1);
  });

  it('a key conflict on the first try is a plain conflict', async () => {
    const server = await startServer((req, res) =>
      req.method === 'GET' ? send(res, 200, [entry('id-9', 'add')]) : send(res, 409, { code: 'key-conflict', detail: 'key "add" exists' }),
    );
    const error = await rejection(() => client(server).createAction('app', METADATA));
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.kind, error.code, error.operation], ['conflict', 'key-conflict', 'createAction']);
    assert.equal(server.count('GET', CREATE), 0);
  });

  it('a full application (409 limit-reached) after an ambiguous failure is not taken for the action existing', async () => {
    const server = await startServer((req, res) =>
      req.method === 'GET' ? send(res, 200, []) : req.index === 0 ? send(res, 500) : send(res, 409, { code: 'limit-reached', detail: 'at most 1 action' }),
    );
    const error = await rejection(() => client(server).createAction('app', METADATA));
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.kind, error.code], ['conflict', 'limit-reached']);
    assert.match(error.hint ?? '', /delete one first/);
    assert.equal(server.count('POST', CREATE), 2);
  });

  it('a validation error is not ambiguous: no lookup, no second try', async () => {
    const server = await startServer((_req, res) => send(res, 422, { code: 'validation-failed', errors: [{ path: 'key', message: 'bad' }] }));
    await assert.rejects(client(server).createAction('app', METADATA), { kind: 'validation' });
    assert.equal(server.requests.length, 1);
  });

  it('when the list cannot be read after an ambiguous failure, the create fails with its own error and is not sent again', async () => {
    const server = await startServer((_req, res) => send(res, 500, { message: 'down' }));
    const error = await rejection(() => client(server, { retries: 0 }).createAction('app', METADATA));
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.operation, error.kind], ['createAction', 'server']);
    assert.equal(server.count('POST', CREATE), 1);
  });

  it('two failures and still not in the list: the second error is thrown after exactly two POSTs', async () => {
    const server = await startServer((req, res) => (req.method === 'GET' ? send(res, 200, []) : send(res, 503)));
    await assert.rejects(client(server).createAction('app', METADATA), { kind: 'server', operation: 'createAction' });
    assert.equal(server.count('POST', CREATE), 2);
  });

  it('a refused connection (nothing sent) is not ambiguous', async () => {
    const server = await startServer((_req, res) => send(res, 200, []));
    const url = server.url;
    await server.close();
    await assert.rejects(client(server, { baseUrl: url }).createAction('app', METADATA), { kind: 'network', operation: 'createAction' });
  });
});

describe("client create: a caller's retry after the client could not tell whether the create landed", () => {
  afterEach(closeServers);

  /**
   * A server that stores the first POST but resets its answer, and cannot list while `listing` is
   * false; later POSTs of a stored key get a key conflict. GET of an action answers what `stored` says.
   */
  async function forgetfulServer(stored: (sent: Record<string, unknown>) => Record<string, unknown> = (sent) => sent) {
    const actions: { id: string; metadata: Record<string, unknown> }[] = [];
    const state = { listing: false };
    const server = await startServer((req, res) => {
      if (req.method === 'GET' && req.path === CREATE) {
        if (!state.listing) return send(res, 503, { title: 'down' });
        return send(
          res,
          200,
          actions.map((a) => entry(a.id, String(a.metadata.key))),
        );
      }
      if (req.method === 'GET') {
        const found = actions.find((a) => req.path === `/api/actions/${a.id}`);
        return found ? send(res, 200, { ...found.metadata, id: found.id }) : send(res, 404, { code: 'not-found' });
      }
      const sent = JSON.parse(req.body) as Record<string, unknown>;
      if (actions.some((a) => a.metadata.key === sent.key)) return send(res, 409, { code: 'key-conflict', title: 'Key taken' });
      actions.push({ id: `id-${actions.length + 1}`, metadata: stored(sent) });
      return reset(res);
    });
    return { server, actions, state };
  }

  it('the client gives up with the ambiguous error, and the retry resolves the key conflict to the action that landed', async () => {
    const { server, actions, state } = await forgetfulServer();
    const api = client(server, { retries: 0 });
    const first = await rejection(() => api.createAction('app', METADATA));
    assert.ok(first instanceof ApiError);
    assert.equal(first.kind, 'network');
    state.listing = true;
    const second = await api.createAction('app', METADATA);
    assert.deepEqual([second.id, second.recovered], ['id-1', true]);
    assert.equal(actions.length, 1);
    assert.equal(server.count('POST', CREATE), 2);
    // Settled: a third create of the key is a plain conflict again.
    await assert.rejects(api.createAction('app', METADATA), { kind: 'conflict', code: 'key-conflict' });
  });

  it('an action under that key with other metadata is not taken for the earlier create: a plain conflict', async () => {
    const { server, state } = await forgetfulServer((sent) => ({ ...sent, name: 'Someone else' }));
    const api = client(server, { retries: 0 });
    await assert.rejects(api.createAction('app', METADATA), { kind: 'network' });
    state.listing = true;
    await assert.rejects(api.createAction('app', METADATA), { kind: 'conflict', code: 'key-conflict' });
  });

  it('a retry with other metadata for the key is a plain conflict', async () => {
    const { server, state } = await forgetfulServer();
    const api = client(server, { retries: 0 });
    await assert.rejects(api.createAction('app', METADATA), { kind: 'network' });
    state.listing = true;
    await assert.rejects(api.createAction('app', { ...METADATA, name: 'Renamed' }), { kind: 'conflict' });
  });

  it('another client that never sent the create gets a plain conflict', async () => {
    const { server, state } = await forgetfulServer();
    await assert.rejects(client(server, { retries: 0 }).createAction('app', METADATA), { kind: 'network' });
    state.listing = true;
    await assert.rejects(client(server, { retries: 0 }).createAction('app', METADATA), { kind: 'conflict' });
  });

  it('while the list still cannot be read, the retry fails as unknown (not a conflict), and a later one resolves', async () => {
    const { server, state } = await forgetfulServer();
    const api = client(server, { retries: 0 });
    await assert.rejects(api.createAction('app', METADATA), { kind: 'network' });
    const still = await rejection(() => api.createAction('app', METADATA));
    assert.ok(still instanceof ApiError);
    assert.notEqual(still.kind, 'conflict');
    assert.ok(still.retryable);
    state.listing = true;
    const created = await api.createAction('app', METADATA);
    assert.deepEqual([created.id, created.recovered], ['id-1', true]);
    assert.equal(server.count('POST', CREATE), 3);
  });
});
