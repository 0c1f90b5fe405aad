import * as assert from 'node:assert/strict';
import { formatProblem, validateMetadata } from '../../src/core/schema';
import { scoreLeadAction } from '../support/metadata';

const valid = scoreLeadAction();

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
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'p', type: { type: 'single-choice', choices: [] } }] }), [
      'parameters[0].type.choices: needs at least one choice',
    ]);
    assert.deepEqual(problems({ ...valid, result: { type: { type: 'object', properties: {} } } }), [
      'result.type.properties: an object result needs at least one property',
    ]);
  });

  it('rejects parameter names that cannot be arguments of main', () => {
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'first name', type: 'text' }] }), [
      'parameters[0].name: must be an identifier (letters, digits, _ or $, not starting with a digit)',
    ]);
  });

  it('accepts every parameter form on its own', () => {
    const forms: unknown[] = [
      'text',
      'number',
      'datetime',
      'email',
      { type: 'single-choice', choices: [{ id: 'a', label: 'A' }] },
      {
        type: 'multiple-select',
        choices: [
          { id: 'a', label: 'A' },
          { id: 'b', label: 'B' },
        ],
      },
      ...['text', 'number', 'datetime', 'email'].map((items) => ({ type: 'collection', items })),
    ];
    for (const type of forms) assert.deepEqual(problems({ ...valid, parameters: [{ name: 'p', type }] }), [], JSON.stringify(type));
  });

  it('takes empty parameters and description, and no parameter or result description', () => {
    assert.deepEqual(problems({ ...valid, description: '', parameters: [], result: { type: 'text' } }), []);
  });

  it('requires key, name, description, developerEmail, parameters and result', () => {
    assert.deepEqual(problems({}), [
      'key: required',
      'name: required',
      'description: required',
      'developerEmail: required',
      'parameters: required',
      'result: required',
    ]);
  });

  const parameterCases: [string, unknown, string[]][] = [
    ['a type that is a number', 5, ['parameters[0].type: must be one of "text", "number", "datetime", "email"']],
    ['a type name in the wrong case', 'Text', ['parameters[0].type: must be one of "text", "number", "datetime", "email"']],
    [
      'the object form',
      { type: 'object', properties: { a: { type: 'text' } } },
      ['parameters[0].type.type: unknown type "object"; expected one of "single-choice", "multiple-select", "collection"'],
    ],
    ['an unknown item type', { type: 'collection', items: 'bogus' }, ['parameters[0].type.items: must be one of "text", "number", "datetime", "email"']],
    [
      'a collection of collections',
      { type: 'collection', items: { type: 'collection', items: 'text' } },
      ['parameters[0].type.items: must be one of "text", "number", "datetime", "email"'],
    ],
    ['no choices', { type: 'multiple-select' }, ['parameters[0].type.choices: required']],
    ['choices that are not a list', { type: 'multiple-select', choices: 'a' }, ['parameters[0].type.choices: must be an array']],
    ['a choice that is a string', { type: 'single-choice', choices: ['a'] }, ['parameters[0].type.choices[0]: must be an object']],
    ['a blank choice label', { type: 'single-choice', choices: [{ id: 'a', label: '  ' }] }, ['parameters[0].type.choices[0].label: must not be empty']],
    [
      'duplicate ids in a multiple select',
      {
        type: 'multiple-select',
        choices: [
          { id: 'a', label: 'A' },
          { id: 'a', label: 'B' },
        ],
      },
      ['parameters[0].type.choices[1].id: duplicate choice id "a" (also at [0])'],
    ],
  ];
  for (const [what, type, expected] of parameterCases) {
    it(`reports a parameter with ${what}`, () => {
      assert.deepEqual(problems({ ...valid, parameters: [{ name: 'p', type }] }), expected);
    });
  }

  const resultCases: [string, unknown, string[]][] = [
    ['a result that is a type name', 'number', ['result: must be an object']],
    [
      'a choice result',
      { type: { type: 'single-choice', choices: [{ id: 'a', label: 'A' }] } },
      ['result.type.type: unknown type "single-choice"; expected one of "collection", "object"'],
    ],
    ['an object without properties', { type: { type: 'object' } }, ['result.type.properties: required']],
    [
      'a property of unknown type',
      { type: { type: 'object', properties: { a: { type: 'bogus' } } } },
      ['result.type.properties.a.type: must be one of "text", "number", "datetime", "email"'],
    ],
    ['a property without type', { type: { type: 'object', properties: { a: {} } } }, ['result.type.properties.a.type: required']],
    ['a property given as a bare type name', { type: { type: 'object', properties: { a: 'text' } } }, ['result.type.properties.a: must be an object']],
    [
      'a nested object',
      { type: { type: 'object', properties: { a: { type: { type: 'object', properties: {} } } } } },
      ['result.type.properties.a.type.type: unknown type "object"; expected one of "collection"'],
    ],
    [
      'a property name with a tab',
      { type: { type: 'object', properties: { 'a\tb': { type: 'text' } } } },
      ['result.type.properties["a\\tb"]: property name must not contain whitespace'],
    ],
    ['a description that is not text', { type: 'text', description: 3 }, ['result.description: must be a string']],
  ];
  for (const [what, result, expected] of resultCases) {
    it(`reports ${what}`, () => {
      assert.deepEqual(problems({ ...valid, result }), expected);
    });
  }

  it('applies the decided sizes and patterns', () => {
    assert.deepEqual(problems({ ...valid, key: 'a'.repeat(64) }), []);
    assert.deepEqual(problems({ ...valid, key: 'a'.repeat(65) }), ['key: must be at most 64 characters']);
    assert.deepEqual(problems({ ...valid, key: '' }), ['key: must not be empty']);
    assert.deepEqual(problems({ ...valid, key: 'with space' }), ['key: must start with a letter and hold only letters, digits, _ or -']);
    assert.deepEqual(problems({ ...valid, key: 5 }), ['key: must be a string']);
    assert.deepEqual(problems({ ...valid, name: 'n'.repeat(121) }), ['name: must be at most 120 characters']);
    assert.deepEqual(problems({ ...valid, description: 'd'.repeat(4001) }), ['description: must be at most 4000 characters']);
    assert.deepEqual(problems({ ...valid, parameters: Array.from({ length: 51 }, (_, i) => ({ name: `p${i}`, type: 'text' })) }), [
      'parameters: at most 50 parameters',
    ]);
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'p'.repeat(65), type: 'text' }] }), ['parameters[0].name: must be at most 64 characters']);
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'class', type: 'text' }] }), [
      'parameters[0].name: is a reserved word of TypeScript and cannot name an argument of main',
    ]);
    assert.deepEqual(problems({ ...valid, parameters: [{ name: 'p', type: 'text', description: 3 }] }), ['parameters[0].description: must be a string']);
  });

  it('reports parameters that are not objects and lists that are not lists', () => {
    assert.deepEqual(problems({ ...valid, parameters: ['text'] }), ['parameters[0]: must be an object']);
    assert.deepEqual(problems({ ...valid, parameters: null }), ['parameters: must be an array']);
  });

  it('says "required" for a missing document and "must be an object" for any other value', () => {
    assert.deepEqual(problems(undefined), ['required']);
    assert.deepEqual(problems([]), ['must be an object']);
  });
});
