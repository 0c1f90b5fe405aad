/**
 * The versions extension as the client reads it: whether a server offers versions and conditional
 * writes (from GET /api, absent meaning no), the list of kept versions read tolerantly, and one
 * version read back.
 */
import assert from 'node:assert/strict';
import { ApiError, CLIENT_MAX, readCapabilities } from '../../src/core/client';
import { client, closeServers, rejection, send, startServer } from './client-server.test';
import { ADD_ACTION as METADATA } from '../support/metadata';

const SANDBOX_EXTENSIONS = {
  getAction: true,
  getImplementation: true,
  conditionalWrites: { header: 'If-Match', resources: ['metadata', 'implementation'], firstWrite: 'If-None-Match' },
  versions: { maxKeptPerKind: 50 },
};

describe('client versions', () => {
  afterEach(closeServers);

  describe('capabilities', () => {
    it('reads conditional writes and versions from the capability document', async () => {
      const server = await startServer((_req, res) => send(res, 200, { service: 's', version: '1', extensions: SANDBOX_EXTENSIONS }));
      const caps = await client(server).capabilities();
      assert.deepEqual(caps.conditionalWrites, { metadata: true, implementation: true, firstImplementation: true });
      assert.equal(caps.versions, true);
    });

    it('reads them tolerantly: absent, malformed or another header means no', () => {
      const read = (extensions: unknown) => {
        const caps = readCapabilities({ extensions });
        return [caps.conditionalWrites.metadata, caps.conditionalWrites.implementation, caps.versions];
      };
      assert.deepEqual(read({ conditionalWrites: true, versions: true }), [true, true, true]);
      assert.deepEqual(read({ conditionalWrites: { resources: ['implementation'] }, versions: {} }), [false, true, true]);
      assert.deepEqual(read({ conditionalWrites: { header: 'if-match', resources: ['Metadata', 'code', 7] } }), [true, true, false]);
      assert.deepEqual(read({ conditionalWrites: { header: 'If-Match' } }), [true, true, false], 'no resources listed: both');
      assert.deepEqual(
        read({ conditionalWrites: { header: 'X-If-Version', resources: ['metadata'] } }),
        [false, false, false],
        'a header this client does not send',
      );
      assert.deepEqual(read({ conditionalWrites: { enabled: false }, versions: { enabled: false } }), [false, false, false]);
      for (const junk of [undefined, null, 'yes', 1, [], { conditionalWrites: 'yes', versions: 'yes' }, { conditionalWrites: [], versions: [] }]) {
        assert.deepEqual(read(junk), [false, false, false], JSON.stringify(junk));
      }
      assert.deepEqual(readCapabilities('not a document').conditionalWrites, { metadata: false, implementation: false, firstImplementation: false });
    });

    it('trusts If-None-Match on a first write of code only where the server names it', () => {
      const first = (conditionalWrites: unknown) => readCapabilities({ extensions: { conditionalWrites } }).conditionalWrites.firstImplementation;
      assert.equal(first({ header: 'If-Match', firstWrite: 'if-none-match' }), true);
      assert.equal(first(true), false, 'If-Match alone says nothing of If-None-Match');
      assert.equal(first({ header: 'If-Match' }), false);
      assert.equal(first({ header: 'If-Match', resources: ['metadata'], firstWrite: 'If-None-Match' }), false, 'code writes not checked at all');
      assert.equal(first({ header: 'X-If-Version', firstWrite: 'If-None-Match' }), false);
      for (const junk of ['*', true, 1, ['If-None-Match'], { header: 'If-None-Match' }]) assert.equal(first({ firstWrite: junk }), false, JSON.stringify(junk));
    });
  });

  describe('listVersions', () => {
    it("asks for the action's versions and reads each entry", async () => {
      const server = await startServer((_req, res) =>
        send(res, 200, {
          versions: [
            { kind: 'implementation', version: 2, etag: '"code-2"', createdAt: '2026-05-01T10:00:00.000Z', size: 42, client: 'custom-actions-vscode/0.1.0' },
            { kind: 'metadata', version: 1, etag: '"meta-1"', createdAt: '2026-05-01T09:00:00.000Z', size: 300 },
          ],
        }),
      );
      const versions = await client(server).listVersions('a/1');
      assert.equal(server.requests[0]?.path, '/api/actions/a%2F1/versions');
      assert.deepEqual(versions, [
        { kind: 'implementation', version: 2, etag: '"code-2"', createdAt: '2026-05-01T10:00:00.000Z', size: 42, client: 'custom-actions-vscode/0.1.0' },
        { kind: 'metadata', version: 1, etag: '"meta-1"', createdAt: '2026-05-01T09:00:00.000Z', size: 300, client: undefined },
      ]);
    });

    it('drops malformed entries, ignores unknown fields and keeps the writer as data', async () => {
      const hostile = '[click](command:workbench.action.terminal.new) $(zap)\u202e\n';
      const server = await startServer((_req, res) =>
        send(res, 200, {
          versions: [
            null,
            'code-1',
            [],
            { kind: 'implementation' },
            { kind: 'secret', version: 1 },
            { kind: 'metadata', version: 0 },
            { kind: 'metadata', version: -1 },
            { kind: 'metadata', version: 1.5 },
            { kind: 'metadata', version: '01' },
            { kind: 7, version: 1 },
            { kind: 'CODE', version: '3', etag: 'W/"code-3"', createdAt: 1_777_000_000, size: -1, client: hostile, extra: { deep: true } },
            { kind: 'meta', version: 4, etag: 42, createdAt: 'yesterday', size: '12', client: 'x'.repeat(5000) },
          ],
          total: 'many',
        }),
      );
      const versions = await client(server).listVersions('a1');
      assert.deepEqual(versions, [
        { kind: 'implementation', version: 3, etag: undefined, createdAt: new Date(1_777_000_000_000).toISOString(), size: undefined, client: hostile },
        { kind: 'metadata', version: 4, etag: undefined, createdAt: undefined, size: undefined, client: 'x'.repeat(CLIENT_MAX) },
      ]);
    });

    it('takes a bare array or another wrapper, and nothing as no versions', async () => {
      const bodies = [[{ kind: 'metadata', version: 1 }], { items: [{ kind: 'metadata', version: 2 }] }, undefined];
      const server = await startServer((req, res) => send(res, req.index < 2 ? 200 : 204, bodies[req.index]));
      const c = client(server);
      assert.deepEqual(
        (await c.listVersions('a1')).map((v) => v.version),
        [1],
      );
      assert.deepEqual(
        (await c.listVersions('a1')).map((v) => v.version),
        [2],
      );
      assert.deepEqual(await c.listVersions('a1'), []);
    });

    it('a body that is no list is a protocol error; a server without versions answers 404', async () => {
      let status = 200;
      const server = await startServer((_req, res) =>
        send(res, status, status === 200 ? { versions: 'all of them' } : { code: 'not-found', title: 'Not found' }),
      );
      const c = client(server);
      await assert.rejects(c.listVersions('a1'), { kind: 'protocol', operation: 'listVersions' });
      status = 404;
      await assert.rejects(c.listVersions('a1'), { kind: 'not-found', operation: 'listVersions' });
    });

    it("keeps a base URL's path prefix", async () => {
      const server = await startServer((_req, res) => send(res, 200, { versions: [] }));
      await client(server, { baseUrl: `${server.url}/prefix/` }).listVersions('a1');
      assert.equal(server.requests[0]?.path, '/prefix/api/actions/a1/versions');
    });
  });

  describe('getVersion', () => {
    it('reads code as text and metadata as an object, each with its tag', async () => {
      const server = await startServer((req, res) =>
        req.path.includes('/implementation/')
          ? send(res, 200, 'export function main() { return 1; }', { 'content-type': 'application/typescript', etag: '"code-1"' })
          : send(res, 200, METADATA, { etag: '"meta-2"' }),
      );
      const c = client(server);
      assert.deepEqual(await c.getVersion('a1', 'implementation', 1), {
        kind: 'implementation',
        version: 1,
        etag: '"code-1"',
        code: 'export function main() { return 1; }',
      });
      assert.deepEqual(await c.getVersion('a1', 'metadata', 2), { kind: 'metadata', version: 2, etag: '"meta-2"', metadata: METADATA });
      assert.deepEqual(
        server.requests.map((r) => r.path),
        ['/api/actions/a1/versions/implementation/1', '/api/actions/a1/versions/metadata/2'],
      );
      assert.match(String(server.requests[0]?.headers.accept), /^application\/typescript/);
      assert.equal(server.requests[1]?.headers.accept, 'application/json');
    });

    it('takes code from a JSON body and metadata wrapped, as other servers may send them', async () => {
      const server = await startServer((req, res) =>
        send(res, 200, req.path.includes('/implementation/') ? { code: 'wrapped code' } : { metadata: METADATA, version: 3 }),
      );
      const c = client(server);
      const code = await c.getVersion('a1', 'implementation', 1);
      assert.ok(code.kind === 'implementation' && code.code === 'wrapped code');
      assert.equal(code.etag, undefined);
      const meta = await c.getVersion('a1', 'metadata', 3);
      assert.ok(meta.kind === 'metadata');
      assert.deepEqual(meta.metadata, METADATA);
    });

    it('metadata that is no JSON object is a protocol error; a version not kept is not found', async () => {
      let answer: 'array' | 'text' | 'gone' = 'array';
      const server = await startServer((_req, res) => {
        if (answer === 'array') return send(res, 200, [1, 2]);
        if (answer === 'text') return send(res, 200, 'key: add');
        return send(res, 404, { code: 'not-found', title: 'No such version' }, { 'content-type': 'application/problem+json' });
      });
      const c = client(server);
      await assert.rejects(c.getVersion('a1', 'metadata', 1), { kind: 'protocol', operation: 'getVersion' });
      answer = 'text';
      await assert.rejects(c.getVersion('a1', 'metadata', 1), { kind: 'protocol', operation: 'getVersion' });
      answer = 'gone';
      const error = await rejection(() => c.getVersion('a1', 'metadata', 60));
      assert.ok(error instanceof ApiError && error.kind === 'not-found');
      assert.match(error.message, /^Reading the version failed \(HTTP 404\)/);
    });

    it('refuses a version or kind that cannot be in the path, before sending anything', async () => {
      const server = await startServer((_req, res) => send(res, 200, 'x'));
      const c = client(server);
      for (const n of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
        await assert.rejects(c.getVersion('a1', 'implementation', n), RangeError, String(n));
      }
      await assert.rejects(c.getVersion('a1', '../../x' as 'metadata', 1), RangeError);
      assert.equal(server.requests.length, 0);
    });
  });
});
