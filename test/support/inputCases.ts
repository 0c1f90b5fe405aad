import { type Parameter, type ParameterType } from '../../src/core/schema';

/**
 * Run inputs for every parameter type the schema has, the ones a person or a file gets slightly
 * wrong included: surrounding spaces, empty, the wrong type, a near miss of the format, `null`,
 * missing, extra. Every value survives JSON as it is (no `undefined` inside, no NaN), so the same
 * case can be judged in process and sent over HTTP. `known` is the verdict the rule must give where a
 * case pins it down (the cases of the bug that made this table); the others only have to agree.
 */
export interface InputCase {
  readonly name: string;
  readonly parameter: Parameter;
  /** By name, or in parameter order. */
  readonly inputs: Record<string, unknown> | unknown[] | string | null;
  readonly known?: 'accepted' | 'refused';
}

const CHOICES = [
  { id: 'gold', label: 'Gold' },
  { id: 'silver', label: 'Silver' },
];

export const TYPES: Record<string, ParameterType> = {
  text: 'text',
  number: 'number',
  datetime: 'datetime',
  email: 'email',
  'single-choice': { type: 'single-choice', choices: CHOICES },
  'multiple-select': { type: 'multiple-select', choices: CHOICES },
  'collection of number': { type: 'collection', items: 'number' },
  'collection of text': { type: 'collection', items: 'text' },
  'collection of datetime': { type: 'collection', items: 'datetime' },
  'collection of email': { type: 'collection', items: 'email' },
};

/** Values every type is tried with, beside its own. */
const EVERY_TYPE: [string, unknown][] = [
  ['null (no value)', null],
  ['an empty string', ''],
  ['spaces only', '   '],
  ['true', true],
  ['0', 0],
  ['an empty array', []],
  ['an object', { a: 1 }],
  ['a huge number', 1e308],
];

const OWN: Record<string, [string, unknown, ('accepted' | 'refused')?][]> = {
  text: [
    ['a word', 'hello', 'accepted'],
    ['spaces around', '  hello  ', 'accepted'],
    ['a number as text', '42'],
  ],
  number: [
    ['an integer', 42, 'accepted'],
    ['a negative fraction', -3.5, 'accepted'],
    ['a number as text', '42', 'refused'],
    ['a number as text with spaces', ' 42 ', 'refused'],
  ],
  datetime: [
    ['a date and time', '2024-05-01T12:00:00Z', 'accepted'],
    ['lower-case t and z', '2024-05-01t12:00:00z', 'accepted'],
    ['a date alone', '2024-05-01', 'accepted'],
    ['a zone offset', '2024-05-01T12:00:00+02:00'],
    ['a fraction', '2024-05-01T12:00:00.123Z'],
    ['a space between date and time', '2024-05-01 12:00'],
    ['spaces around', ' 2024-05-01T12:00:00Z ', 'refused'],
    ['a tab after', '2024-05-01T12:00:00Z\t', 'refused'],
    ['a newline after', '2024-05-01\n', 'refused'],
    ['no 13th month', '2024-13-01T12:00:00Z', 'refused'],
    ['words', 'yesterday', 'refused'],
    ['milliseconds since 1970', 1714564800000, 'refused'],
  ],
  email: [
    ['an address', 'ada@example.com', 'accepted'],
    ['spaces around', ' ada@example.com ', 'refused'],
    ['a space before', ' ada@example.com', 'refused'],
    ['a newline after', 'ada@example.com\n', 'refused'],
    ['no domain', 'ada@', 'refused'],
    ['no dot in the domain', 'ada@example'],
    ['two at signs', 'a@b@example.com'],
    ['a space inside', 'ada lovelace@example.com', 'refused'],
  ],
  'single-choice': [
    ['a choice id', 'gold', 'accepted'],
    ['a label', 'Gold'],
    ['spaces around an id', ' gold ', 'refused'],
    ['an id in a list', ['gold']],
  ],
  'multiple-select': [
    ['two ids', ['gold', 'silver'], 'accepted'],
    ['one id alone', 'gold', 'refused'],
    ['an id twice', ['gold', 'gold'], 'refused'],
    ['an unknown id', ['bronze']],
    ['an id with spaces', [' gold'], 'refused'],
    ['a null item', [null]],
  ],
  'collection of number': [
    ['numbers', [1, 2.5, -3], 'accepted'],
    ['a number as text', [1, '2'], 'refused'],
    ['a null item', [1, null]],
    ['a number alone', 1],
  ],
  'collection of text': [
    ['words', ['a', ' b '], 'accepted'],
    ['a number item', ['a', 1]],
  ],
  'collection of datetime': [
    ['dates', ['2024-05-01', '2024-05-01T12:00:00Z'], 'accepted'],
    ['a date with spaces', ['2024-05-01', ' 2024-05-02 '], 'refused'],
  ],
  'collection of email': [
    ['addresses', ['ada@example.com'], 'accepted'],
    ['an address with spaces', [' ada@example.com '], 'refused'],
  ],
};

/** Each type with each value, by name and in parameter order, and the shapes every action's inputs may take. */
export function inputCases(): InputCase[] {
  const cases: InputCase[] = [];
  for (const [typeName, type] of Object.entries(TYPES)) {
    const parameter: Parameter = { name: 'value', type };
    for (const [what, value, known] of [...(OWN[typeName] ?? []), ...EVERY_TYPE]) {
      cases.push({ name: `${typeName}: ${what}, by name`, parameter, inputs: { value }, ...(known ? { known } : {}) });
      cases.push({ name: `${typeName}: ${what}, in order`, parameter, inputs: [value], ...(known ? { known } : {}) });
    }
    cases.push({ name: `${typeName}: missing`, parameter, inputs: {}, known: 'refused' });
    cases.push({ name: `${typeName}: an extra member`, parameter, inputs: { value: null, other: 1 }, known: 'refused' });
    cases.push({ name: `${typeName}: too many in order`, parameter, inputs: [null, null], known: 'refused' });
    cases.push({ name: `${typeName}: none in order`, parameter, inputs: [], known: 'refused' });
    cases.push({ name: `${typeName}: not an object or array`, parameter, inputs: 'value', known: 'refused' });
    cases.push({ name: `${typeName}: null inputs`, parameter, inputs: null, known: 'refused' });
  }
  const constructor: Parameter = { name: 'constructor', type: 'text' };
  cases.push({ name: 'a parameter named constructor, not given', parameter: constructor, inputs: {}, known: 'refused' });
  cases.push({ name: 'a parameter named constructor, given', parameter: constructor, inputs: { constructor: 'x' }, known: 'accepted' });
  return cases;
}
