import * as assert from 'node:assert/strict';
import { inferFromMain, metadataFromSignature } from '../../src/core/analysis';
import { generateTypes } from '../../src/core/typegen';
import { actionMetadata, collectionOf, multipleSelect, singleChoice } from '../support/metadata';

describe('analysis: inferFromMain', () => {
  it('maps every type form, through aliases, interfaces and Promise', () => {
    const source = [
      "type Priority = 'low' | 'high_priority';",
      "type Tag = 'vip' | 'newCustomer';",
      'type Amount = number;',
      'interface Summary {',
      '  total: Amount;',
      '  owner: string;',
      '  labels: Tag[];',
      '  counts?: number[];',
      "  state: 'open' | 'closed';",
      '}',
      'export async function main(name: string, amount: Amount, priority: Priority, tags: Tag[], scores: readonly number[], notes: Array<string>, level?: 1 | 2): Promise<Summary> {',
      '  return { total: amount, owner: name, labels: tags, state: "open" };',
      '}',
    ].join('\n');
    const inferred = inferFromMain(source);
    assert.deepEqual(inferred, {
      parameters: [
        { name: 'name', type: 'text' },
        { name: 'amount', type: 'number' },
        { name: 'priority', type: singleChoice({ low: 'Low', high_priority: 'High priority' }) },
        { name: 'tags', type: multipleSelect({ vip: 'Vip', newCustomer: 'New customer' }) },
        { name: 'scores', type: collectionOf('number') },
        { name: 'notes', type: collectionOf('text') },
        { name: 'level', type: 'number' },
      ],
      result: {
        type: {
          type: 'object',
          properties: {
            total: { type: 'number' },
            owner: { type: 'text' },
            labels: { type: collectionOf('text') },
            counts: { type: collectionOf('number') },
            state: { type: 'text' },
          },
        },
      },
      problems: [],
    });
  });

  it('reads simple and collection results, synchronous or not, declared or inferred', () => {
    const cases: [string, unknown][] = [
      ['export function main(): number { return 1; }', 'number'],
      ['export const main = async () => "done";', 'text'],
      ['export async function main(): Promise<string[]> { return []; }', collectionOf('text')],
      ['type Out = Promise<Array<number>>;\nexport function main(): Out { return Promise.resolve([1]); }', collectionOf('number')],
    ];
    for (const [source, type] of cases) assert.deepEqual(inferFromMain(source)?.result, { type }, source);
  });

  it('resolves the generated names: Inputs[…], the Choice types and Result', () => {
    const metadata = actionMetadata({
      key: 'k',
      parameters: [{ name: 'mode', type: singleChoice({ fast: 'Fast!', safe: 'Safe' }) }],
      result: { type: collectionOf('number') },
    });
    const source =
      "import type { Inputs, Result } from './action.generated';\nexport async function main(mode: Inputs['mode']): Promise<Result> { return []; }";
    const inferred = inferFromMain(source, { generatedSource: generateTypes(metadata) });
    assert.deepEqual(inferred?.parameters, [{ name: 'mode', type: singleChoice({ fast: 'Fast', safe: 'Safe' }) }]);
    assert.deepEqual(inferred?.result, { type: collectionOf('number') });
  });

  it('reports what no metadata type can say, and takes it as text', () => {
    const source = 'export function main(flag: boolean, when: Date, data: { a: string }, ...rest: string[]): void {}';
    const inferred = inferFromMain(source);
    assert.ok(inferred);
    assert.deepEqual(
      inferred.parameters.map((p) => p.type),
      ['text', 'text', 'text', collectionOf('text')],
    );
    assert.deepEqual(inferred.result, { type: 'text' });
    assert.deepEqual(
      inferred.problems.map((p) => [p.target, p.index, p.range.start.offset]),
      [
        ['parameter', 0, source.indexOf('flag')],
        ['parameter', 1, source.indexOf('when')],
        ['parameter', 2, source.indexOf('data')],
        ['parameter', 3, source.indexOf('...rest')],
        ['result', undefined, source.indexOf('void')],
      ],
    );
    assert.match(inferred.problems[0]?.message ?? '', /^flag: boolean has no metadata type \(the metadata has no boolean type/);
    assert.match(inferred.problems[1]?.message ?? '', /ISO 8601/);
    assert.match(inferred.problems[4]?.message ?? '', /^The result: void has no metadata type \(main must return a value\)/);
  });

  it('reports nested objects in a result, property by property', () => {
    const inferred = inferFromMain('export function main() { return { id: 1, owner: { name: "x" } }; }');
    assert.deepEqual(inferred?.result, { type: { type: 'object', properties: { id: { type: 'number' }, owner: { type: 'text' } } } });
    assert.deepEqual(
      inferred?.problems.map((p) => p.message),
      [
        'Property owner: { name: string; } has no metadata type (object properties hold text, numbers or collections, not nested objects); it is taken as text.',
      ],
    );
  });

  it('returns undefined without main', () => {
    assert.equal(inferFromMain('export const x = 1;'), undefined);
  });
});

describe('analysis: metadataFromSignature', () => {
  const metadata = actionMetadata({
    key: 'notify',
    name: 'Notify',
    description: 'Sends a note',
    parameters: [
      { name: 'to', type: 'email', description: 'Who gets it' },
      {
        name: 'urgency',
        type: singleChoice({ low: 'Whenever', high: 'Now!' }),
        description: 'How soon',
      },
      { name: 'sendAt', type: 'datetime' },
    ],
    result: { type: { type: 'object', properties: { id: { type: 'text' }, sentAt: { type: 'datetime' } } }, description: 'The note' },
  });

  it('keeps the metadata whole when the signature agrees with it', () => {
    const source =
      "import type { Inputs, Result } from './action.generated';\nexport async function main(to: Inputs['to'], urgency: Inputs['urgency'], sendAt: Inputs['sendAt']): Promise<Result> { return { id: '', sentAt: '' }; }";
    assert.deepEqual(metadataFromSignature(source, metadata), metadata);
  });

  it('follows the signature: order, new and renamed parameters, new choices, new properties; keeps descriptions, labels, email and datetime', () => {
    const source = [
      "export async function main(urgency: 'low' | 'high' | 'critical', recipient: string, sendAt: string, copies: number) {",
      "  return { id: 'n1', sentAt: '', attempts: 1 };",
      '}',
    ].join('\n');
    assert.deepEqual(metadataFromSignature(source, metadata), {
      ...metadata,
      parameters: [
        {
          name: 'urgency',
          type: singleChoice({ low: 'Whenever', high: 'Now!', critical: 'Critical' }),
          description: 'How soon',
        },
        // A parameter that appears nowhere else keeps what sat at its position: here, nothing (urgency moved to position 0).
        { name: 'recipient', type: 'text' },
        { name: 'sendAt', type: 'datetime' },
        { name: 'copies', type: 'number' },
      ],
      result: {
        type: { type: 'object', properties: { id: { type: 'text' }, sentAt: { type: 'datetime' }, attempts: { type: 'number' } } },
        description: 'The note',
      },
    });
  });

  it('a renamed parameter at the same position keeps its description and type', () => {
    const source = "export function main(recipient: string, urgency: 'low' | 'high', sendAt: string) { return { id: '', sentAt: '' }; }";
    const updated = metadataFromSignature(source, metadata);
    assert.deepEqual(updated?.parameters[0], { name: 'recipient', type: 'email', description: 'Who gets it' });
  });

  it('keeps the metadata type where the signature says nothing usable', () => {
    const source = 'export function main(to: any, urgency: boolean, sendAt: string): number { return 1; }';
    const updated = metadataFromSignature(source, metadata);
    assert.deepEqual(
      updated?.parameters.map((p) => p.type),
      ['email', metadata.parameters[1]?.type, 'datetime'],
    );
    assert.deepEqual(updated?.result, { type: 'number', description: 'The note' });
  });

  it('returns undefined without main', () => {
    assert.equal(metadataFromSignature('export {};', metadata), undefined);
  });
});
