import * as assert from 'node:assert/strict';
import { checkInputs as extensionCheck } from '../../src/core/events';
import { type Parameter } from '../../src/core/schema';
import { checkInputs as sandboxCheck } from '../../src/sandbox/runner/inputs';
import { actionMetadata } from '../support/metadata';

const parameters: Parameter[] = [
  { name: 'when', type: 'datetime', description: '' },
  { name: 'who', type: 'email', description: '' },
];
const metadata = actionMetadata({ key: 'k', parameters, result: { type: 'text', description: '' } });

/** The same inputs, the same verdict, on both sides of the wire (docs/api.md, *Inputs*). */
const CASES: { inputs: Record<string, unknown>; ok: boolean; why: string }[] = [
  { inputs: { when: '2024-05-01T12:00:00Z', who: 'ada@example.com' }, ok: true, why: 'upper-case T and Z' },
  { inputs: { when: '2024-05-01t12:00:00z', who: 'ada@example.com' }, ok: true, why: 'lower-case t and z, as RFC 3339 allows' },
  { inputs: { when: '2024-05-01', who: 'ada@example.com' }, ok: true, why: 'a date alone' },
  { inputs: { when: null, who: null }, ok: true, why: 'null is no value, for any type' },
  { inputs: { when: '2024-13-01T12:00:00Z', who: 'ada@example.com' }, ok: false, why: 'no 13th month' },
  { inputs: { when: 'yesterday', who: 'ada@example.com' }, ok: false, why: 'not ISO 8601' },
  { inputs: { when: '2024-05-01', who: 'ada' }, ok: false, why: 'not an address' },
  { inputs: { when: '2024-05-01' }, ok: false, why: 'a parameter missing' },
];

describe('Input checks shared by the extension and the sandbox', () => {
  for (const { inputs, ok, why } of CASES) {
    it(`${ok ? 'accepts' : 'refuses'} ${JSON.stringify(inputs)}: ${why}`, () => {
      assert.equal(extensionCheck(parameters, inputs).length === 0, ok, 'the extension');
      assert.equal(sandboxCheck(metadata, inputs).ok, ok, 'the sandbox');
    });
  }
});
