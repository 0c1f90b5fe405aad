/**
 * Version tags and conditional writes: reads return the tag, writes send `If-Match` when asked and
 * return the new tag, a 412 is a VersionConflictError that is never sent again, and a retry after a
 * lost answer is not mistaken for a colleague's change. Servers that only speak the spec still work.
 */
import assert from 'node:assert/strict';
import { type ServerResponse } from 'node:http';
import { ApiError, NO_CAPABILITIES, VersionConflictError } from '../../src/core/client';
import { client, closeServers, rejection, reset, send, startServer } from './client-server.test';
import { ADD_ACTION as METADATA } from '../support/metadata';

const CODE_PATH = '/api/actions/a1/implementation';
const ACTION_PATH = '/api/actions/a1';
const MINE = 'export function main() { return "mine"; }';
const THEIRS = 'export function main() { return "theirs"; }';

function problem412(res: ServerResponse, etag?: string): void {
  send(
    res,
    412,
    { type: '/api/problems/precondition-failed', title: 'Precondition failed', status: 412, code: 'precondition-failed', detail: 'the code changed since' },
    {
      'content-type': 'application/problem+json',
      ...(etag ? { etag } : {}),
    },
  );
}

function code(res: ServerResponse, text: string, etag?: string): void {
  send(res, 200, text, { 'content-type': 'application/typescript', ...(etag ? { etag } : {}) });
}

