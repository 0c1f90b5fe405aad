import * as assert from 'node:assert/strict';
import { findMain } from '../../src/core/analysis';
import { mightDefineMain } from '../../src/core/analysis/quickCheck';

/** Offsets of the first occurrence of `snippet` (after `after`, when given). */
function span(source: string, snippet: string, after = ''): { start: number; end: number } {
  const start = source.indexOf(snippet, after ? source.indexOf(after) : 0);
  assert.ok(start >= 0, `${snippet} not in the source`);
  return { start, end: start + snippet.length };
}

describe('analysis: findMain', () => {
  it('reads the template form: exported async function with generated types', () => {
    const source = [
      "import type { Inputs, Result } from './action.generated';",
      '',
      "export async function main(a: Inputs['a'], b?: number, c = 3): Promise<Result> {",
      '  return { a };',
      '}',
      '',
    ].join('\n');
    const main = findMain(source);
    assert.ok(main);
    assert.equal(main.kind, 'function');
    assert.equal(main.exported, 'named');
    assert.equal(main.name, 'main');
    assert.equal(main.async, true);
    assert.equal(main.returnTypeText, 'Promise<Result>');
    assert.deepEqual(main.returnTypeRange?.start, { line: 2, character: 63, offset: span(source, 'Promise<Result>').start });
    assert.deepEqual(main.nameRange.start, { line: 2, character: 22, offset: span(source, 'main(').start });
    assert.deepEqual(main.range.start.line, 2);
    assert.deepEqual(main.range.end.line, 4);
    assert.deepEqual(
      main.parameters.map((p) => [p.name, p.typeText, p.optional, p.defaultText, p.rest]),
      [
        ['a', "Inputs['a']", false, undefined, false],
        ['b', 'number', true, undefined, false],
        ['c', undefined, false, '3', false],
      ],
    );
    const [a, b] = main.parameters;
    assert.deepEqual([a?.range.start.offset, a?.range.end.offset], Object.values(span(source, "a: Inputs['a']")));
    assert.deepEqual([a?.typeRange?.start.offset, a?.typeRange?.end.offset], Object.values(span(source, "Inputs['a']")));
    assert.deepEqual([b?.nameRange.start.offset, b?.nameRange.end.offset], Object.values(span(source, 'b', 'b?')));
    assert.deepEqual(b?.typeRange?.start, { line: 2, character: 47, offset: span(source, 'number').start });
    assert.deepEqual(
      [main.parameterListRange?.start.offset, main.parameterListRange?.end.offset],
      Object.values(span(source, "a: Inputs['a'], b?: number, c = 3")),
    );
  });

  it('reads a synchronous exported function without a return type', () => {
    const main = findMain('export function main(x: string) { return x; }');
    assert.equal(main?.kind, 'function');
    assert.equal(main?.async, false);
    assert.equal(main?.returnTypeText, undefined);
    assert.equal(main?.returnTypeRange, undefined);
  });

  it('reads `export const main = async (…) =>`', () => {
    const main = findMain('export const main = async (amount: number, tags: string[]): Promise<number> => amount;');
    assert.equal(main?.kind, 'arrow');
    assert.equal(main?.exported, 'named');
    assert.equal(main?.async, true);
    assert.deepEqual(
      main?.parameters.map((p) => p.typeText),
      ['number', 'string[]'],
    );
    assert.equal(main?.returnTypeText, 'Promise<number>');
  });

  it('reads `export const main = function (…)`', () => {
    const main = findMain('export const main = function (a: string): string { return a; };');
    assert.equal(main?.kind, 'function-expression');
    assert.equal(main?.async, false);
    assert.equal(main?.returnTypeText, 'string');
  });

  it('reads `export const main: Main = (…) =>` with contextually typed parameters', () => {
    const main = findMain("import type { Main } from './action.generated';\nexport const main: Main = async (a, b) => a + b;");
    assert.equal(main?.kind, 'arrow');
    assert.equal(main?.declaredTypeText, 'Main');
    assert.deepEqual(
      main?.parameters.map((p) => [p.name, p.typeText]),
      [
        ['a', undefined],
        ['b', undefined],
      ],
    );
  });

  it('reads an arrow function with one bare parameter', () => {
    const main = findMain('export const main = async x => x;');
    assert.equal(main?.kind, 'arrow');
    assert.equal(main?.parameterListRange, undefined);
    assert.deepEqual(
      main?.parameters.map((p) => p.name),
      ['x'],
    );
  });

  it('sees through `as` and `satisfies` around the function', () => {
    assert.equal(findMain('export const main = ((a: string) => a) satisfies Main;')?.kind, 'arrow');
    assert.equal(findMain('export const main = (function (a: string) { return a; }) as Main;')?.kind, 'function-expression');
  });

  it('reads `export default function main` and anonymous default exports', () => {
    const named = findMain('export default function main(a: string) { return a; }');
    assert.deepEqual([named?.kind, named?.exported, named?.name], ['function', 'default', 'main']);

    const source = 'export default async function (a: string) { return a; }';
    const anonymous = findMain(source);
    assert.deepEqual([anonymous?.kind, anonymous?.exported, anonymous?.name, anonymous?.async], ['function', 'default', undefined, true]);
    assert.deepEqual([anonymous?.nameRange.start.offset, anonymous?.nameRange.end.offset], [0, 0]);

    const arrow = findMain('export default async (a: number) => a * 2;');
    assert.deepEqual([arrow?.kind, arrow?.exported, arrow?.async], ['arrow', 'default', true]);
  });

  it('reads `function main` with `export { main }`, `export default main` and `export { run as main }`', () => {
    const listed = findMain('function main(a: string) { return a; }\nexport { main };');
    assert.deepEqual([listed?.kind, listed?.exported, listed?.name], ['function', 'named', 'main']);

    const viaDefault = findMain('const main = (a: string) => a;\nexport default main;');
    assert.deepEqual([viaDefault?.kind, viaDefault?.exported], ['arrow', 'default']);

    const renamed = findMain('function run(a: number) { return a; }\nexport { run as main };');
    assert.deepEqual([renamed?.exported, renamed?.name], ['named', 'run']);
  });

  it('prefers the exported main and the implementation of overloads', () => {
    const main = findMain(['export function main(a: string): string;', 'export function main(a: string, b?: number): string { return a; }'].join('\n'));
    assert.deepEqual(
      main?.parameters.map((p) => p.name),
      ['a', 'b'],
    );
  });

  it('takes an unexported top-level function main as exported: none', () => {
    const main = findMain('function main(a: string) { return a; }');
    assert.deepEqual([main?.kind, main?.exported], ['function', 'none']);
  });

  it('reads rest and destructured parameters', () => {
    const main = findMain('export function main({ a, b }: { a: string; b: number }, ...rest: string[]) {}');
    assert.deepEqual(
      main?.parameters.map((p) => [p.name, p.rest]),
      [
        ['{ a, b }', false],
        ['rest', true],
      ],
    );
  });

  it('returns undefined for files without main', () => {
    for (const source of [
      '',
      'export function run(a: string) { return a; }',
      'export const mainly = () => 1;',
      'function outer() { function main() {} return main; }\nexport { outer };',
      'export const main = 42;',
      'class A { main() {} }\nexport default A;',
      '// export function main() {}',
    ]) {
      assert.equal(findMain(source), undefined, source);
    }
  });
});

describe('analysis: mightDefineMain', () => {
  it('is true for every form findMain reads', () => {
    for (const source of [
      'export async function main() {}',
      'export const main = () => 1;',
      'let main = function () {};',
      'export default function () {}',
      'function run() {}\nexport { run as main };',
    ]) {
      assert.equal(mightDefineMain(source), true, source);
    }
  });

  it('is false when no form can be there', () => {
    assert.equal(mightDefineMain('export function run() {}\nconst domain = 1;'), false);
    assert.equal(mightDefineMain(''), false);
  });
});
