import * as assert from 'node:assert/strict';
import { folderAction, parseActionYaml, serializeActionYaml, updateActionYaml } from '../../src/core/workspace';

const ACTION = `# Scores a lead from its company data.
key: score-lead # stable: the platform refers to it
name: Score lead
description: Scores a lead
developerEmail: dev@example.com
owner: team-a
parameters:
  # the company, as typed
  - name: company
    type: text
  - name: tier
    type:
      type: single-choice
      choices:
        - id: gold
          label: Gold
result:
  type: number
`;

const HAND_WRITTEN = `# head
key: k   # spaced comment
name: N
description: >
  folded
  text
developerEmail: a@b.co
parameters:
- name: a   # first
  type: text
# before b
- name: b
  type: {type: collection, items: number}
- name: c
  type: number
result: {type: text}
`;

describe('action.yaml', () => {
  it('reads valid metadata, keeping unknown fields in the value', () => {
    const parsed = parseActionYaml(ACTION);
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.metadata?.key, 'score-lead');
    assert.equal((parsed.value as Record<string, unknown>).owner, 'team-a');
  });

  it('positions a schema problem on the failing node', () => {
    const parsed = parseActionYaml(ACTION.replace('developerEmail: dev@example.com', 'developerEmail: nope'));
    assert.equal(parsed.metadata, undefined);
    assert.equal(parsed.problems.length, 1);
    const [problem] = parsed.problems;
    assert.equal(problem?.message, 'must be an e-mail address');
    assert.deepEqual(problem?.range.start, { line: 4, character: 16, offset: ACTION.indexOf('dev@example.com') });
  });

  it('points a missing field at its parent', () => {
    const text = ACTION.replace('  - name: company\n    type: text\n', '  - name: company\n');
    const [problem] = parseActionYaml(text).problems;
    assert.deepEqual(problem?.path, ['parameters', 0, 'type']);
    assert.equal(problem?.message, 'required');
    assert.equal(problem?.range.start.line, 8);
  });

  it('turns bad YAML into a positioned problem instead of throwing', () => {
    const parsed = parseActionYaml('key: [unclosed\nname: x\n');
    assert.equal(parsed.metadata, undefined);
    assert.ok(parsed.problems.length > 0);
    assert.equal(typeof parsed.problems[0]?.range.start.line, 'number');
  });

  it('round-trips an unchanged value byte for byte', () => {
    assert.equal(updateActionYaml(ACTION, parseActionYaml(ACTION).value), ACTION);
  });

  it('changes one field and keeps every comment, the order and unknown fields', () => {
    const value = structuredClone(parseActionYaml(ACTION).value) as Record<string, unknown>;
    value.name = 'Score a lead';
    (value.parameters as Record<string, unknown>[]).push({ name: 'size', type: 'number' });
    const next = updateActionYaml(ACTION, value);
    assert.equal(next, ACTION.replace('name: Score lead', 'name: Score a lead').replace('result:\n', '  - name: size\n    type: number\nresult:\n'));
  });

  it('removes what the new value lacks', () => {
    const value = structuredClone(parseActionYaml(ACTION).value) as Record<string, unknown>;
    delete value.owner;
    assert.equal(updateActionYaml(ACTION, value), ACTION.replace('owner: team-a\n', ''));
  });

  it('returns the text untouched when the value did not change, whatever its style', () => {
    const styled = HAND_WRITTEN;
    assert.equal(updateActionYaml(styled, parseActionYaml(styled).value), styled);
  });

  it('changes only the edited lines of a hand-written file (flow maps, folded text, unindented lists, spacing)', () => {
    const value = structuredClone(parseActionYaml(HAND_WRITTEN).value) as Record<string, unknown>;
    value.name = 'New name';
    (value.parameters as unknown[]).splice(1, 1);
    assert.equal(
      updateActionYaml(HAND_WRITTEN, value),
      HAND_WRITTEN.replace('name: N\n', 'name: New name\n').replace('# before b\n- name: b\n  type: {type: collection, items: number}\n', ''),
    );
  });

  it('inserts a list item where the value has it, keeping the comments of its neighbours', () => {
    const value = structuredClone(parseActionYaml(HAND_WRITTEN).value) as Record<string, unknown>;
    (value.parameters as unknown[]).splice(0, 0, { name: 'z', type: 'email' });
    assert.equal(updateActionYaml(HAND_WRITTEN, value), HAND_WRITTEN.replace('parameters:\n', 'parameters:\n- name: z\n  type: email\n'));
  });

  it('writes the first items of an empty `[]` as a block, and a filled-in `""` without its quotes', () => {
    const text = 'key: greet\nname: Greet\ndescription: ""\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n';
    const value = { ...(parseActionYaml(text).value as Record<string, unknown>), description: 'Says hello', parameters: [{ name: 'times', type: 'number' }] };
    assert.equal(
      updateActionYaml(text, value),
      text.replace('description: ""', 'description: Says hello').replace('parameters: []\n', 'parameters:\n  - name: times\n    type: number\n'),
    );
    // Quotes that were chosen stay, and so does a flow list that already had items.
    const chosen =
      'key: greet\nname: \'Greet\'\ndescription: ""\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: {type: single-choice, choices: [{id: a, label: A}]}\n';
    const next = structuredClone(parseActionYaml(chosen).value) as { name: string; description: string; result: { type: { choices: unknown[] } } };
    next.name = 'Hello';
    next.description = 'needs: quotes';
    next.result.type.choices.push({ id: 'b', label: 'B' });
    assert.equal(
      updateActionYaml(chosen, next),
      chosen
        .replace("'Greet'", "'Hello'")
        .replace('description: ""', 'description: "needs: quotes"')
        .replace('[{id: a, label: A}]}', '[ { id: a, label: A }, { id: b, label: B } ] }')
        .replace('{type: single', '{ type: single'),
    );
  });

  it('moves a reordered item with its comments; a comment above the first item stays with the list', () => {
    const text =
      'key: k\nname: N\ndescription: d\ndeveloperEmail: a@b.co\nparameters:\n  # the order is the call order\n  - name: a # first\n    type: text\n  # about b\n  - name: b\n    type: number\n  - name: c\n    type: email\nresult:\n  type: text\n';
    const value = structuredClone(parseActionYaml(text).value) as { parameters: unknown[] };
    value.parameters.push(...value.parameters.splice(0, 2));
    assert.equal(
      updateActionYaml(text, value),
      text.replace(
        '  - name: a # first\n    type: text\n  # about b\n  - name: b\n    type: number\n  - name: c\n    type: email\n',
        '  - name: c\n    type: email\n  - name: a # first\n    type: text\n  # about b\n  - name: b\n    type: number\n',
      ),
    );
  });

  it("keeps a renamed item's comments with it", () => {
    const value = structuredClone(parseActionYaml(ACTION).value) as { parameters: { name: string }[] };
    value.parameters[0]!.name = 'firm';
    assert.equal(updateActionYaml(ACTION, value), ACTION.replace('- name: company', '- name: firm'));
  });

  it('adds a missing field after the field that precedes it in the value', () => {
    const text = ACTION.replace('description: Scores a lead\n', '');
    const value = { ...(parseActionYaml(text).value as Record<string, unknown>) };
    const ordered = { key: value.key, name: value.name, description: 'Back again', ...value };
    assert.equal(updateActionYaml(text, ordered), ACTION.replace('description: Scores a lead', 'description: Back again'));
  });

  it('replaces a simple type by a type object', () => {
    const value = structuredClone(parseActionYaml(ACTION).value) as { parameters: { type: unknown }[] };
    value.parameters[0]!.type = { type: 'collection', items: 'text' };
    assert.equal(updateActionYaml(ACTION, value), ACTION.replace('    type: text\n', '    type:\n      type: collection\n      items: text\n'));
  });

  it('is stable: applying the same value twice changes nothing more', () => {
    const value = structuredClone(parseActionYaml(HAND_WRITTEN).value) as Record<string, unknown>;
    value.description = 'Short now';
    (value.parameters as unknown[]).push({ name: 'd', type: 'number', description: 'with: a colon' });
    const once = updateActionYaml(HAND_WRITTEN, value);
    assert.equal(updateActionYaml(once, value), once);
    assert.deepEqual(parseActionYaml(once).value, value);
    assert.ok(once.startsWith('# head\nkey: k   # spaced comment\n'), once);
  });

  it('keeps CRLF line ends', () => {
    const crlf = ACTION.replace(/\n/g, '\r\n');
    const value = { ...(parseActionYaml(crlf).value as Record<string, unknown>), name: 'Renamed' };
    assert.equal(updateActionYaml(crlf, value), crlf.replace('name: Score lead', 'name: Renamed'));
  });

  it('writes a whole new file when the old text is not YAML or is empty', () => {
    const value = parseActionYaml(ACTION).value;
    assert.equal(updateActionYaml('key: [', value), serializeActionYaml(value));
    assert.equal(updateActionYaml('', value), serializeActionYaml(value));
  });

  it('positions problems deep in lists and in object results', () => {
    const text = ACTION.replace(
      '        - id: gold\n          label: Gold\n',
      '        - id: gold\n          label: Gold\n        - id: gold\n          label: Again\n',
    ).replace('  type: number\n', '  type:\n    type: object\n    properties:\n      a b:\n        type: text\n');
    const found = parseActionYaml(text).problems.map((p) => ({
      path: p.path.join('.'),
      line: p.range.start.line,
      character: p.range.start.character,
      message: p.message,
    }));
    assert.deepEqual(found, [
      { path: 'parameters.1.type.choices.1.id', line: 16, character: 14, message: 'duplicate choice id "gold" (also at [0])' },
      { path: 'result.type.properties.a b', line: 22, character: 6, message: 'property name must not contain whitespace' },
    ]);
  });

  it('reports an empty file as one problem', () => {
    const parsed = parseActionYaml('# nothing yet\n');
    assert.deepEqual(
      parsed.problems.map((p) => p.message),
      ['empty: expected the fields key, name, description, developerEmail, parameters, result'],
    );
  });

  it('positions YAML errors: a duplicate key and a bad indent', () => {
    const duplicate = parseActionYaml('key: a\nkey: b\n');
    assert.equal(duplicate.problems.length, 1);
    assert.equal(duplicate.problems[0]?.range.start.line, 1);
    assert.match(duplicate.problems[0]?.message ?? '', /unique/i);
    const bad = parseActionYaml('key: a\nname: [x\n');
    assert.ok(bad.problems.every((p) => p.range.start.offset <= 'key: a\nname: [x\n'.length));
  });

  it('writes a new file in the spec order', () => {
    const text = serializeActionYaml({ result: { type: 'text' }, parameters: [], developerEmail: 'a@b.co', description: '', name: 'N', key: 'k' });
    assert.equal(text, 'key: k\nname: N\ndescription: ""\ndeveloperEmail: a@b.co\nparameters: []\nresult:\n  type: text\n');
    assert.ok(parseActionYaml(text).metadata);
  });
});

describe("folderAction: an action folder's key and name, as the editor and the command line read them", () => {
  it('takes the key and name action.yaml gives, valid metadata or not, else the folder name', () => {
    const valid = folderAction('folder', ACTION);
    assert.deepEqual([valid.key, valid.name, valid.metadata?.key], ['score-lead', 'Score lead', 'score-lead']);
    const invalid = folderAction('folder', 'key: half-written\nname: 3\n');
    assert.deepEqual([invalid.key, invalid.name, invalid.metadata], ['half-written', undefined, undefined]);
    assert.ok(invalid.problems.length > 0);
    assert.equal(folderAction('folder', 'key: [').key, 'folder', 'broken YAML: the folder names it');
    assert.equal(folderAction('folder', 'key: ""\n').key, 'folder');
  });
});
