import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ActionMetadata, type LogEntry } from '../../src/core/schema';
import { compileForDebug } from '../../src/sandbox/runner/local/compileForDebug';
import { HarnessPool } from '../../src/sandbox/runner/local/harnessPool';
import { type LocalOutcome } from '../../src/sandbox/runner/local/localRun';

const metadata: ActionMetadata = {
  key: 'local-run',
  name: 'Local run',
  description: '',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'n', type: 'number' },
    { name: 'who', type: 'text' },
  ],
  result: { type: { type: 'object', properties: { doubled: { type: 'number' }, greeting: { type: 'text' } } } },
};
const MAIN = '/work/actions/local-run/main.ts';
const CODE = `type Out = { doubled: number; greeting: string };
export async function main(n: number, who: string): Promise<Out> {
  console.log('n is', n);
  await new Promise((resolve) => setTimeout(resolve, 5));
  if (n < 0) throw new RangeError('negative: ' + n);
  return { doubled: n * 2, greeting: 'hello ' + who };
}
`;

// The harness as it ships: local.ts bundled (as esbuild.mjs does), run by Node as the debugger runs it.
// Bundled, not through tsx: realm.ts's code is evaluated from its text, which must be plain.
describe('local debug harness: one run of main on this machine', function () {
  this.timeout(60_000);
  let dir: string;
  let harness: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'local-run-'));
    harness = path.join(dir, 'run-local.js');
    const { build } = await import('esbuild');
    await build({
      entryPoints: [path.resolve('src/sandbox/runner/local/harness.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: harness,
      logLevel: 'error',
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let runs = 0;
  async function run(code: string, inputs: unknown): Promise<{ outcome: LocalOutcome; logs: LogEntry[]; stdout: string; stderr: string }> {
    const request = path.join(dir, `request-${++runs}.json`);
    const outcomeFile = path.join(dir, `outcome-${runs}.json`);
    writeFileSync(request, JSON.stringify({ mainPath: MAIN, code, metadata, inputs }));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [harness, request, outcomeFile]);
    const outcome = JSON.parse(readFileSync(outcomeFile, 'utf8')) as LocalOutcome;
    const logs = stdout
      .split('\n')
      .filter((l) => l && !l.startsWith('main returned'))
      .map((message) => ({ time: 0, level: 'log', message }) as LogEntry);
    return { outcome, logs, stdout, stderr };
  }

  it('returns the result and the logs, with inputs by name as events carry them', async () => {
    const { outcome, logs } = await run(CODE, { n: 21, who: 'you' });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.result, { doubled: 42, greeting: 'hello you' });
    assert.deepEqual(outcome.resultProblems, []);
    assert.deepEqual(
      logs.map((l) => [l.level, l.message]),
      [['log', 'n is 21']],
    );
  });

  it('reports a thrown error with frames on main.ts lines', async () => {
    const { outcome } = await run(CODE, [-1, 'x']);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error.name, 'RangeError');
    assert.equal(outcome.error.message, 'negative: -1');
    assert.match(outcome.error.stack ?? '', new RegExp(`${MAIN.replace(/[.]/g, '\\.')}:5:`), outcome.error.stack);
  });

  it('checks the result against the declared result type', async () => {
    const { outcome } = await run(`export function main(n: number, who: string) { return { doubled: String(n), extra: who }; }\n`, { n: 1, who: 'a' });
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.resultProblems.map((p) => p.path),
      ['result.doubled', 'result.greeting', 'result.extra'],
    );
  });

  it('checks the inputs as the server does, and runs nothing when they do not fit', async () => {
    const { outcome, logs } = await run(CODE, { n: 'five', stray: 1 });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error.code, 'invalid-inputs');
    assert.deepEqual(outcome.inputProblems?.map((p) => p.path).sort(), ['inputs.n', 'inputs.stray', 'inputs.who'].sort());
    assert.deepEqual(logs, []);
  });

  it('has no time limit, and gives a syntax error its main.ts line', async () => {
    const slow = await run(
      `export function main(n: number) { const end = Date.now() + 5_500; while (Date.now() < end); return { doubled: n, greeting: '' }; }\n`,
      { n: 1, who: '' },
    );
    assert.ok(slow.outcome.ok, 'ran past the sandbox limit of 5 s');
    const broken = await run(`export function main() {\n  return (;\n}\n`, { n: 1, who: '' });
    assert.equal(broken.outcome.ok, false);
    assert.match(broken.outcome.error.message, /main\.ts:2\)$/);
  }).timeout(15_000);

  it('maps the compiled script to the real main.ts through an inline source map', () => {
    const compiled = compileForDebug(CODE, MAIN);
    assert.ok(compiled.ok);
    const data = /sourceMappingURL=data:application\/json;charset=utf-8;base64,(.+)$/.exec(compiled.script.js)?.[1];
    const map = JSON.parse(Buffer.from(data ?? '', 'base64').toString()) as { sources: string[]; sourcesContent: string[] };
    assert.deepEqual(map.sources, ['file://' + MAIN]);
    assert.equal(map.sourcesContent[0], CODE);
    assert.notEqual(compiled.script.filename, MAIN);
  });

  it('prints warnings and the error on stderr, for the Debug Console', async () => {
    const { stderr } = await run(`export function main(n: number, who: string) {\n  console.warn('careful', who);\n  throw new Error('boom ' + n);\n}\n`, {
      n: 3,
      who: 'c',
    });
    assert.match(stderr, /^careful c$/m);
    assert.match(stderr, /Error: boom 3\n\s+at main \(.*main\.ts:3:/);
  });

  it('runs the Testing view’s cases in the sandbox’s confined runner processes: each in its own context, logs by case, with a time limit', async () => {
    // From source, the runner's text is child/index.ts bundled on the fly, as the shipped sandbox-runner.js is.
    const pool = new HarnessPool(1);
    const logs: [number, string][] = [];
    const leaky = `let calls = 0;\nexport function main(n: number, who: string) {\n  calls++;\n  console.log('call', calls, who);\n  return { doubled: n * 2, greeting: String(calls) };\n}\n`;
    const run = (id: number, code: string, inputs: unknown, timeoutMs?: number) =>
      pool.run({ mainPath: MAIN, code, metadata, inputs, ...(timeoutMs === undefined ? {} : { timeoutMs }) }, (entry) => logs.push([id, entry.message]));
    try {
      const [first, second, spun, thrown] = await Promise.all([
        run(1, leaky, { n: 1, who: 'a' }),
        run(2, leaky, { n: 2, who: 'b' }),
        run(3, 'export function main(n: number, who: string) { while (true) {} }', { n: 3, who: 'c' }, 200),
        run(4, CODE, { n: -1, who: 'd' }),
      ]);
      assert.deepEqual(first, { ...first, ok: true, result: { doubled: 2, greeting: '1' } });
      assert.deepEqual(second, { ...second, ok: true, result: { doubled: 4, greeting: '1' } }, 'a fresh module per run');
      assert.deepEqual(logs, [
        [1, 'call 1 a'],
        [2, 'call 1 b'],
        [4, 'n is -1'],
      ]);
      assert.ok(spun && !spun.ok && spun.error.name === 'TimeoutError', JSON.stringify(spun));
      assert.ok(thrown && !thrown.ok);
      assert.match(thrown.error.stack ?? '', /main\.ts:5:/);
    } finally {
      pool.close();
    }
  });
});
