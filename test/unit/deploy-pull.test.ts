import assert from 'node:assert/strict';
import { codeHash, metadataHash, NO_CODE } from '../../src/core/deploy/base';
import { localChanges, PART_FILE, planPull, pulledBase, pulledFiles, pullFolder, serverMetadata } from '../../src/core/deploy/pull';
import { type ActionMetadata } from '../../src/core/schema';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE, serializeActionYaml } from '../../src/core/workspace';
import { generateTypes } from '../../src/core/typegen';

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

  describe('planPull: the one plan of a pull, which the command line renders and the editor asks about', () => {
    const resource = { ...metadata, id: 'a1' };
    const implementation = { code: SERVER_CODE, etag: '"c2"' };
    const serverFolder = { [ACTION_FILE]: serializeActionYaml(metadata), [MAIN_FILE]: SERVER_CODE, [GENERATED_FILE]: generateTypes(metadata) };
    const atBase = { metadata: { etag: '"m1"', hash: metadataHash(metadata) }, implementation: { etag: '"c1"', hash: codeHash(LOCAL_CODE) } };
    const plan = (onDisk: Record<string, string | undefined>, base: Parameters<typeof planPull>[0]['base'] | 'none' = atBase) =>
      planPull({ listedKey: 'score-lead', resource, etag: '"m2"', implementation, onDisk, base: base === 'none' ? undefined : base });
    const steps = (p: ReturnType<typeof planPull>): Record<string, string> =>
      p.kind === 'refused' ? { refused: p.reason } : Object.fromEntries(p.files.map((f) => [f.name, f.step]));

    it('a new folder: every file written, the base is what was read', () => {
      const p = plan({});
      assert.equal(p.kind, 'write');
      assert.deepEqual(steps(p), { [ACTION_FILE]: 'write', [GENERATED_FILE]: 'write', [MAIN_FILE]: 'write' });
      assert.ok(p.kind === 'write' && p.base.metadata.etag === '"m2"' && p.base.implementation?.etag === '"c2"');
    });

    it("a folder that holds the server's version already: unchanged, nothing written", () => {
      const p = plan(serverFolder);
      assert.equal(p.kind, 'unchanged');
      assert.deepEqual(steps(p), { [ACTION_FILE]: 'same', [GENERATED_FILE]: 'same', [MAIN_FILE]: 'same' });
    });

    it('main.ts at its base and behind the server: written, no conflict (nobody loses work)', () => {
      const p = plan({ ...serverFolder, [MAIN_FILE]: LOCAL_CODE });
      assert.equal(p.kind, 'write');
      assert.equal(steps(p)[MAIN_FILE], 'write');
    });

    it('main.ts changed since its base: a conflict naming the part; with no base, any difference is one', () => {
      const changed = plan({ ...serverFolder, [MAIN_FILE]: LOCAL_CODE + '// mine\n' });
      assert.ok(changed.kind === 'conflict' && changed.changed.join() === 'implementation', JSON.stringify(changed));
      assert.equal(steps(changed)[MAIN_FILE], 'replace');
      const noBase = plan({ ...serverFolder, [MAIN_FILE]: LOCAL_CODE }, 'none');
      assert.ok(noBase.kind === 'conflict' && noBase.changed.join() === 'implementation');
    });

    it('an action.yaml that is not metadata is work: a conflict', () => {
      const p = plan({ ...serverFolder, [ACTION_FILE]: 'key: [' });
      assert.ok(p.kind === 'conflict' && p.changed.join() === 'metadata');
    });

    it("metadata of another key than the list names, or not valid here: refused, with the server's reason", () => {
      assert.match(steps(planPull({ listedKey: 'other', resource, etag: undefined, implementation, onDisk: {}, base: undefined })).refused ?? '', /"other"/);
      const invalid = planPull({
        listedKey: 'score-lead',
        resource: { ...resource, parameters: 'x' },
        etag: undefined,
        implementation,
        onDisk: {},
        base: undefined,
      });
      assert.equal(invalid.kind, 'refused');
    });

    it('a server that offers no read of code: the local main.ts stays, the base has no code side', () => {
      const p = planPull({ listedKey: 'score-lead', resource, etag: '"m2"', implementation: undefined, onDisk: { [MAIN_FILE]: LOCAL_CODE }, base: undefined });
      assert.ok(p.kind !== 'refused' && p.base.implementation === undefined);
      assert.equal(steps(p)[MAIN_FILE], 'same');
    });
  });

  it("pullFolder: the local folder when it is a direct child of the application's, else the folder the key names", () => {
    assert.deepEqual(pullFolder('/w/app', 'score-lead', undefined), { ok: true, path: '/w/app/score-lead' });
    assert.deepEqual(pullFolder('/w/app', 'score-lead', '/w/app/renamed'), { ok: true, path: '/w/app/renamed' });
    assert.equal(pullFolder('/w/app', 'score-lead', '/w/other/renamed').ok, false);
    assert.equal(pullFolder('/w/app', '../x', undefined).ok, false);
    assert.equal(pullFolder('/w/app', 'CON', undefined).ok, false);
    assert.equal(pullFolder('/w/app', undefined, '/w/app/x').ok, false, 'no key from the server names nothing');
    // A key two folders declare: which one is the server's action would be a guess.
    const shared = pullFolder('/w/app', 'score-lead', '/w/app/score-lead', ['app/score-lead/action.yaml', 'app/copy/action.yaml']);
    assert.equal(shared.ok, false);
    assert.match(shared.ok ? '' : shared.reason, /"score-lead" is declared in 2 folders here \(app\/copy\/action\.yaml, app\/score-lead\/action\.yaml\)/);
  });
});
