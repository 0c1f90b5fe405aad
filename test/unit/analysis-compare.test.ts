import * as assert from 'node:assert/strict';
import { compareWithMetadata, configureLibFolder, type Mismatch } from '../../src/core/analysis';
import { createActionProgram } from '../../src/core/analysis/program';
import { type ActionMetadata } from '../../src/core/schema';
import { generateTypes } from '../../src/core/typegen';
import { newActionTemplate } from '../../src/core/workspace';
import { actionMetadata, collectionOf, multipleSelect, TIER } from '../support/metadata';

const metadata = actionMetadata({
  key: 'score-lead',
  name: 'Score lead',
  parameters: [
    { name: 'company', type: 'text' },
    TIER,
    { name: 'channels', type: multipleSelect({ mail: 'Mail', sms: 'SMS' }) },
    { name: 'scores', type: collectionOf('number') },
    { name: 'foundedAt', type: 'datetime' },
  ],
  result: { type: { type: 'object', properties: { score: { type: 'number' }, tags: { type: collectionOf('text') } } } },
});

const PLAIN_PARAMETERS = "company: string, tier: 'silver' | 'gold', channels: ('mail' | 'sms')[], scores: number[], foundedAt: string";
const RESULT_TYPE = 'Promise<{ score: number; tags: string[] }>';

function plainMain(parameters = PLAIN_PARAMETERS, returnType = RESULT_TYPE): string {
  return `export async function main(${parameters}): ${returnType} {\n  return { score: 1, tags: [] };\n}\n`;
}

/** The mismatches without their messages, with ranges as [start, end] offsets. */
function brief(list: readonly Mismatch[]): unknown[] {
  return list.map((m) => ({ kind: m.kind, index: m.index, expected: m.expected, actual: m.actual, at: [m.range.start.offset, m.range.end.offset] }));
}

function span(source: string, snippet: string, from = 0): [number, number] {
  const start = source.indexOf(snippet, from);
  assert.ok(start >= 0, `${snippet} not in the source`);
  return [start, start + snippet.length];
}

