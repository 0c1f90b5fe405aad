// The code caches as the built command uses them, the compiler's and the program's own (loaded by the
// launcher, dist/cli.js): written after a first run, used by the next, rebuilt when damaged, never in
// the workspace, and the verdicts the same with them and without.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { ROOT, Scratch, spawnCli, textMain, writeAction, writeProject } from './support';

const MISMATCH = 'export async function main(n: number): Promise<string> {\n  return String(n);\n}\n';

/** Every file under `dir` whose name ends in .v8cache. */
function cachesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.v8cache'));
}

describe('custom-actions: the compiler code cache', function () {
  const scratch = new Scratch();
  after(() => scratch.cleanup());

  /** A project of one action that passes and one whose code disagrees with its metadata (no server needed: check). */
  function project(): string {
    const dir = scratch.dir();
    writeProject(dir, 'http://127.0.0.1:9');
    writeAction(dir, 'app-a', actionMetadata({ key: 'good' }), textMain('fine'));
    writeAction(dir, 'app-a', actionMetadata({ key: 'bad', parameters: [{ name: 'n', type: 'text', description: 'A text' }] }), MISMATCH);
    return dir;
  }
  /** npm install inside the project: the bundles under its node_modules, a folder the repository holds. Returns their dist/. */
  function installedInside(dir: string): string {
    const dist = path.join(dir, 'node_modules', 'custom-actions-vscode', 'dist');
    mkdirSync(dist, { recursive: true });
    for (const f of ['cli.js', 'cli-program.js', 'analysis.js']) copyFileSync(path.join(ROOT, 'dist', f), path.join(dist, f));
    return dist;
  }
  const check = (cwd: string, env: Record<string, string>, cli?: string) =>
    spawnCli(['check', '--json'], { cwd, env: { CUSTOM_ACTIONS_DEBUG: '1', ...env }, cli });
  const stateOf = (stderr: string) => /compiler code cache (\w+)/.exec(stderr)?.[1];
  const programStateOf = (stderr: string) => /command line code cache (\w+)/.exec(stderr)?.[1];
  const compilerCache = (dir: string) => cachesUnder(dir).filter((f) => path.basename(f).startsWith('analysis-'));

  it('is written by a first run, used by the next, rebuilt when damaged, and the verdicts are the same every time', async () => {
    const dir = project();
    const cache = path.join(scratch.dir(), 'cache');
    const env = { CUSTOM_ACTIONS_CODE_CACHE: cache };

    const cold = await check(dir, env);
    assert.equal(cold.code, 6, cold.output);
    assert.equal(stateOf(cold.stderr), 'absent', cold.stderr);
    assert.match(cold.stderr, /compiler code cache written/);
    assert.equal(programStateOf(cold.stderr), 'absent', cold.stderr);
    assert.match(cold.stderr, /command line code cache written/);
    const [file] = compilerCache(cache);
    assert.ok(file, 'no cache written');
    assert.equal(cachesUnder(cache).length, 2, "the compiler's and the program's");
    assert.match(cold.stdout, /"line": 1/);

    const warm = await check(dir, env);
    assert.equal(stateOf(warm.stderr), 'used', warm.stderr);
    assert.equal(programStateOf(warm.stderr), 'used', warm.stderr);
    assert.doesNotMatch(warm.stderr, /written/);
    assert.equal(warm.stdout, cold.stdout, 'the verdicts differ with the cache');

    writeFileSync(path.join(cache, file), 'custom-actions code cache 1\nnot a key\n');
    const damaged = await check(dir, env);
    assert.equal(stateOf(damaged.stderr), 'absent', damaged.stderr);
    assert.match(damaged.stderr, /compiler code cache written/);
    assert.equal(damaged.stdout, cold.stdout);
    assert.equal(stateOf((await check(dir, env)).stderr), 'used');

    const off = await check(dir, { CUSTOM_ACTIONS_CODE_CACHE: 'off' });
    assert.equal(stateOf(off.stderr), 'off', off.stderr);
    assert.equal(programStateOf(off.stderr), 'off', off.stderr);
    assert.equal(off.stdout, cold.stdout);
    assert.deepEqual(cachesUnder(dir), []);
  });

  it('never writes a cache into the workspace, even when the command is installed inside it', async () => {
    const dir = project();
    const dist = installedInside(dir);
    const home = scratch.dir();

    const elsewhere = await check(dir, { XDG_CACHE_HOME: path.join(home, 'xdg') }, path.join(dist, 'cli.js'));
    assert.equal(elsewhere.code, 6, elsewhere.output);
    assert.match(elsewhere.stderr, /compiler code cache written/, elsewhere.stderr);
    assert.match(elsewhere.stderr, /command line code cache written/, elsewhere.stderr);
    assert.equal(cachesUnder(path.join(home, 'xdg', 'custom-actions')).length, 2);

    // Every place the cache could go is in the project: it loads without one.
    const inside = await check(dir, { XDG_CACHE_HOME: path.join(dir, '.cache'), HOME: dir }, path.join(dist, 'cli.js'));
    assert.equal(stateOf(inside.stderr), 'off', inside.stderr);
    assert.equal(programStateOf(inside.stderr), 'off', inside.stderr);
    const named = await check(dir, { CUSTOM_ACTIONS_CODE_CACHE: path.join(dir, 'cache') }, path.join(dist, 'cli.js'));
    assert.equal(stateOf(named.stderr), 'off', named.stderr);
    assert.match(named.stderr, /is inside the workspace/);
    assert.equal(named.stdout, elsewhere.stdout);
    assert.deepEqual(cachesUnder(dir), []);
  });

  it("keeps the program's cache out of a project named by --project from outside it, before the arguments are parsed", async () => {
    const dir = project();
    const dist = installedInside(dir);
    const home = scratch.dir();
    const env = { CUSTOM_ACTIONS_DEBUG: '1', XDG_CACHE_HOME: path.join(home, 'xdg') };
    // Run from a folder outside the project: only the arguments say where it is.
    for (const args of [['-C', dir], [`--project=${path.join(dir, 'app-a')}`]]) {
      const run = await spawnCli([...args, 'check', '--json'], { cwd: scratch.dir(), env, cli: path.join(dist, 'cli.js') });
      assert.equal(run.code, 6, run.output);
      assert.deepEqual(cachesUnder(dir), [], `${args.join(' ')}: a cache was written into the project`);
    }
    assert.equal(cachesUnder(path.join(home, 'xdg', 'custom-actions')).length, 2);
  });
});
