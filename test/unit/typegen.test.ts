import * as assert from 'node:assert/strict';
import ts from 'typescript';
import { type ActionMetadata } from '../../src/core/schema';
import { generateTypes } from '../../src/core/typegen';
import { newActionTemplate } from '../../src/core/workspace';

const metadata: ActionMetadata = {
  key: 'score-lead',
  name: 'Score lead',
  description: '',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'company', type: 'text', description: 'Company name' },
    { name: 'foundedAt', type: 'datetime' },
    { name: 'tier', type: { type: 'single-choice', choices: [{ id: 'gold', label: 'Gold' }, { id: 'silver', label: 'Silver' }] } },
    { name: 'channels', type: { type: 'multiple-select', choices: [{ id: 'mail', label: 'Mail' }] } },
    { name: 'scores', type: { type: 'collection', items: 'number' } },
  ],
  result: { type: { type: 'object', properties: { score: { type: 'number' }, 'owner-email': { type: 'email' }, tags: { type: { type: 'collection', items: 'text' } } } }, description: 'The score' },
};

const EXPECTED = `// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/** The choices of tier. */
export type TierChoice = "gold" | "silver";

/** The choices of channels. */
export type ChannelsChoice = "mail";

/** The parameters of the action, by name. */
export interface Inputs {
  /** Company name */
  company: string;
  /** A date and time as an ISO 8601 string. */
  foundedAt: string;
  tier: TierChoice;
  channels: ChannelsChoice[];
  scores: number[];
}

/** The score */
export type Result = {
  score: number;
  "owner-email": string;
  tags: string[];
};

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [company: string, foundedAt: string, tier: TierChoice, channels: ChannelsChoice[], scores: number[]];

export type Main = (...args: MainParameters) => Result | Promise<Result>;
`;

describe('type generation', () => {
  it('writes the types of every form, exactly', () => {
    assert.equal(generateTypes(metadata), EXPECTED);
  });

  it('is deterministic', () => {
    assert.equal(generateTypes(structuredClone(metadata)), generateTypes(metadata));
  });

  it('gives types that a new main.ts compiles against, and that catch a wrong return', () => {
    assert.deepEqual(compile(newActionTemplate(metadata)), []);
    const wrong = newActionTemplate(metadata).replace(/return \{[^}]*\};/, "return { score: 'high' };");
    assert.ok(compile(wrong).some((m) => m.includes("Type 'string' is not assignable to type 'number'")), compile(wrong).join('\n'));
  });
});

function compile(main: string): string[] {
  const files = new Map([
    ['/a/main.ts', main],
    ['/a/action.generated.ts', generateTypes(metadata)],
    ['/a/globals.d.ts', 'declare const console: { log(...args: unknown[]): void };'],
  ]);
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [] };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => files.get(f) ?? read(f);
  host.fileExists = (f) => files.has(f) || ts.sys.fileExists(f);
  host.directoryExists = (d) => d === '/a' || ts.sys.directoryExists(d);
  const base = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v) => (files.has(f) ? ts.createSourceFile(f, files.get(f)!, v) : base(f, v));
  const program = ts.createProgram(['/a/main.ts', '/a/globals.d.ts'], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
