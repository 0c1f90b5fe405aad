/**
 * The client's conditional writes and versions against the real sandbox: two colleagues with the
 * same application, the second writing on a stale version and being refused; the versions list
 * growing and reading back; a retried write whose first answer was lost recognised as its own; and
 * the base hashes agreeing with what the server holds.
 */
import assert from 'node:assert/strict';
import { closeAllPools, createClient, type CustomActionsClient, VersionConflictError } from '../../src/core/client';
import { codeHash, metadataHash } from '../../src/core/deploy/base';
import { type ActionMetadata } from '../../src/core/schema';
import { type FaultProxy, startFaultProxy } from '../support/faultProxy';
import { ADD_ACTION } from '../support/metadata';
import { withSandbox } from './support';

const code = (n: number | string) => `export function main(a: number, b: number): number {\n  return a + b + ${n};\n}\n`;

describe('client conditional writes and versions against the sandbox', function () {
  this.timeout(60_000);
  let box: Awaited<ReturnType<typeof withSandbox>>;
  let alice: CustomActionsClient;
  let bob: CustomActionsClient;
  let key: string;
  let n = 0;

  before(async () => {
    box = await withSandbox();
    key = box.applications.find((app) => app.id === 'app-a')?.key ?? assert.fail('no key for app-a');
    alice = createClient({ baseUrl: box.url, getKey: () => Promise.resolve(key), userAgent: 'alice-editor/1.0' });
    bob = createClient({ baseUrl: box.url, getKey: () => Promise.resolve(key), userAgent: 'bob-editor/2.0' });
  });

  after(async () => {
    await closeAllPools();
    await box?.close();
  });

  const metadata = (overrides: Partial<ActionMetadata> = {}): ActionMetadata => ({ ...ADD_ACTION, key: `versioned-${++n}`, ...overrides });

  it('reports that the sandbox offers conditional writes and versions', async () => {
    const caps = await alice.capabilities();
    assert.deepEqual(caps.conditionalWrites, { metadata: true, implementation: true, firstImplementation: true });
    assert.equal(caps.versions, true);
  });

  it("refuses the code of the colleague who wrote on a stale version, and keeps the other's", async () => {
    const created = await alice.createAction('app-a', metadata());
    const first = await alice.putImplementation(created.id, code(1));
    assert.equal(first.etag, '"code-1"');
    // Both take their copy from version 1.
    const bobsBase = await bob.getImplementationVersioned(created.id);
    assert.deepEqual(bobsBase, { code: code(1), etag: '"code-1"' });

    assert.deepEqual(await alice.putImplementation(created.id, code('"alice"'), { ifMatch: first.etag }), { etag: '"code-2"', alreadyHeld: false });
    const error = await bob.putImplementation(created.id, code('"bob"'), { ifMatch: bobsBase.etag }).then(
      () => assert.fail('a write on a stale version went through'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof VersionConflictError, String(error));
    assert.deepEqual(
      [error.kind, error.code, error.status, error.currentEtag, error.baseEtag, error.mayBeOwnWrite],
      ['conflict', 'precondition-failed', 412, '"code-2"', '"code-1"', false],
    );
    assert.equal(await alice.getImplementation(created.id), code('"alice"'), "nothing of bob's was written");

    // Bob compares, takes the current version as his base, and writes.
    assert.deepEqual(await bob.putImplementation(created.id, code('"both"'), { ifMatch: error.currentEtag }), { etag: '"code-3"', alreadyHeld: false });
  });

  it('refuses metadata written on a stale version the same way', async () => {
    const sent = metadata();
    const created = await alice.createAction('app-a', sent);
    assert.equal(created.etag, '"meta-1"');
    const bobsBase = await bob.getActionVersioned(created.id);
    assert.equal(bobsBase.etag, '"meta-1"');
    assert.equal((await alice.updateAction(created.id, { ...sent, description: 'by alice' }, { ifMatch: created.etag })).etag, '"meta-2"');
    await assert.rejects(
      bob.updateAction(created.id, { ...sent, description: 'by bob' }, { ifMatch: bobsBase.etag }),
      (e: unknown) => e instanceof VersionConflictError && e.currentEtag === '"meta-2"' && e.resource === 'metadata',
    );
    assert.equal((await bob.getAction(created.id)).description, 'by alice');
  });

  it('takes a stale write of exactly what the server holds as done', async () => {
    const created = await alice.createAction('app-a', metadata());
    const base = (await alice.putImplementation(created.id, code(1))).etag;
    await alice.putImplementation(created.id, code(2), { ifMatch: base });
    // Bob, still on version 1, makes the same change.
    assert.deepEqual(await bob.putImplementation(created.id, code(2), { ifMatch: base }), { etag: '"code-2"', alreadyHeld: true });
    assert.equal((await bob.listVersions(created.id)).filter((v) => v.kind === 'implementation').length, 2, 'nothing more was written');
  });

  it('lists the versions as they grow, newest first, and reads an old one back', async () => {
    const sent = metadata();
    const created = await alice.createAction('app-a', sent);
    await alice.putImplementation(created.id, code(1));
    const one = await alice.listVersions(created.id);
    assert.deepEqual(
      one.map((v) => [v.kind, v.version, v.etag]),
      [
        ['implementation', 1, '"code-1"'],
        ['metadata', 1, '"meta-1"'],
      ],
    );
    await bob.putImplementation(created.id, code(2));
    await bob.updateAction(created.id, { ...sent, description: 'second' });
    const grown = await bob.listVersions(created.id);
    assert.equal(grown.length, 4);
    const newestCode = grown.find((v) => v.kind === 'implementation');
    assert.deepEqual([newestCode?.version, newestCode?.client, newestCode?.size], [2, 'bob-editor/2.0', Buffer.byteLength(code(2))]);
    assert.equal(grown.find((v) => v.kind === 'metadata' && v.version === 1)?.client, 'alice-editor/1.0');
    assert.ok(grown.every((v) => v.createdAt !== undefined && !Number.isNaN(Date.parse(v.createdAt))));

    const oldCode = await bob.getVersion(created.id, 'implementation', 1);
    assert.deepEqual(oldCode, { kind: 'implementation', version: 1, etag: '"code-1"', code: code(1) });
    const oldMeta = await bob.getVersion(created.id, 'metadata', 1);
    assert.ok(oldMeta.kind === 'metadata');
    assert.equal(oldMeta.metadata.description, sent.description);
    assert.equal(oldMeta.etag, '"meta-1"');
    await assert.rejects(bob.getVersion(created.id, 'implementation', 3), { kind: 'not-found', operation: 'getVersion' });
  });

  it('hashes what the server holds as the local copy is hashed', async () => {
    const sent = metadata();
    const created = await alice.createAction('app-a', sent);
    await alice.putImplementation(created.id, code(7));
    const { action } = await bob.getActionVersioned(created.id);
    assert.equal(metadataHash(action), metadataHash(sent));
    const version = await bob.getVersion(created.id, 'metadata', 1);
    assert.ok(version.kind === 'metadata');
    assert.equal(metadataHash(version.metadata), metadataHash(sent));
    assert.equal(codeHash((await bob.getImplementationVersioned(created.id)).code ?? ''), codeHash(code(7)));
  });

  describe('a conditional write whose answer is lost on the way back', () => {
    let proxy: FaultProxy;
    let losing: CustomActionsClient;
    /** The next PUT of this path reaches the sandbox, and its answer is dropped. */
    let dropNext: string | undefined;

    before(async () => {
      proxy = await startFaultProxy({
        target: box.url,
        rate: 1,
        seed: 1,
        kinds: ['reset-after'],
        spare: (method, path) => {
          if (method !== 'PUT' || path !== dropNext) return true;
          dropNext = undefined;
          return false;
        },
      });
      losing = createClient({ baseUrl: proxy.url, getKey: () => Promise.resolve(key), userAgent: 'alice-editor/1.0' });
    });
    after(() => proxy?.close());

    it('is sent again, and the 412 against its own write is recognised: one version, no conflict', async () => {
      const created = await alice.createAction('app-a', metadata());
      const base = (await alice.putImplementation(created.id, code(1))).etag;
      dropNext = `/api/actions/${encodeURIComponent(created.id)}/implementation`;
      assert.deepEqual(await losing.putImplementation(created.id, code(2), { ifMatch: base }), { etag: '"code-2"', alreadyHeld: true });
      assert.equal(proxy.stats['reset-after'], 1, 'the answer was dropped');
      assert.deepEqual(
        (await alice.listVersions(created.id)).filter((v) => v.kind === 'implementation').map((v) => v.version),
        [2, 1],
      );
    });

    it('the same for metadata', async () => {
      const sent = metadata();
      const created = await alice.createAction('app-a', sent);
      dropNext = `/api/actions/${encodeURIComponent(created.id)}`;
      const result = await losing.updateAction(created.id, { ...sent, description: 'lost answer' }, { ifMatch: created.etag });
      assert.deepEqual(result, { etag: '"meta-2"', alreadyHeld: true });
      assert.equal(proxy.stats['reset-after'], 2);
    });
  });
});
