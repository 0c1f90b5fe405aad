import * as assert from 'node:assert/strict';
import ts from 'typescript';
import { type ActionMetadata, validateMetadata } from '../../src/core/schema';
import { generateTypes } from '../../src/core/typegen';
import { newActionMetadata, newActionTemplate } from '../../src/core/workspace';

const metadata: ActionMetadata = {
  key: 'score-lead',
  name: 'Score lead',
  description: '',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'company', type: 'text', description: 'Company name' },
    { name: 'employees', type: 'number' },
    { name: 'foundedAt', type: 'datetime' },
    { name: 'contact', type: 'email', description: 'Who to call.\nDuring office hours only; never */ at night.' },
    {
      name: 'tier',
      type: {
        type: 'single-choice',
        choices: [
          { id: 'gold', label: 'Gold' },
          { id: "it's", label: 'Quoted' },
        ],
      },
    },
    { name: 'channels', type: { type: 'multiple-select', choices: [{ id: 'mail', label: 'Mail' }] } },
    { name: 'scores', type: { type: 'collection', items: 'number' } },
    { name: 'dates', type: { type: 'collection', items: 'datetime' } },
  ],
  result: {
    type: {
      type: 'object',
      properties: {
        score: { type: 'number' },
        'owner-email': { type: 'email' },
        at: { type: 'datetime' },
        tags: { type: { type: 'collection', items: 'text' } },
      },
    },
    description: 'The score',
  },
};

const EXPECTED = `// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/**
 * The choices of tier, by id:
 * - 'gold': Gold
 * - 'it\\'s': Quoted
 */
export type TierChoice = 'gold' | 'it\\'s';

/**
 * The choices of channels, by id:
 * - 'mail': Mail
 */
export type ChannelsChoice = 'mail';

/** The parameters of the action, by name. */
export interface Inputs {
  /** Company name */
  company: string;
  employees: number;
  /** A date and time as an ISO 8601 string. */
  foundedAt: string;
  /**
   * Who to call.
   * During office hours only; never *\\/ at night.
   * An e-mail address.
   */
  contact: string;
  tier: TierChoice;
  channels: ChannelsChoice[];
  scores: number[];
  /** Each item is a date and time as an ISO 8601 string. */
  dates: string[];
}

/** The score */
export type Result = {
  score: number;
  /** An e-mail address. */
  'owner-email': string;
  /** A date and time as an ISO 8601 string. */
  at: string;
  tags: string[];
};

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [company: string, employees: number, foundedAt: string, contact: string, tier: TierChoice, channels: ChannelsChoice[], scores: number[], dates: string[]];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
`;

const minimal: ActionMetadata = { key: 'ping', name: 'Ping', description: '', developerEmail: 'a@b.co', parameters: [], result: { type: 'text' } };

