import * as assert from 'node:assert/strict';
import { deployDiff, metadataText, partDiffs, sentParts } from '../../src/core/deploy/contentDiff';
import { type WorkspaceAction } from '../../src/core/deploy/plan';
import { actionMetadata } from '../support/metadata';

const local: WorkspaceAction = {
  key: 'greet',
  metadataFile: 'app/greet/action.yaml',
  codeFile: 'app/greet/main.ts',
  metadata: actionMetadata({ key: 'greet', description: 'mine' }),
  metadataProblems: [],
  code: 'export async function main() {\n  return "mine";\n}\n',
};

describe('contentDiff: what a write would change', () => {
  it("compares metadata as action.yaml's fields: the server's own fields and the order of keys are no difference", () => {
    const server = { id: 'x1', eventsUrls: { Test: '/t', Live: '/l' }, ...actionMetadata({ key: 'greet', description: 'mine' }) };
    const reordered = Object.fromEntries(Object.entries(local.metadata!).reverse());
    assert.equal(metadataText(server), metadataText(reordered));
    assert.deepEqual(partDiffs(['metadata'], { metadata: metadataText(server) }, { metadata: metadataText(local.metadata!) }, labels()), []);
  });

  it('labels a side that has none /dev/null, as git does', () => {
    const [diff] = partDiffs(['implementation'], {}, { implementation: 'a\n' }, labels());
    assert.deepEqual(diff!.lines, ['--- /dev/null', '+++ app/greet/main.ts', '@@ -0,0 +1,1 @@', '+a']);
  });

  it('reads the server only for the parts an update sends, and shows an action it creates from nothing', async () => {
    const reads: string[] = [];
    const client = {
      getActionVersioned: () => (reads.push('metadata'), Promise.resolve({ action: { ...local.metadata!, id: 'x1' }, etag: '"1"' })),
      getImplementationVersioned: () => (
        reads.push('implementation'),
        Promise.resolve({ code: 'export async function main() {\n  return "theirs";\n}\n', etag: '"2"' })
      ),
    } as unknown as Parameters<typeof deployDiff>[0];
    const caps = { getAction: true, getImplementation: true };
    const update = {
      id: 'x1',
      steps: [
        { kind: 'unchanged', step: 'metadata' },
        { kind: 'pushed', step: 'implementation', op: 'update', checked: true },
      ],
    } as const;
    const { diffs } = await deployDiff(client, caps, update, local);
    assert.deepEqual(reads, ['implementation']);
    assert.deepEqual(
      diffs.map((d) => d.part),
      ['implementation'],
    );
    assert.ok(diffs[0]!.lines.includes('-  return "theirs";') && diffs[0]!.lines.includes('+  return "mine";'));

    const create = {
      id: undefined,
      steps: [
        { kind: 'pushed', step: 'action', op: 'create', checked: false },
        { kind: 'pushed', step: 'implementation', op: 'update', checked: false },
      ],
    } as const;
    assert.deepEqual(sentParts(create), { parts: ['metadata', 'implementation'], create: true });
    const created = await deployDiff(client, caps, create, local);
    assert.deepEqual(reads, ['implementation'], 'nothing read for an action that is not there');
    assert.deepEqual(
      created.diffs.map((d) => d.lines[0]),
      ['--- /dev/null', '--- /dev/null'],
    );
  });

  it('names a part the server offers no read of instead of a diff', async () => {
    const client = {} as unknown as Parameters<typeof deployDiff>[0];
    const outcome = { id: 'x1', steps: [{ kind: 'pushed', step: 'implementation', op: 'update', checked: false }] } as const;
    const { diffs, unreadable } = await deployDiff(client, { getAction: false, getImplementation: false }, outcome, local);
    assert.deepEqual(diffs, []);
    assert.deepEqual(unreadable, ['implementation']);
  });
});

function labels() {
  return {
    metadata: { before: 'server:app/greet/action.yaml', after: 'app/greet/action.yaml' },
    implementation: { before: 'server:app/greet/main.ts', after: 'app/greet/main.ts' },
  };
}
