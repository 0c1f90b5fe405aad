import * as assert from 'node:assert/strict';
import { DeployLock } from '../../src/core/deploy/lock';
import { deployTargets, planAction, type WorkspaceAction } from '../../src/core/deploy/plan';
import { renamedActions } from '../../src/core/deploy/renamed';

const SERVER = 'https://actions.example.com';
const V = { etag: '"1"', hash: 'sha256:x' };

function folder(folderName: string, key = folderName): WorkspaceAction {
  return {
    key,
    metadataFile: `billing/${folderName}/action.yaml`,
    codeFile: `billing/${folderName}/main.ts`,
    metadata: { key, name: key, description: 'd', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } },
    metadataProblems: [],
    code: 'export function main(): string {\n  return "";\n}\n',
  };
}

describe('A key changed in its folder: which server action the folder is (renamedActions, both faces)', () => {
  const listed = [{ id: '1', key: 'greet' }];

  it("is the lock's action of the folder, when the server lists it under a key no folder declares", () => {
    const here = { key: 'hello', folderName: 'greet' };
    // An entry without a folder is of the folder named by its key (New Action and Pull name folders so).
    assert.equal(renamedActions([here], listed, [{ key: 'greet', id: '1' }]).get(here)?.id, '1');
    // An entry naming its folder is of that folder, whatever its key.
    const other = { key: 'hello', folderName: 'greeting' };
    assert.equal(renamedActions([other], listed, [{ key: 'greet', id: '1', folder: 'greeting' }]).get(other)?.id, '1');
    assert.equal(renamedActions([here], listed, [{ key: 'greet', id: '1', folder: 'greeting' }]).size, 0, 'the entry is of another folder');
  });

  it('is none when the key is listed, another folder declares the server key, the server lists no such id, or the lock has nothing', () => {
    const here = { key: 'hello', folderName: 'greet' };
    assert.equal(renamedActions([here], [...listed, { id: '2', key: 'hello' }], [{ key: 'greet', id: '1' }]).size, 0, 'matched by key');
    assert.equal(renamedActions([here, { key: 'greet', folderName: 'copy' }], listed, [{ key: 'greet', id: '1' }]).size, 0, 'another folder is greet');
    assert.equal(renamedActions([here], [{ id: '9', key: 'greet' }], [{ key: 'greet', id: '1' }]).size, 0, 'a new action of that key since');
    assert.equal(renamedActions([here], listed, []).size, 0);
    // The folder still has the entry's key: the server renamed it, not this folder.
    const same = { key: 'greet', folderName: 'greet' };
    assert.equal(renamedActions([same], [{ id: '1', key: 'renamed-there' }], [{ key: 'greet', id: '1' }]).size, 0);
  });

  it('gives a server action to one folder at most', () => {
    const a = { key: 'a', folderName: 'greet' };
    const b = { key: 'b', folderName: 'greet' };
    assert.equal(renamedActions([a, b], listed, [{ key: 'greet', id: '1' }]).size, 1);
  });

  it("makes the deploy's target of the new key the server's action, against its base, with no target for the old key", () => {
    const lock = DeployLock.empty().with(SERVER, 'billing', 'greet', { id: '1', metadata: V, implementation: V });
    const targets = deployTargets(
      'billing',
      [folder('greet', 'hello')],
      [{ id: '1', key: 'greet', name: 'greet', description: '', eventsUrls: {} }],
      (k) => lock.get(SERVER, 'billing', k),
      lock.entries(SERVER, 'billing'),
    );
    assert.deepEqual(
      targets.map((t) => [t.key, t.listed?.id, t.base?.id, t.renamedFrom]),
      [['hello', '1', '1', 'greet']],
    );
    const plan = planAction(targets[0]!, { force: false, delete: false });
    assert.equal(plan.kind, 'update');
    assert.equal(plan.id, '1');
    assert.equal(plan.metadata?.sends, true, 'the key is in the metadata: it is sent, against the base');
    assert.equal(plan.metadata?.base, V);
  });

  it('without the lock, is a new action beside the old one, as before', () => {
    const targets = deployTargets(
      'billing',
      [folder('greet', 'hello')],
      [{ id: '1', key: 'greet', name: 'greet', description: '', eventsUrls: {} }],
      () => undefined,
    );
    assert.deepEqual(
      targets.map((t) => [t.key, t.listed?.id]),
      [
        ['greet', '1'],
        ['hello', undefined],
      ],
    );
  });
});

describe('The lock keeps the folder of each action', () => {
  it('records a folder only where it is not named by the key, and moves an entry to the new key with its folder and parts', () => {
    let lock = DeployLock.empty().recorded(SERVER, 'billing', { id: '1', key: 'greet', folder: 'greet' }, 'implementation', V);
    assert.deepEqual(lock.entries(SERVER, 'billing'), [{ key: 'greet', id: '1', implementation: V }]);
    lock = lock.recorded(SERVER, 'billing', { id: '1', key: 'hello', folder: 'greet' }, 'metadata', V);
    assert.deepEqual(lock.entries(SERVER, 'billing'), [{ key: 'hello', id: '1', folder: 'greet', implementation: V, metadata: V }]);
    // Changed again, told by a face that does not name the folder: the folder stays with the action.
    lock = lock.withAll(SERVER, [{ applicationId: 'billing', key: 'hi', entry: { id: '1', metadata: V } }]);
    assert.deepEqual(lock.entries(SERVER, 'billing'), [{ key: 'hi', id: '1', folder: 'greet', metadata: V }]);
    const parsed = DeployLock.parse(lock.serialize());
    assert.ok('lock' in parsed);
    assert.deepEqual(parsed.lock.entries(SERVER, 'billing'), lock.entries(SERVER, 'billing'));
  });

  it('reads no folder that is a path: a lock anyone can edit names folders, never places', () => {
    for (const folder of ['../outside', 'a/b', 'a\\b', '..', '.', '', 7]) {
      const text = JSON.stringify({ version: 1, servers: { [SERVER]: { billing: { greet: { id: '1', folder } } } } });
      const parsed = DeployLock.parse(text);
      assert.ok('lock' in parsed);
      assert.equal(parsed.lock.entries(SERVER, 'billing')[0]?.folder, undefined, String(folder));
    }
  });
});
