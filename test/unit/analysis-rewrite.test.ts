import * as assert from 'node:assert/strict';
import { applyEdits, compareWithMetadata, signatureFromMetadata } from '../../src/core/analysis';
import { type ActionMetadata } from '../../src/core/schema';
import { actionMetadata, TIER } from '../support/metadata';

const metadata = actionMetadata({ key: 'score', name: 'Score', parameters: [{ name: 'company', type: 'text' }, TIER], result: { type: 'number' } });

/** Applies the edits, checks the exact text, and checks that main then agrees with the metadata. */
function rewritesTo(source: string, expected: string, md: ActionMetadata = metadata): void {
  const rewritten = applyEdits(source, signatureFromMetadata(source, md));
  assert.equal(rewritten, expected);
  assert.deepEqual(compareWithMetadata(rewritten, md), []);
}

describe('analysis: signatureFromMetadata', () => {
  it('rewrites the parameters and return type of an async function, adding the import, keeping the body and other code', () => {
    rewritesTo(
      [
        '// Scores a lead.',
        'const weight = 2;',
        '',
        '/** Entry point. */',
        'export async function main(tier: string, name: number): Promise<string> {',
        '  return String(weight);',
        '}',
        '',
      ].join('\n'),
      [
        "import type { Inputs, Result } from './action.generated';",
        '',
        '// Scores a lead.',
        'const weight = 2;',
        '',
        '/** Entry point. */',
        "export async function main(company: Inputs['company'], tier: Inputs['tier']): Promise<Result> {",
        '  return String(weight);',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('gives exact, minimal edits', () => {
    const source = "import type { Result } from './action.generated';\nexport function main(company: string, tier: string): Result { return 1; }\n";
    const edits = signatureFromMetadata(source, metadata);
    const start = source.indexOf('company');
    assert.deepEqual(edits, [
      { start: source.indexOf('Result }') + 'Result'.length, end: source.indexOf('Result }') + 'Result'.length, newText: ', Inputs' },
      { start, end: source.indexOf(')'), newText: "company: Inputs['company'], tier: Inputs['tier']" },
    ]);
  });

  it('adds a return type where there was none, Result for a synchronous main', () => {
    rewritesTo(
      "import { helper } from './helper';\nexport function main(a) {\n  return helper(a);\n}\n",
      "import { helper } from './helper';\nimport type { Inputs, Result } from './action.generated';\nexport function main(company: Inputs['company'], tier: Inputs['tier']): Result {\n  return helper(a);\n}\n",
    );
  });

  it('keeps Promise<Result> for a synchronous main that returned a promise', () => {
    rewritesTo(
      "import type { Inputs, Result } from './action.generated';\nexport function main(): Promise<number> { return Promise.resolve(1); }\n",
      "import type { Inputs, Result } from './action.generated';\nexport function main(company: Inputs['company'], tier: Inputs['tier']): Promise<Result> { return Promise.resolve(1); }\n",
    );
  });

  it('completes a value import with type-only names', () => {
    rewritesTo(
      "import { type Result } from './action.generated';\nexport async function main(company: string, tier: string): Promise<Result> { return 1; }\n",
      "import { type Result, type Inputs } from './action.generated';\nexport async function main(company: Inputs['company'], tier: Inputs['tier']): Promise<Result> { return 1; }\n",
    );
  });

  it('keeps a parameter list spread over lines spread, with its trailing comma, and the defaults of kept names', () => {
    rewritesTo(
      [
        "import type { Inputs, Result } from './action.generated';",
        'export async function main(',
        "  tier = 'gold',",
        '  other: number,',
        '): Promise<Result> {',
        '  return 0;',
        '}',
      ].join('\n'),
      [
        "import type { Inputs, Result } from './action.generated';",
        'export async function main(',
        "  company: Inputs['company'],",
        "  tier: Inputs['tier'] = 'gold',",
        '): Promise<Result> {',
        '  return 0;',
        '}',
      ].join('\n'),
    );
  });

  it('rewrites arrow functions, parenthesizing a bare parameter', () => {
    rewritesTo(
      "import type { Inputs, Result } from './action.generated';\nexport const main = async x => 1;\n",
      "import type { Inputs, Result } from './action.generated';\nexport const main = async (company: Inputs['company'], tier: Inputs['tier']): Promise<Result> => 1;\n",
    );
    rewritesTo(
      "import type { Inputs, Result } from './action.generated';\nexport default (tier: string) => 1;\n",
      "import type { Inputs, Result } from './action.generated';\nexport default (company: Inputs['company'], tier: Inputs['tier']): Result => 1;\n",
    );
  });

  it('imports only Result when the metadata has no parameters', () => {
    rewritesTo(
      'export function main(a: string) { return 1; }\n',
      "import type { Result } from './action.generated';\n\nexport function main(): Result { return 1; }\n",
      {
        ...metadata,
        parameters: [],
      },
    );
  });

  it('gives no edits when main already follows the metadata, or when there is no main', () => {
    const source =
      "import type { Inputs, Result } from './action.generated';\nexport async function main(company: Inputs['company'], tier: Inputs['tier']): Promise<Result> { return 1; }\n";
    assert.deepEqual(signatureFromMetadata(source, metadata), []);
    assert.deepEqual(signatureFromMetadata('export const x = 1;\n', metadata), []);
  });
});
