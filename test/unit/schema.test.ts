import * as assert from 'node:assert/strict';
import { formatProblem, validateMetadata, type ActionMetadata } from '../../src/core/schema';

const valid: ActionMetadata = {
  key: 'score-lead',
  name: 'Score lead',
  description: 'Scores a lead',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'company', type: 'text', description: 'Company name' },
    { name: 'employees', type: 'number' },
    { name: 'foundedAt', type: 'datetime' },
    { name: 'contact', type: 'email' },
    { name: 'tier', type: { type: 'single-choice', choices: [{ id: 'gold', label: 'Gold' }, { id: 'silver', label: 'Silver' }] } },
    { name: 'channels', type: { type: 'multiple-select', choices: [{ id: 'mail', label: 'Mail' }] } },
    { name: 'scores', type: { type: 'collection', items: 'number' } },
  ],
  result: {
    type: { type: 'object', properties: { score: { type: 'number' }, owner: { type: 'email' }, at: { type: 'datetime' }, note: { type: 'text' }, tags: { type: { type: 'collection', items: 'text' } } } },
    description: 'The score',
  },
};

function problems(input: unknown): string[] {
  const result = validateMetadata(input);
  return result.ok ? [] : result.problems.map(formatProblem);
}

describe('metadata schema', () => {
  it('accepts every parameter and result form of the spec', () => {
    assert.deepEqual(problems(valid), []);
    for (const type of ['number', 'text', 'datetime', 'email', { type: 'collection', items: 'text' }]) {
      assert.deepEqual(problems({ ...valid, result: { type } }), [], JSON.stringify(type));
    }
  });

  it('keeps fields it does not know', () => {
    const result = validateMetadata({ ...valid, owner: 'team-a' });
    assert.ok(result.ok);
    assert.equal((result.value as Record<string, unknown>).owner, 'team-a');
  });

  it('reports each problem at its path', () => {
    assert.deepEqual(
      problems({
        key: '1x',
        name: '',
        developerEmail: 'nope',
        parameters: [
          { name: 'a', type: 'txt' },
          { name: 'a', type: { type: 'single-choice', choices: [{ id: '' }, { id: 'x', label: 'X' }, { id: 'x', label: 'Y' }] } },
          { name: 'b', type: { type: 'bogus' } },
          { name: 'd' },
          { name: 'e', type: { type: 'collection' } },
        ],
        result: { type: { type: 'object', properties: { 'a b': { type: 'text' } } } },
      }),
      [
        'key: must start with a letter and hold only letters, digits, _ or -',
        'name: must not be empty',
        'description: required',
        'developerEmail: must be an e-mail address',
        'parameters[0].type: must be one of "text", "number", "datetime", "email"',
        'parameters[1].type.choices[0].id: must not be empty',
        'parameters[1].type.choices[0].label: required',
        'parameters[1].type.choices[2].id: duplicate choice id "x" (also at [1])',
        'parameters[2].type.type: unknown type "bogus"; expected one of "single-choice", "multiple-select", "collection"',
        'parameters[3].type: required',
        'parameters[4].type.items: required',
        'parameters[1].name: duplicate parameter name "a" (also at [0])',
        'result.type.properties["a b"]: property name must not contain whitespace',
      ],
    );
  });

  it('requires a choice list and object properties', () => {
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'p', type: { type: 'single-choice', choices: [] } }] }), ['parameters[0].type.choices: needs at least one choice']);
    assert.deepEqual(problems({ ...valid, result: { type: { type: 'object', properties: {} } } }), ['result.type.properties: an object result needs at least one property']);
  });

  it('rejects parameter names that cannot be arguments of main', () => {
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'first name', type: 'text' }] }), [
      'parameters[0].name: must be an identifier (letters, digits, _ or $, not starting with a digit)',
    ]);
  });

  it('says "required" for a missing document', () => {
    assert.deepEqual(problems(undefined), ['required']);
  });
});
