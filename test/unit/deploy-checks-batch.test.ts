import * as assert from 'node:assert/strict';
import * as analysis from '../../src/core/analysis';
import { actionCodeProblems, CodeChecks, codeProblems, codeProblemsOfMany, type CodeToCheck } from '../../src/core/deploy/checks';
import { type WorkspaceAction } from '../../src/core/deploy/pipeline';
import { type ActionMetadata } from '../../src/core/schema';
import { newActionTemplate } from '../../src/core/workspace';
import { actionMetadata, TIER } from '../support/metadata';

const CHANNELS = {
  name: 'channels',
  type: {
    type: 'multiple-select' as const,
    choices: [
      { id: 'mail', label: 'Mail' },
      { id: 'sms', label: 'SMS' },
      { id: 'fax', label: 'Fax' },
    ],
  },
};

const full = actionMetadata({
  key: 'score-lead',
  parameters: [{ name: 'company', type: 'text' }, TIER, CHANNELS, { name: 'scores', type: { type: 'collection', items: 'number' } }],
  result: { type: { type: 'object', properties: { score: { type: 'number' }, tags: { type: { type: 'collection', items: 'text' } } } } },
});
const small = actionMetadata({ key: 'add', parameters: [{ name: 'a', type: 'number' }], result: { type: 'number' } });
const RESULT = 'Promise<{ score: number; tags: string[] }>';

function main(parameters: string, result = RESULT, body = 'return { score: 1, tags: [] };'): string {
  return `export async function main(${parameters}): ${result} {\n  ${body}\n}\n`;
}

/** Code that agrees, code that does not in every way, code that does not parse, and files that are not main.ts. */
const FILES: (CodeToCheck & { readonly what: string })[] = [
  { what: 'the new-action template', text: newActionTemplate(full), metadata: full },
  { what: 'plain types', text: main("company: string, tier: 'gold' | 'silver', channels: ('mail' | 'sms' | 'fax')[], scores: number[]"), metadata: full },
  {
    what: 'choices in another order',
    text: main("company: string, tier: 'silver' | 'bronze', channels: ('sms' | 'telex')[], scores: number[]"),
    metadata: full,
  },
  {
    what: 'the same choices met first in this order',
    text: main("company: string, tier: 'bronze' | 'silver', channels: ('telex' | 'sms')[], scores: number[]"),
    metadata: full,
  },
  {
    what: 'wrong types',
    text: main('company: number, tier: boolean, channels: Date[], scores: string', 'Promise<{ score: string; extra: number }>'),
    metadata: full,
  },
  {
    what: 'types through Inputs',
    text: "import type { Inputs } from './action.generated';\nexport function main(a: Inputs['a']): number { return a; }\n",
    metadata: small,
  },
  { what: 'a wrong result inferred from the body', text: "export function main(a: number) { return 'x' + a; }\n", metadata: small },
  { what: 'too many parameters', text: 'export function main(a: number, b: string, c: number[]) { return a; }\n', metadata: small },
  { what: 'swapped names', text: main('tier: string, company: string, channels: string[], scores: number[]'), metadata: full },
  { what: 'missing main', text: 'export function run(a: number) { return a; }\n', metadata: small },
  { what: 'a syntax error', text: 'export function main(a: number { return a; }\n', metadata: small },
  { what: 'syntax errors and a mismatch', text: 'export function main(a: string): number {\n  return a +;\n}\nconst = 3;\n', metadata: small },
  { what: 'an empty file', text: '', metadata: small },
  { what: 'a script declaring a global type', text: 'type T = string;\nfunction main(a: T) { return 1; }\n', metadata: small },
  { what: 'another script with the same global type', text: 'type T = number;\nfunction main(a: T) { return a; }\n', metadata: small },
  { what: 'an import of another action', text: "import { main as other } from '../../0/action/main';\nexport const main = other;\n", metadata: small },
  {
    what: 'an import going up to the root',
    text: "import type { Inputs } from '../../../batch/0/action/action.generated';\nexport function main(a: Inputs['company']) { return a; }\n",
    metadata: small,
  },
  { what: 'a helper without main', text: 'export function helper(a: number) { return a; }\n', metadata: small, fileName: 'helper.ts' },
  { what: 'a helper defining a wrong main', text: 'export function main(a: string) { return a; }\n', metadata: small, fileName: 'helper.ts' },
  { what: 'a helper that does not parse', text: 'export function helper( { }\n', metadata: small, fileName: 'helper.ts' },
  { what: 'no metadata: syntax only', text: 'export function main(a: number { }\n', metadata: undefined },
  { what: 'no metadata, good code', text: 'export function main() { return 1; }\n', metadata: undefined },
];

function oneByOne(files: readonly CodeToCheck[]): unknown[] {
  return files.map((f) => codeProblems(analysis, f.text, f.metadata, f.fileName));
}