describe('analysis: compareWithMetadata', () => {
  it('finds nothing wrong with the new-action template, with or without the generated file given', () => {
    const source = newActionTemplate(metadata);
    assert.deepEqual(compareWithMetadata(source, metadata), []);
    assert.deepEqual(compareWithMetadata(source, metadata, { generatedSource: generateTypes(metadata) }), []);
  });

  it('finds nothing wrong with plain types, literal unions in any order, and `string` for datetime', () => {
    assert.deepEqual(compareWithMetadata(plainMain(), metadata), []);
  });

  it('accepts wider parameter types: string for a single-choice, string[] for a multiple-select, any, unknown', () => {
    assert.deepEqual(compareWithMetadata(plainMain('company: string, tier: string, channels: string[], scores: any, foundedAt: unknown'), metadata), []);
  });

  it('reads types through interfaces, aliases, Inputs[…] and a synchronous result', () => {
    const source = [
      "import type { Inputs } from './action.generated';",
      "type Tier = Inputs['tier'];",
      "type Channel = 'sms' | 'mail';",
      'interface Output { score: number; tags: readonly string[] }',
      'export function main(company: string, tier: Tier, channels: Channel[], scores: Array<number>, foundedAt: Inputs["foundedAt"]): Output {',
      '  return { score: 0, tags: [] };',
      '}',
    ].join('\n');
    assert.deepEqual(compareWithMetadata(source, metadata), []);
  });

  it('checks contextually typed parameters of `const main: Main`', () => {
    const source =
      "import type { Main } from './action.generated';\nexport const main: Main = async (company, tier, channels, scores, foundedAt) => ({ score: 1, tags: [] });\n";
    assert.deepEqual(compareWithMetadata(source, metadata), []);
  });

  it('missing-main: a file without main, pointing at its start', () => {
    const result = compareWithMetadata('export function run() {}\n', metadata);
    assert.deepEqual(brief(result), [{ kind: 'missing-main', index: undefined, expected: undefined, actual: undefined, at: [0, 0] }]);
    assert.deepEqual(result[0]?.range.start, { line: 0, character: 0, offset: 0 });
  });

  it('count: extra parameters are underlined themselves', () => {
    const source = plainMain(`${PLAIN_PARAMETERS}, extra: number, more: string`);
    const [start] = span(source, 'extra');
    const [, end] = span(source, 'more: string');
    const result = compareWithMetadata(source, metadata);
    assert.deepEqual(brief(result), [{ kind: 'count', index: undefined, expected: '5', actual: '7', at: [start, end] }]);
    assert.match(result[0]?.message ?? '', /passes nothing for extra, more/);
  });

  it('count: missing parameters underline the parameter list, parentheses included', () => {
    const source = plainMain("company: string, tier: 'gold' | 'silver'");
    const [start, end] = span(source, "(company: string, tier: 'gold' | 'silver')");
    assert.deepEqual(brief(compareWithMetadata(source, metadata)), [{ kind: 'count', index: undefined, expected: '5', actual: '2', at: [start, end] }]);
    const empty = plainMain('');
    assert.deepEqual(brief(compareWithMetadata(empty, metadata)), [{ kind: 'count', index: undefined, expected: '5', actual: '0', at: span(empty, '()') }]);
  });

  it('count: says "1 parameter", not "1 parameters"', () => {
    const one = compareWithMetadata(plainMain('company: string'), metadata);
    assert.equal(one[0]?.message, 'main takes 1 parameter but the metadata declares 5 (company, tier, channels, scores, foundedAt).');
    const single: ActionMetadata = { ...metadata, parameters: [{ name: 'company', type: 'text' }] };
    const two = compareWithMetadata(plainMain('company: string, extra: number'), single);
    assert.equal(two[0]?.message, 'main takes 2 parameters but the metadata declares 1 (company); the platform passes nothing for extra.');
  });

  it('order: swapped parameters are one order mismatch each, on their names, and no name or type mismatches', () => {
    const source = plainMain("tier: 'silver' | 'gold', company: string, channels: ('mail' | 'sms')[], scores: number[], foundedAt: string");
    const result = compareWithMetadata(source, metadata);
    assert.deepEqual(brief(result), [
      { kind: 'order', index: 0, expected: 'company', actual: 'tier', at: span(source, 'tier') },
      { kind: 'order', index: 1, expected: 'tier', actual: 'company', at: span(source, 'company') },
    ]);
    assert.equal(result[0]?.message, 'tier is parameter 1 of main but parameter 2 in the metadata; the platform passes arguments by position.');
    assert.deepEqual(result[1]?.range.start, { line: 0, character: 52, offset: span(source, 'company')[0] });
  });

  it('name: a renamed parameter is compared by position, and its type still checked', () => {
    const source = plainMain("firm: string, tier: 'silver' | 'gold', channels: ('mail' | 'sms')[], list: string[], foundedAt: string");
    const result = compareWithMetadata(source, metadata);
    assert.deepEqual(brief(result), [
      { kind: 'name', index: 0, expected: 'company', actual: 'firm', at: span(source, 'firm') },
      { kind: 'name', index: 3, expected: 'scores', actual: 'list', at: span(source, 'list') },
      { kind: 'type', index: 3, expected: 'collection of number', actual: 'collection of text', at: span(source, 'string[]', span(source, 'list')[0]) },
    ]);
    assert.equal(result[0]?.message, 'Parameter 1 of main is firm but the metadata calls it company.');
  });

  it('type: every parameter form, each mismatch on the type annotation', () => {
    const source = plainMain("company: number, tier: 'gold' | 'bronze', channels: ('mail' | 'fax')[], scores: number, foundedAt: boolean");
    const result = compareWithMetadata(source, metadata);
    assert.deepEqual(brief(result), [
      { kind: 'type', index: 0, expected: 'text', actual: 'number', at: span(source, 'number') },
      { kind: 'type', index: 1, expected: 'single-choice (gold, silver)', actual: 'single-choice (gold, bronze)', at: span(source, "'gold' | 'bronze'") },
      { kind: 'type', index: 2, expected: 'multiple-select (mail, sms)', actual: 'multiple-select (mail, fax)', at: span(source, "('mail' | 'fax')[]") },
      { kind: 'type', index: 3, expected: 'collection of number', actual: 'number', at: span(source, 'number', span(source, 'scores')[0]) },
      { kind: 'type', index: 4, expected: 'text', actual: 'boolean', at: span(source, 'boolean') },
    ]);
    assert.equal(
      result[1]?.message,
      'tier is declared as single-choice (gold, bronze) but the metadata gives single-choice (gold, silver) (missing silver; not in the metadata: bronze).',
    );
    assert.match(result[4]?.message ?? '', /no boolean type/);
  });

  it('type: a contextually typed parameter is underlined by its name, from a stale generated file', () => {
    const stale = generateTypes({ ...metadata, parameters: metadata.parameters.map((p) => (p.name === 'company' ? { ...p, type: 'number' } : p)) });
    const source =
      "import type { Main } from './action.generated';\nexport const main: Main = async (company, tier, channels, scores, foundedAt) => ({ score: 1, tags: [] });\n";
    assert.deepEqual(brief(compareWithMetadata(source, metadata, { generatedSource: stale })), [
      { kind: 'type', index: 0, expected: 'text', actual: 'number', at: span(source, 'company') },
    ]);
  });

  it('result: wrong properties, on the return type', () => {
    const source = plainMain(PLAIN_PARAMETERS, 'Promise<{ score: string; extra: number }>');
    const result = compareWithMetadata(source, metadata);
    assert.deepEqual(brief(result), [
      {
        kind: 'result',
        index: undefined,
        expected: 'object { score: number, tags: collection of text }',
        actual: 'object { score: text, extra: number }',
        at: span(source, 'Promise<{ score: string; extra: number }>'),
      },
    ]);
    assert.equal(
      result[0]?.message,
      "main returns object { score: text, extra: number } but the metadata's result is object { score: number, tags: collection of text } (missing tags; not in the metadata: extra; score is text, expected number).",
    );
  });

  it('result: every simple form, and an inferred return type underlines the name main', () => {
    const forms: [ActionMetadata['result']['type'], string, string][] = [
      ['number', 'Promise<number>', ''],
      ['text', "'a' | 'b'", ''],
      ['email', 'string', ''],
      [collectionOf('text'), "('x' | 'y')[]", ''],
      [collectionOf('number'), 'string[]', 'collection of text'],
      ['number', 'Promise<void>', 'void'],
    ];
    for (const [type, returnType, actual] of forms) {
      const result = compareWithMetadata(plainMain(PLAIN_PARAMETERS, returnType), { ...metadata, result: { type } });
      assert.deepEqual(
        result.map((m) => m.actual),
        actual ? [actual] : [],
        returnType,
      );
    }
    const inferred = `export function main(${PLAIN_PARAMETERS}) {\n  return 42;\n}\n`;
    assert.deepEqual(brief(compareWithMetadata(inferred, metadata)), [
      { kind: 'result', index: undefined, expected: 'object { score: number, tags: collection of text }', actual: 'number', at: span(inferred, 'main') },
    ]);
  });

  it('treats names it cannot resolve as any instead of guessing', () => {
    const source = "import type { Company } from 'somewhere';\n" + plainMain(PLAIN_PARAMETERS.replace('company: string', 'company: Company'));
    assert.deepEqual(compareWithMetadata(source, metadata), []);
  });

  it('parses the standard lib once, not for each analysis', () => {
    const libOf = (source: string) => {
      const { program } = createActionProgram(source, undefined);
      const lib = program.getSourceFiles().filter((f) => program.isSourceFileDefaultLibrary(f));
      assert.ok(lib.length > 0, 'the program has the standard lib');
      return lib;
    };
    const first = libOf(plainMain());
    const second = libOf(plainMain(PLAIN_PARAMETERS, 'Promise<{ score: number; tags: string[]; n?: number }>'));
    assert.equal(second.length, first.length);
    second.forEach((file, i) => assert.equal(file, first[i], `${file.fileName} is the same parsed file`));
  });

  it('works on the built-in lib when no lib folder is at hand, as in the bundle', () => {
    configureLibFolder(null);
    try {
      assert.deepEqual(compareWithMetadata(plainMain(), metadata), []);
      const inferred = `export async function main(${PLAIN_PARAMETERS}) {\n  return { score: scores.map((s) => s * 2).length, tags: [company.toUpperCase()] };\n}\n`;
      assert.deepEqual(compareWithMetadata(inferred, metadata), []);
      assert.deepEqual(
        compareWithMetadata(plainMain(PLAIN_PARAMETERS.replace('scores: number[]', 'scores: string[]')), metadata).map((m) => m.kind),
        ['type'],
      );
    } finally {
      configureLibFolder(undefined);
    }
  });
});
