// A deploy checks code on a thread of its own (src/cli/checkThread.ts): the verdicts must be those of
// `check` (the checks of a save), whichever program of the thread an action falls in, and a thread that
// cannot start must cost nothing but time.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { ROOT, runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

const MISMATCH = 'export async function main(n: number): Promise<string> {\n  return String(n);\n}\n';
const UNPARSED = 'export async function main(): Promise<string> {\n  return (;\n}\n';

describe('custom-actions deploy: the check thread', function () {
  const suite = suiteSandbox();

  /**
   * 40 actions, so the thread checks them in three programs (8, 24, then the rest), with code that
   * disagrees with its metadata in the first and the last, and code that does not parse in the second.
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

  it('gives the verdicts of `check`, at the same file:line, whichever of its programs an action is in', async function () {
    if (availableParallelism() < 2) this.skip();
    const dir = project();
    const checked = await runCli(['check'], { cwd: dir });
    assert.equal(checked.code, 6, checked.output);
    const deployed = await runCli(['deploy', '--dry-run'], { cwd: dir, env: { ...suite.env, CUSTOM_ACTIONS_DEBUG: '1' } });
    assert.equal(deployed.code, 6, deployed.output);
    assert.match(deployed.stderr, /compiler code cache \w+ .*in the check thread/);
    assert.doesNotMatch(deployed.stderr, /checking in the command's thread/);
    const expected = refusals(checked.stdout).map((line) => line.replace(/^refused\s+(\S+)$/, '$1'));
    const got = refusals(deployed.stdout).map((line) => line.replace(/^refused\s+(\S+) {2}.*$/, '$1'));
    assert.equal(got.length, 6, deployed.stdout);
    assert.deepEqual(got, expected);
    assert.match(deployed.stdout, /^ {2}app-a\/thread37\/main\.ts:1:28: main takes 1 parameter but the metadata declares 0/m);
    assert.match(deployed.stdout, /^ {2}app-a\/thread20\/main\.ts:2:\d+: Expression expected\.$/m);
  });

  it('writes the compiler’s code cache from the thread on a first deploy, and the next deploy uses it', async function () {
    if (availableParallelism() < 2) this.skip();
    const dir = project();
    const env = { ...suite.env, CUSTOM_ACTIONS_DEBUG: '1', CUSTOM_ACTIONS_CODE_CACHE: path.join(suite.scratch.dir(), 'cache') };
    const first = await runCli(['deploy', '--dry-run'], { cwd: dir, env });
    assert.match(first.stderr, /compiler code cache absent .*in the check thread/);
    assert.match(first.stderr, /compiler code cache written \(.*\.v8cache\), in the check thread/);
    const second = await runCli(['deploy', '--dry-run'], { cwd: dir, env });
    assert.match(second.stderr, /compiler code cache used .*in the check thread/);
    assert.doesNotMatch(second.stderr, /code cache written/);
    assert.deepEqual(refusals(second.stdout), refusals(first.stdout));
  });

  it('checks in its own thread, with the same verdicts, when the thread cannot start', async () => {
    const dir = project();
    // An install that lost dist/check-worker.js: the command has its compiler, not the thread's script.
    const dist = path.join(suite.scratch.dir(), 'dist');
    mkdirSync(dist);
    for (const f of ['cli.js', 'analysis.js']) copyFileSync(path.join(ROOT, 'dist', f), path.join(dist, f));
    const env = { ...suite.env, CUSTOM_ACTIONS_DEBUG: '1', CUSTOM_ACTIONS_CODE_CACHE: 'off' };
    const broken = await runCli(['deploy', '--dry-run'], { cwd: dir, env, cli: path.join(dist, 'cli.js') });
    const whole = await runCli(['deploy', '--dry-run'], { cwd: dir, env });
    assert.equal(broken.code, 6, broken.output);
    if (availableParallelism() > 1) assert.match(broken.stderr, /check thread: .*; checking in the command's thread/);
    assert.deepEqual(refusals(broken.stdout), refusals(whole.stdout));
    assert.equal(refusals(broken.stdout).length, 6);
  });
});