describe('deploy checks: codeProblemsOfMany', () => {
  it('gives every file the same problems, messages, ranges and codes as codeProblems one at a time', () => {
    const expected = oneByOne(FILES);
    const batch = codeProblemsOfMany(analysis, FILES);
    FILES.forEach((f, i) => assert.deepEqual(batch[i], expected[i], f.what));
    // The fixtures do find problems of every kind, so the comparison means something.
    const codes = new Set(batch.flat().map((p) => p.code));
    for (const code of ['type', 'result', 'count', 'order', 'missing-main', 'syntax']) assert.ok(codes.has(code), `no ${code} problem among the fixtures`);
  });

  it('does not depend on the order of the files or on what else is in the batch', () => {
    const reversed = [...FILES].reverse();
    assert.deepEqual(codeProblemsOfMany(analysis, reversed), oneByOne(reversed));
    for (const f of FILES) assert.deepEqual(codeProblemsOfMany(analysis, [f]), oneByOne([f]), f.what);
    assert.deepEqual(codeProblemsOfMany(analysis, []), []);
  });

  it('names choice ids in the metadata order, then the others by name, whatever order the checker met them in', () => {
    const [problems] = codeProblemsOfMany(analysis, [FILES[3]!]);
    const tier = problems!.find((p) => p.message.startsWith('tier'));
    assert.equal(
      tier?.message,
      'tier is declared as single-choice (silver, bronze) but the metadata gives single-choice (gold, silver) (missing gold; not in the metadata: bronze).',
    );
  });

  it('keeps one action from seeing another action’s files', () => {
    const other: ActionMetadata = { ...small, parameters: [{ name: 'a', type: 'text' }] };
    const files: CodeToCheck[] = [
      { text: 'export function main(a: string) { return 1; }\n', metadata: other },
      { text: "import { main as m } from '../../0/action/main';\nexport function main(a: Parameters<typeof m>[0]) { return 1; }\n", metadata: small },
    ];
    // Alone, the import does not resolve: a is any, which fits. Seeing action 0's main would make it text.
    assert.deepEqual(codeProblemsOfMany(analysis, files), oneByOne(files));
    assert.deepEqual(codeProblemsOfMany(analysis, files)[1], []);
  });
});

function workspaceAction(i: number, f: CodeToCheck): WorkspaceAction {
  return { key: `a${i}`, metadataFile: `a${i}/action.yaml`, codeFile: `a${i}/main.ts`, metadata: f.metadata, metadataProblems: [], code: f.text };
}

describe("deploy checks: CodeChecks, a deploy's checkCode in chunks", () => {
  const withMetadata = FILES.filter((f) => f.metadata !== undefined && f.fileName === undefined);
  const actions = withMetadata.map((f, i) => workspaceAction(i, f));

  it('answers each action as actionCodeProblems does, asked in any order, loading the analysis only when asked', () => {
    let loads = 0;
    const checks = new CodeChecks(
      () => {
        loads++;
        return analysis;
      },
      actions,
      { chunk: 4 },
    );
    assert.equal(loads, 0);
    for (const a of [...actions].reverse()) {
      const action = { ...a, metadata: a.metadata! };
      assert.deepEqual(checks.problemsOf(action), actionCodeProblems(analysis, action), a.key);
    }
    // Asked from the last one back, each ask checks from there on: one batch per action, none twice.
    assert.equal(loads, actions.length);
    const again = new CodeChecks(() => analysis, actions, { chunk: 4 });
    let batches = 0;
    const counting = new CodeChecks(
      () => {
        batches++;
        return analysis;
      },
      actions,
      { chunk: 4 },
    );
    for (const a of actions) assert.deepEqual(counting.problemsOf({ ...a, metadata: a.metadata! }), again.problemsOf({ ...a, metadata: a.metadata! }));
    assert.equal(batches, Math.ceil(actions.length / 4));
    // A first chunk of its own size (a deploy's concurrency), then chunks: the same answers.
    const sizes: number[] = [];
    const firstSmall = new CodeChecks(
      () => ({ ...analysis, checkMany: (items: Parameters<typeof analysis.checkMany>[0]) => (sizes.push(items.length), analysis.checkMany(items)) }),
      actions,
      { first: 2, chunk: 4 },
    );
    for (const a of actions) assert.deepEqual(firstSmall.problemsOf({ ...a, metadata: a.metadata! }), again.problemsOf({ ...a, metadata: a.metadata! }));
    assert.deepEqual(sizes.slice(0, 2), [2, Math.min(4, actions.length - 2)]);
  });

  it('checks on its own an action it was not given, or whose code is not the one it was given', () => {
    const checks = new CodeChecks(() => analysis, actions.slice(0, 2));
    const changed = { ...actions[0]!, metadata: actions[0]!.metadata!, code: 'export function main(a: number { }\n' };
    assert.deepEqual(checks.problemsOf(changed), actionCodeProblems(analysis, changed));
    const other = { ...actions[5]!, metadata: actions[5]!.metadata! };
    assert.deepEqual(checks.problemsOf(other), actionCodeProblems(analysis, other));
    assert.deepEqual(checks.problemsOf({ ...other, code: undefined }), []);
  });
});
