// A deploy checks the code its plan sends in programs of 25 (CodeChecks of src/core/deploy/checks.ts):
// the verdicts must be those of `check` (the checks of a save), whichever program an action falls in.
import assert from 'node:assert/strict';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

const MISMATCH = 'export async function main(n: number): Promise<string> {\n  return String(n);\n}\n';
const UNPARSED = 'export async function main(): Promise<string> {\n  return (;\n}\n';

describe('custom-actions deploy: the checks of its plan', function () {
  const suite = suiteSandbox();

  /**
   * 40 actions, so a deploy checks them in two programs (25, then the rest), with code that disagrees
   * with its metadata in the first and the last, and code that does not parse in the first.
   */
  function project(): string {
    const dir = suite.scratch.dir();
    writeProject(dir, suite.sandbox.url);
    for (let i = 0; i < 40; i++) {
      const key = `thread${String(i).padStart(2, '0')}`;
      const code = i === 2 || i === 37 ? MISMATCH : i === 20 ? UNPARSED : textMain(key);
      writeAction(dir, 'app-a', actionMetadata({ key }), code);
    }
    return dir;
  }
  /** The refused actions' lines, and their problems' lines, of a run's output. */
  const refusals = (stdout: string) => stdout.split('\n').filter((line) => /^refused\s|^ {2}\S+:\d+:\d+: /.test(line));

  it('gives the verdicts of `check`, at the same file:line, whichever of its programs an action is in', async () => {
    const dir = project();
    const checked = await runCli(['check'], { cwd: dir });
    assert.equal(checked.code, 6, checked.output);
    const deployed = await runCli(['deploy', '--dry-run'], { cwd: dir, env: { ...suite.env, CUSTOM_ACTIONS_DEBUG: '1' } });
    assert.equal(deployed.code, 6, deployed.output);
    assert.match(deployed.stderr, /compiler code cache \w+/);
    const expected = refusals(checked.stdout).map((line) => line.replace(/^refused\s+(\S+)$/, '$1'));
    const got = refusals(deployed.stdout).map((line) => line.replace(/^refused\s+(\S+) {2}.*$/, '$1'));
    assert.equal(got.length, 6, deployed.stdout);
    assert.deepEqual(got, expected);
    assert.match(deployed.stdout, /^ {2}app-a\/thread37\/main\.ts:1:28: main takes 1 parameter but the metadata declares 0/m);
    assert.match(deployed.stdout, /^ {2}app-a\/thread20\/main\.ts:2:\d+: Expression expected\.$/m);
  });

  it('writes the compiler’s code cache on a first deploy, and the next deploy uses it', async () => {
    const dir = project();
    const env = { ...suite.env, CUSTOM_ACTIONS_DEBUG: '1', CUSTOM_ACTIONS_CODE_CACHE: path.join(suite.scratch.dir(), 'cache') };
    const first = await runCli(['deploy', '--dry-run'], { cwd: dir, env });
    assert.match(first.stderr, /compiler code cache absent/);
    assert.match(first.stderr, /compiler code cache written \(.*\.v8cache\)/);
    const second = await runCli(['deploy', '--dry-run'], { cwd: dir, env });
    assert.match(second.stderr, /compiler code cache used/);
    assert.doesNotMatch(second.stderr, /code cache written/);
    assert.deepEqual(refusals(second.stdout), refusals(first.stdout));
  });

  it('prints its plan with --dry-run --json: what goes, to which action, against which base, and what is checked', async () => {
    const dir = project();
    const dry = await runCli(['deploy', '--dry-run', '--json'], { cwd: dir, env: suite.env });
    const json = JSON.parse(dry.stdout) as {
      plan: { application: string; key: string; plan: string; check: boolean; implementation?: { sends: boolean; base: unknown } }[];
    };
    assert.equal(json.plan.length, 40);
    const first = json.plan.find((p) => p.key === 'thread00')!;
    assert.deepEqual(
      [first.application, first.plan, first.check, first.implementation?.sends, first.implementation?.base],
      ['app-a', 'create', true, true, null],
    );
    assert.ok(json.plan.every((p) => p.plan === 'create' && p.check));
  });
});