describe('client conditional writes', () => {
  afterEach(closeServers);

  describe('version tags', () => {
    it('reads return the tag of what they read', async () => {
      const server = await startServer((req, res) => {
        if (req.path === ACTION_PATH) return send(res, 200, { ...METADATA, id: 'a1', eventsUrls: {} }, { etag: '"meta-3"' });
        return code(res, MINE, '"code-2"');
      });
      const c = client(server);
      const action = await c.getActionVersioned('a1');
      assert.deepEqual([action.action.id, action.action.key, action.etag], ['a1', 'add', '"meta-3"']);
      assert.deepEqual(await c.getImplementationVersioned('a1'), { code: MINE, etag: '"code-2"' });
      // The plain reads are unchanged.
      assert.equal(await c.getImplementation('a1'), MINE);
      assert.equal((await c.getAction('a1')).key, 'add');
    });

    it('no code yet is no code and no tag; the action missing is an error', async () => {
      let gone = false;
      const server = await startServer((_req, res) =>
        send(res, 404, { code: gone ? 'not-found' : 'no-implementation', title: 'No' }, { 'content-type': 'application/problem+json', etag: '"code-9"' }),
      );
      const c = client(server);
      assert.deepEqual(await c.getImplementationVersioned('a1'), { code: undefined, etag: undefined });
      gone = true;
      await assert.rejects(c.getImplementationVersioned('a1'), { kind: 'not-found' });
    });

    it('keeps only a strong tag: a weak one could never match If-Match, and two are one too many', async () => {
      const tags = ['W/"code-2"', '"code-1", "code-2"', '', `"${'x'.repeat(2000)}"`];
      const server = await startServer((req, res) => code(res, MINE, tags[req.index]));
      const c = client(server);
      for (const tag of tags) assert.equal((await c.getImplementationVersioned('a1')).etag, undefined, `ETag: ${tag.slice(0, 20)}`);
    });

    it('writes send If-Match only when asked, and return the tag of what they wrote', async () => {
      let n = 0;
      const server = await startServer((req, res) => {
        n++;
        if (req.method === 'POST') return send(res, 201, { ...METADATA, id: 'a1' }, { location: '/api/action/a1', etag: '"meta-1"' });
        if (req.path === ACTION_PATH) return send(res, 200, { ...METADATA, id: 'a1' }, { etag: `"meta-${n}"` });
        return send(res, 204, undefined, { etag: `"code-${n}"` });
      });
      const c = client(server);
      const created = await c.createAction('app', METADATA);
      assert.equal(created.etag, '"meta-1"');
      assert.deepEqual(await c.updateAction('a1', METADATA, { ifMatch: '"meta-1"' }), { etag: '"meta-2"', alreadyHeld: false });
      assert.deepEqual(await c.putImplementation('a1', MINE, { ifMatch: '"code-0"' }), { etag: '"code-3"', alreadyHeld: false });
      assert.deepEqual(await c.putImplementation('a1', MINE), { etag: '"code-4"', alreadyHeld: false });
      assert.deepEqual(await c.updateAction('a1', METADATA, { ifMatch: '' }), { etag: '"meta-5"', alreadyHeld: false });
      const [create, update, conditional, plain, empty] = server.requests;
      assert.equal(create?.headers['if-match'], undefined);
      assert.equal(update?.headers['if-match'], '"meta-1"');
      assert.equal(conditional?.headers['if-match'], '"code-0"');
      assert.equal(plain?.headers['if-match'], undefined);
      assert.equal(empty?.headers['if-match'], undefined, 'an empty tag is no condition');
    });

    it('a first write of code can ask that there be none yet; If-Match wins when both are given', async () => {
      const server = await startServer((_req, res) => send(res, 204, undefined, { etag: '"code-1"' }));
      const c = client(server);
      assert.deepEqual(await c.putImplementation('a1', MINE, { ifNoneMatch: '*' }), { etag: '"code-1"', alreadyHeld: false });
      await c.putImplementation('a1', MINE, { ifMatch: '"code-1"', ifNoneMatch: '*' });
      const [first, both] = server.requests;
      assert.deepEqual([first?.headers['if-none-match'], first?.headers['if-match']], ['*', undefined]);
      assert.deepEqual([both?.headers['if-none-match'], both?.headers['if-match']], [undefined, '"code-1"']);
    });
  });

  describe('412', () => {
    it('is a VersionConflictError with the current tag, and the write is not sent again', async () => {
      const server = await startServer((req, res) => (req.method === 'PUT' ? problem412(res, '"code-5"') : code(res, THEIRS, '"code-5"')));
      const error = await rejection(() => client(server).putImplementation('a1', MINE, { ifMatch: '"code-4"' }));
      assert.ok(error instanceof VersionConflictError && error instanceof ApiError);
      assert.deepEqual(
        [error.kind, error.code, error.status, error.operation, error.resource, error.currentEtag, error.baseEtag, error.mayBeOwnWrite, error.retryable],
        ['conflict', 'precondition-failed', 412, 'putImplementation', 'implementation', '"code-5"', '"code-4"', false, false],
      );
      assert.match(error.message, /Pushing the implementation failed \(HTTP 412\)/);
      assert.match(error.hint ?? '', /Someone changed the action's code/);
      assert.equal(server.count('PUT', CODE_PATH), 1);
      assert.equal(server.count('GET', CODE_PATH), 1, 'one read to compare');
    });

    it('to a first write of code is a conflict with no base, unless the server holds what was sent', async () => {
      let held = THEIRS;
      const server = await startServer((req, res) => (req.method === 'PUT' ? problem412(res, '"code-1"') : code(res, held, '"code-1"')));
      const c = client(server);
      const error = await rejection(() => c.putImplementation('a1', MINE, { ifNoneMatch: '*' }));
      assert.ok(error instanceof VersionConflictError);
      assert.deepEqual([error.currentEtag, error.baseEtag, error.mayBeOwnWrite], ['"code-1"', undefined, false]);
      held = MINE;
      assert.deepEqual(await c.putImplementation('a1', MINE, { ifNoneMatch: '*' }), { etag: '"code-1"', alreadyHeld: true });
      assert.equal(server.count('PUT', CODE_PATH), 2, 'neither write was sent again');
    });

    it('for metadata too, compared by content', async () => {
      const server = await startServer((req, res) =>
        req.method === 'PUT'
          ? problem412(res, '"meta-8"')
          : send(res, 200, { ...METADATA, description: 'changed by a colleague', id: 'a1' }, { etag: '"meta-8"' }),
      );
      const error = await rejection(() => client(server).updateAction('a1', METADATA, { ifMatch: '"meta-7"' }));
      assert.ok(error instanceof VersionConflictError);
      assert.deepEqual([error.resource, error.currentEtag, error.operation], ['metadata', '"meta-8"', 'updateAction']);
      assert.match(error.hint ?? '', /metadata/);
      assert.equal(server.count('PUT', ACTION_PATH), 1);
    });

    it('when the server already holds exactly what was sent, the write is done (alreadyHeld)', async () => {
      // Someone wrote the very same code, or metadata with its members in another order and the server's fields added.
      const server = await startServer((req, res) => {
        if (req.method === 'PUT') return problem412(res, req.path === CODE_PATH ? '"code-6"' : '"meta-6"');
        if (req.path === CODE_PATH) return code(res, MINE, '"code-6"');
        const reordered = Object.fromEntries(Object.entries(METADATA).reverse());
        return send(
          res,
          200,
          { id: 'a1', ...reordered, eventsUrls: { Test: '/t/events' }, hasImplementation: true, updatedAt: '2026-01-01T00:00:00Z' },
          { etag: '"meta-6"' },
        );
      });
      const c = client(server);
      assert.deepEqual(await c.putImplementation('a1', MINE, { ifMatch: '"code-5"' }), { etag: '"code-6"', alreadyHeld: true });
      assert.deepEqual(await c.updateAction('a1', METADATA, { ifMatch: '"meta-5"' }), { etag: '"meta-6"', alreadyHeld: true });
      assert.equal(server.count('PUT', CODE_PATH) + server.count('PUT', ACTION_PATH), 2);
    });

    it('when the current content cannot be read, the 412 stands, with its own tag', async () => {
      const server = await startServer((req, res) => (req.method === 'PUT' ? problem412(res, '"code-5"') : send(res, 405)));
      const error = await rejection(() => client(server).putImplementation('a1', MINE, { ifMatch: '"code-4"' }));
      assert.ok(error instanceof VersionConflictError);
      assert.deepEqual([error.currentEtag, error.mayBeOwnWrite], ['"code-5"', false]);
      assert.equal(server.count('PUT', CODE_PATH), 1);
    });

    it('an unconditional write answered 412 is a VersionConflictError too, and is not sent again', async () => {
      const server = await startServer((_req, res) => problem412(res));
      const error = await rejection(() => client(server).updateAction('a1', METADATA));
      assert.ok(error instanceof VersionConflictError);
      assert.deepEqual([error.currentEtag, error.baseEtag], [undefined, undefined]);
      assert.equal(server.requests.length, 1);
    });
  });

  describe('a conditional write whose answer was lost', () => {
    for (const [label, lose] of [
      ['the connection dropped', (res: ServerResponse) => reset(res)],
      ['the answer came too late', () => undefined],
    ] as const) {
      it(`is sent again, and a 412 against its own write is success (${label})`, async () => {
        let held = '';
        const server = await startServer((req, res) => {
          if (req.method === 'GET') return code(res, held, '"code-2"');
          if (req.index === 0) {
            held = req.body;
            return lose(res);
          }
          return req.headers['if-match'] === '"code-1"' ? problem412(res, '"code-2"') : send(res, 204);
        });
        const result = await client(server, { timeoutMs: 400 }).putImplementation('a1', MINE, { ifMatch: '"code-1"' });
        assert.deepEqual(result, { etag: '"code-2"', alreadyHeld: true });
        assert.deepEqual(
          server.requests.map((r) => [r.method, r.headers['if-match']]),
          [
            ['PUT', '"code-1"'],
            ['PUT', '"code-1"'],
            ['GET', undefined],
          ],
        );
      });
    }

    it('is a conflict when what the server holds is not what was sent', async () => {
      const server = await startServer((req, res) => {
        if (req.method === 'GET') return code(res, THEIRS, '"code-2"');
        return req.index === 0 ? reset(res) : problem412(res, '"code-2"');
      });
      const error = await rejection(() => client(server).putImplementation('a1', MINE, { ifMatch: '"code-1"' }));
      assert.ok(error instanceof VersionConflictError);
      assert.deepEqual([error.currentEtag, error.mayBeOwnWrite], ['"code-2"', false]);
      assert.equal(server.count('PUT', CODE_PATH), 2);
    });

    it('says it may be its own write when the server cannot be read to tell', async () => {
      const server = await startServer((req, res) => {
        if (req.method === 'GET') return send(res, 405);
        return req.index === 0 ? reset(res) : problem412(res, '"code-2"');
      });
      const error = await rejection(() => client(server).putImplementation('a1', MINE, { ifMatch: '"code-1"' }));
      assert.ok(error instanceof VersionConflictError);
      assert.equal(error.mayBeOwnWrite, true);
      assert.match(error.hint ?? '', /earlier try of this write/);
    });

    it('a cancellation while comparing is a cancellation', async () => {
      const controller = new AbortController();
      const server = await startServer((req, res) => {
        if (req.method === 'PUT') return problem412(res, '"code-2"');
        controller.abort();
        return undefined; // never answers: only the cancellation ends the read
      });
      await assert.rejects(client(server).putImplementation('a1', MINE, { ifMatch: '"code-1"', signal: controller.signal }), { kind: 'cancelled' });
    });
  });

  describe('a server that speaks only the spec', () => {
    it('has no tags and no extras, and every write still goes through', async () => {
      const server = await startServer((req, res) => {
        if (req.path === '/api') return send(res, 404);
        if (req.method === 'GET') return code(res, MINE);
        if (req.method === 'POST') return send(res, 201, undefined, { location: '/api/action/a1' });
        return send(res, 204);
      });
      const c = client(server);
      const caps = await c.capabilities();
      assert.deepEqual(caps, NO_CAPABILITIES);
      assert.deepEqual([caps.conditionalWrites.metadata, caps.conditionalWrites.implementation, caps.versions], [false, false, false]);
      assert.deepEqual(await c.getImplementationVersioned('a1'), { code: MINE, etag: undefined });
      // A tag it never gave is sent all the same; such a server ignores it.
      assert.deepEqual(await c.putImplementation('a1', MINE, { ifMatch: '"code-1"' }), { etag: undefined, alreadyHeld: false });
      assert.deepEqual(await c.updateAction('a1', METADATA), { etag: undefined, alreadyHeld: false });
      assert.deepEqual(await c.createAction('app', METADATA), { id: 'a1', location: '/api/action/a1', resource: undefined, recovered: false, etag: undefined });
    });
  });
});
