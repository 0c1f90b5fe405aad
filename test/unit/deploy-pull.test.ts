import assert from 'node:assert/strict';
import { codeHash, metadataHash, NO_CODE } from '../../src/core/deploy/base';
import { localChanges, PART_FILE, pulledBase, pulledFiles, serverMetadata } from '../../src/core/deploy/pull';
import { type ActionMetadata } from '../../src/core/schema';
import { serializeActionYaml } from '../../src/core/workspace';

const metadata: ActionMetadata = {
  key: 'score-lead',
  name: 'Score lead',
  description: 'from the server',
  developerEmail: 'dev@example.com',
  parameters: [],
  result: { type: 'text' },
};
const SERVER_CODE = 'export function main(): string {\n  return "server";\n}\n';
const LOCAL_CODE = 'export function main(): string {\n  return "mine";\n}\n';

describe("Pull's rules (src/core/deploy/pull.ts), shared by the extension and the command line", () => {
  it('serverMetadata leaves out the fields the server adds and refuses metadata of another key than the list named', () => {
    const resource = { ...metadata, id: 'a1', eventsUrls: {}, hasImplementation: true, updatedAt: 'now', createdAt: 'then' };
    assert.deepEqual(serverMetadata(resource, 'score-lead'), { ok: true, metadata });
    const other = serverMetadata(resource, 'listed');
    assert.ok(!other.ok && /"listed"/.test(other.reason) && /"score-lead"/.test(other.reason), JSON.stringify(other));
    const invalid = serverMetadata({ ...metadata, parameters: 'none' }, 'score-lead');
    assert.ok(!invalid.ok && /not valid here: parameters/.test(invalid.reason), JSON.stringify(invalid));
  });

  it('pulledFiles keeps the local main.ts when the server has no code, and the template when there is none either', () => {
    const [yaml, generated, main] = pulledFiles(metadata, undefined, undefined, LOCAL_CODE);
    assert.deepEqual([yaml?.name, generated?.generated, main?.name], [PART_FILE.metadata, true, PART_FILE.implementation]);
    assert.equal(main?.text, LOCAL_CODE);
    assert.equal(yaml?.text, serializeActionYaml(metadata));
    assert.match(pulledFiles(metadata, undefined, undefined, undefined)[2]?.text ?? '', /export (async )?function main/);
    assert.equal(pulledFiles(metadata, SERVER_CODE, undefined, LOCAL_CODE)[2]?.text, SERVER_CODE);
  });

  it('localChanges: without a base every difference is a change; with one, a file still at the base is not', () => {
    const server = { metadata, code: SERVER_CODE };
    const local = { yaml: serializeActionYaml({ ...metadata, description: 'local' }), main: LOCAL_CODE };
    assert.deepEqual(localChanges(local, server, undefined), ['metadata', 'implementation']);
    const base = {
      metadata: { etag: undefined, hash: metadataHash({ ...metadata, description: 'local' }) },
      implementation: { etag: undefined, hash: codeHash(LOCAL_CODE) },
    };
    assert.deepEqual(localChanges(local, server, base), []);
    assert.deepEqual(localChanges({ yaml: serializeActionYaml(metadata), main: SERVER_CODE }, server, undefined), [], 'the same as the server');
    assert.deepEqual(localChanges({ yaml: 'key: [', main: undefined }, server, base), ['metadata'], 'an invalid action.yaml is work');
    assert.deepEqual(localChanges({ yaml: undefined, main: LOCAL_CODE }, { metadata, code: undefined }, undefined), [], 'no code to replace it with');
  });

  it('pulledBase: the code side is NO_CODE when read and missing, and absent when never read', () => {
    const resource = { ...metadata, id: 'a1' };
    assert.deepEqual(pulledBase(resource, '"m1"', undefined), { metadata: { etag: '"m1"', hash: metadataHash(metadata) } });
    assert.equal(pulledBase(resource, undefined, { code: undefined, etag: undefined }).implementation, NO_CODE);
    assert.deepEqual(pulledBase(resource, undefined, { code: SERVER_CODE, etag: '"c1"' }).implementation, { etag: '"c1"', hash: codeHash(SERVER_CODE) });
  });
});
