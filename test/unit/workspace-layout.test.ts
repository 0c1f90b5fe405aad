import * as assert from 'node:assert/strict';
import { type ActionMetadata } from '../../src/core/schema';
import {
  ACTION_FILE,
  actionFolderName,
  duplicateKeys,
  GENERATED_FILE,
  MAIN_FILE,
  parseActionYaml,
  PROJECT_FILE,
  serializeActionYaml,
} from '../../src/core/workspace';

describe('workspace layout', () => {
  it('names the files', () => {
    assert.deepEqual([PROJECT_FILE, ACTION_FILE, MAIN_FILE, GENERATED_FILE], ['customactions.yaml', 'action.yaml', 'main.ts', 'action.generated.ts']);
  });

  it('names an action folder after its key, and never a path outside', () => {
    assert.equal(actionFolderName('score-lead'), 'score-lead');
    assert.equal(actionFolderName('Score_Lead2'), 'Score_Lead2');
    assert.equal(actionFolderName('../etc/passwd'), 'etc-passwd');
    assert.equal(actionFolderName(' a b '), 'a-b');
    assert.equal(actionFolderName('..'), 'action');
  });

  it('finds duplicate keys, also those differing only in case', () => {
    const found = duplicateKeys([
      { key: 'a', folder: 'a' },
      { key: 'b', folder: 'b' },
      { key: 'a', folder: 'a-copy' },
      { key: 'B', folder: 'B' },
      { key: 'c', folder: 'c' },
    ]);
    assert.deepEqual(
      [...found],
      [
        ['a', ['a', 'a-copy']],
        ['b', ['b', 'B']],
      ],
    );
  });

  it('serializes metadata with every form so that it reads back equal', () => {
    const metadata: ActionMetadata = {
      key: 'k',
      name: 'N',
      description: 'Line one\nline two',
      developerEmail: 'a@b.co',
      parameters: [
        { name: 'when', type: 'datetime', description: 'yes: a colon' },
        { name: 'pick', type: { type: 'multiple-select', choices: [{ id: '1', label: 'true' }] } },
      ],
      result: { type: { type: 'object', properties: { 'x-y': { type: { type: 'collection', items: 'text' } } } } },
    };
    const text = serializeActionYaml(metadata);
    assert.deepEqual(parseActionYaml(text).metadata, metadata);
  });
});
