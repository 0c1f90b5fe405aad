/** The input sets' JSON equality (no node:util in a browser) says what node:util's isDeepStrictEqual says of JSON values. */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { jsonEqual } from '../../src/core/testing/expectation';

const VALUES: unknown[] = [
  null,
  0,
  -0,
  1,
  '1',
  true,
  false,
  '',
  [],
  {},
  [1, 2],
  [2, 1],
  [1, [2, { a: 3 }]],
  [1, [2, { a: '3' }]],
  { a: 1, b: 2 },
  { b: 2, a: 1 },
  { a: 1 },
  { a: 1, b: null },
  { a: [] },
  { a: {} },
  { '0': 1 },
  [1],
  { a: { b: { c: [1, { d: -0 }] } } },
  { a: { b: { c: [1, { d: 0 }] } } },
];

describe('jsonEqual agrees with isDeepStrictEqual on JSON values', () => {
  it('on every pair of a table of values, both ways', () => {
    for (const a of VALUES) {
      for (const b of VALUES) {
        const copy = JSON.parse(JSON.stringify(b) ?? 'null') as unknown;
        assert.equal(jsonEqual(a, b), isDeepStrictEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        if (!Object.is(b, -0) && !JSON.stringify(b).includes('-0')) assert.equal(jsonEqual(a, copy), isDeepStrictEqual(a, copy));
      }
    }
  });
});
