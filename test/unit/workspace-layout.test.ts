import * as assert from 'node:assert/strict';
import { type ActionMetadata } from '../../src/core/schema';
import {
  ACTION_FILE,
  actionFolderName,
  GENERATED_FILE,
  MAIN_FILE,
  parseActionYaml,
  PROJECT_FILE,
  serializeActionYaml,
  sharedKeyMessage,
  sharedKeys,
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

  it('finds keys shared by several folders, also those differing only in case, each with its group (itself first)', () => {
    const [a, b, aCopy, bUpper, c] = [
      { key: 'a', folder: 'a' },
      { key: 'b', folder: 'b' },
      { key: 'a', folder: 'a-copy' },
      { key: 'B', folder: 'B' },
      { key: 'c', folder: 'c' },
    ];
    const found = sharedKeys([a, b, aCopy, bUpper, c]);
    assert.deepEqual(
      [...found].map(([action, group]) => [action.folder, group.map((g) => g.folder)]),
      [
        ['a', ['a', 'a-copy']],
        ['a-copy', ['a-copy', 'a']],
        ['b', ['b', 'B']],
        ['B', ['B', 'b']],
      ],
    );
    assert.equal(found.has(c), false);
    assert.match(
      sharedKeyMessage('a', ['app/a-copy/action.yaml']),
      /^the key "a" is also declared in app\/a-copy\/action\.yaml: the server keeps one action per key/,
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