describe('type generation', () => {
  it('writes the types of every form, exactly', () => {
    assert.equal(generateTypes(metadata), EXPECTED);
  });

  it('writes simple and collection results, and no parameters', () => {
    assert.equal(
      generateTypes(minimal),
      `// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/** The parameters of the action, by name. */
export interface Inputs {
}

export type Result = string;

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
`,
    );
    assert.match(generateTypes({ ...minimal, result: { type: 'number' } }), /^export type Result = number;$/m);
    assert.match(
      generateTypes({ ...minimal, result: { type: 'datetime' } }),
      /^\/\*\* A date and time as an ISO 8601 string\. \*\/\nexport type Result = string;$/m,
    );
    assert.match(
      generateTypes({ ...minimal, result: { type: { type: 'collection', items: 'text' }, description: 'Tags' } }),
      /^\/\*\* Tags \*\/\nexport type Result = string\[\];$/m,
    );
  });

  it('gives parameters whose PascalCase names collide distinct choice types', () => {
    const text = generateTypes({
      ...minimal,
      parameters: [
        { name: 'a_b', type: { type: 'single-choice', choices: [{ id: 'x', label: 'X' }] } },
        { name: 'aB', type: { type: 'multiple-select', choices: [{ id: 'y', label: 'Y' }] } },
      ],
    });
    assert.match(text, /^export type ABChoice = 'x';$/m);
    assert.match(text, /^export type ABChoice2 = 'y';$/m);
    assert.match(text, /^export type MainParameters = \[a_b: ABChoice, aB: ABChoice2\[\]\];$/m);
  });

  it('is deterministic', () => {
    assert.equal(generateTypes(structuredClone(metadata)), generateTypes(metadata));
  });

  it('writes the main.ts template against the generated types', () => {
    assert.equal(
      newActionTemplate(metadata).split('\n').slice(0, 4).join('\n'),
      "import type { Inputs, Result } from './action.generated';\n\n/** Score lead */\n" +
        "export async function main(company: Inputs['company'], employees: Inputs['employees'], foundedAt: Inputs['foundedAt'], contact: Inputs['contact'], tier: Inputs['tier'], channels: Inputs['channels'], scores: Inputs['scores'], dates: Inputs['dates']): Promise<Result> {",
    );
    assert.equal(
      newActionTemplate(minimal),
      "import type { Result } from './action.generated';\n\n/** Ping */\nexport async function main(): Promise<Result> {\n  console.log('ping running');\n  return '';\n}\n",
    );
  });

  it("starts New Action's metadata with a description to fill in, valid as it is, and code that compiles against it", () => {
    const start = newActionMetadata('hello-world', 'Hello world', 'me@example.com');
    assert.equal(start.description, 'Describe what Hello world does, for the people who use it.');
    assert.ok(validateMetadata(start).ok);
    assert.deepEqual(compile(start, newActionTemplate(start)), []);
  });

  it('gives types that a new main.ts compiles against, for every result form', () => {
    const results: ActionMetadata['result'][] = [
      metadata.result,
      { type: 'text' },
      { type: 'number' },
      { type: 'datetime' },
      { type: 'email' },
      { type: { type: 'collection', items: 'number' } },
    ];
    for (const result of results) {
      const m = { ...metadata, result };
      assert.deepEqual(compile(m, newActionTemplate(m)), [], JSON.stringify(result));
    }
    assert.deepEqual(compile(minimal, newActionTemplate(minimal)), []);
  });

  it('makes the compiler catch a wrong return, a wrong choice and a wrong argument list', () => {
    const template = newActionTemplate(metadata);
    const wrongReturn = template.replace(/return \{[^}]*\};/, "return { score: 'high', 'owner-email': '', at: '', tags: [] };");
    assert.ok(
      compile(metadata, wrongReturn).some((m) => m.includes("Type 'string' is not assignable to type 'number'")),
      compile(metadata, wrongReturn).join('\n'),
    );
    const wrongChoice = template.replace("console.log('score-lead running', company);", "const t: Inputs['tier'] = 'silver'; console.log(t);");
    assert.ok(
      compile(metadata, wrongChoice).some((m) => m.includes(`Type '"silver"' is not assignable to type 'TierChoice'`)),
      compile(metadata, wrongChoice).join('\n'),
    );
    const wrongArgs = template.replace("company: Inputs['company'], ", '');
    assert.ok(compile(metadata, wrongArgs).length > 0);
  });
});

/** Type-checks main.ts and the generated file in memory, and that main matches the generated Main. */
function compile(m: ActionMetadata, main: string): string[] {
  const files = new Map([
    ['/a/main.ts', main],
    ['/a/action.generated.ts', generateTypes(m)],
    ['/a/check.ts', "import type { Main } from './action.generated';\nimport { main } from './main';\nexport const checked: Main = main;\n"],
    ['/a/globals.d.ts', 'declare const console: { log(...args: unknown[]): void };'],
  ]);
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => files.get(f) ?? read(f);
  host.fileExists = (f) => files.has(f) || ts.sys.fileExists(f);
  host.directoryExists = (d) => d === '/a' || ts.sys.directoryExists(d);
  const base = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v) => (files.has(f) ? ts.createSourceFile(f, files.get(f)!, v) : base(f, v));
  const program = ts.createProgram(['/a/main.ts', '/a/check.ts', '/a/globals.d.ts'], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}
