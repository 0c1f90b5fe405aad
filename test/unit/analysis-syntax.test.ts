import * as assert from 'node:assert/strict';
import { syntaxErrors } from '../../src/core/analysis';
import { newActionTemplate } from '../../src/core/workspace';
import { actionMetadata } from '../support/metadata';

describe('analysis: syntaxErrors', () => {
  it('finds nothing in code that parses, type errors and unresolved imports included', () => {
    const template = newActionTemplate(actionMetadata({ key: 'a', parameters: [{ name: 'n', type: 'number' }], result: { type: 'number' } }));
    assert.deepEqual(syntaxErrors(template), []);
    assert.deepEqual(syntaxErrors("import { x } from './nowhere';\nexport function main(n: number): string {\n  return n;\n}\n"), []);
  });

  it('finds half-typed code, at the place the parser stopped', () => {
    const source = 'export function main(n: number): number {\n  return n + ;\n}\n';
    const found = syntaxErrors(source);
    assert.equal(found.length, 1);
    assert.equal(found[0]?.message, 'Expression expected.');
    assert.deepEqual([found[0]?.range.start.line, found[0]?.range.start.character], [1, 13]);
  });

  it('finds an unclosed body', () => {
    assert.ok(syntaxErrors('export function main(n: number): number {\n  return n;\n').length > 0);
  });
});
