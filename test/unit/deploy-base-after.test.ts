import assert from 'node:assert/strict';
import { baseAfter, codeHash, createdBase, metadataHash, NO_CODE } from '../../src/core/deploy/base';

/**
 * When a server version becomes the base (src/core/deploy/base.ts, `baseAfter`, `createdBase`): one
 * rule for the command line's deploy and pull and the editor's save, Pull, create, Merge, Overwrite and
 * the adoption of a part with no base; rules-once.test.ts holds each face to it.
 */
describe('deploy: when a server version becomes the base', () => {
  const code = 'export function main() {}\n';
  const server = { etag: '"v3"', hash: codeHash(code) };

  it('created: the metadata sent under the tag the create answered, and no code yet', () => {
    const metadata = { key: 'k', name: 'K' };
    assert.deepEqual(createdBase('"m1"', metadata), { metadata: { etag: '"m1"', hash: metadataHash(metadata) }, implementation: NO_CODE });
  });

  it("confirmed: only when the local part is the server's text", () => {
    assert.deepEqual(baseAfter({ kind: 'confirmed', localHash: server.hash, server }), server);
    assert.equal(baseAfter({ kind: 'confirmed', localHash: codeHash('other'), server }), undefined, 'a local change is no base');
    assert.equal(baseAfter({ kind: 'confirmed', localHash: undefined, server }), undefined, 'no local file');
    assert.equal(baseAfter({ kind: 'confirmed', localHash: server.hash, server: { etag: '"v3"' } }), undefined, 'no code on the server');
  });

  it('pulled, merged, pushed: the version read or written, when its content is known', () => {
    for (const kind of ['pulled', 'merged', 'pushed'] as const) {
      assert.deepEqual(baseAfter({ kind, server }), server, kind);
      assert.equal(baseAfter({ kind, server: { etag: '"v3"' } }), undefined, `${kind} of unknown content`);
    }
  });

  it('overwritten: the version the held push named, by its tag even when its content is unknown', () => {
    assert.deepEqual(baseAfter({ kind: 'overwritten', server }), server);
    assert.deepEqual(baseAfter({ kind: 'overwritten', server: { etag: '"v4"' } }), { etag: '"v4"', hash: '' });
  });
});
