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
