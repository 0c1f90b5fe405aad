// The command line's code cache (src/cli/codeCache.ts): used on the second load, refused when it is
// damaged, foreign or not V8's, never placed in the workspace nor in a folder others can write to; and
// the folders the launcher (src/cli/main.ts) counts as the workspace before the arguments are parsed.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheFolder, CODE_CACHE_VARIABLE, loadCached } from '../../src/cli/codeCache';
import { launchFolders } from '../../src/cli/launchFolders';

const MODULE = `
'use strict';
const path = require('node:path');
function lazilyCompiled(n) { return n * 2 + path.sep.length; }
exports.double = (n) => lazilyCompiled(n);
exports.where = __dirname;
`;

describe('cli: the code cache of the analysis bundle', () => {
  let root: string;
  let bundleDir: string;
  let bundle: string;
  let workspace: string;
  const env = (extra: Record<string, string> = {}) => ({ HOME: path.join(root, 'home'), ...extra });

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
    bundleDir = path.join(root, 'tool', 'dist');
    workspace = path.join(root, 'project');
    mkdirSync(bundleDir, { recursive: true });
    mkdirSync(workspace);
    bundle = path.join(bundleDir, 'analysis.js');
    writeFileSync(bundle, MODULE);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const load = (extra: Record<string, string> = {}, ws: readonly string[] = [workspace]) =>
    loadCached<{ double(n: number): number; where: string }>(bundle, { env: env(extra), workspace: ws });
  let copies = 0;
  /**
   * A fresh copy of the bundle caching in one folder: V8 keeps what it compiled for a file name in
   * memory, and a second load of the same file in one process would never read the cache at all.
   */
  const loadCopy = (extra: Record<string, string> = {}) => {
    const dir = path.join(root, `copy${++copies}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'analysis.js'), MODULE);
    return loadCached<{ double(n: number): number; where: string }>(path.join(dir, 'analysis.js'), {
      env: env({ [CODE_CACHE_VARIABLE]: path.join(root, 'cache'), ...extra }),
      workspace: [workspace],
    });
  };
  const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : []);

  it('runs the module as require does, writes the cache after use and uses it on the next load', () => {
    const first = load();
    assert.equal(first.state, 'absent');
    assert.equal(first.exports.double(20), 41);
    assert.equal(first.exports.where, bundleDir);
    assert.equal(first.save(), true);
    assert.deepEqual(caches(bundleDir), [path.basename(first.file!)]);
    assert.match(first.file!, /analysis-[0-9a-f]{24}\.v8cache$/);

    assert.equal(readdirSync(bundleDir).filter((f) => f.endsWith('.tmp')).length, 0);

    const made = loadCopy();
    assert.equal(made.state, 'absent');
    made.exports.double(1);
    made.save();
    const second = loadCopy();
    assert.equal(second.state, 'used');
    assert.equal(second.file, made.file);
    assert.equal(second.exports.double(20), 41);
    assert.equal(second.save(), false, 'a cache that was used is not written again');
  });

  it('refuses a damaged cache, a foreign one and one V8 rejects, and writes a good one in its place', () => {
    const made = loadCopy();
    made.exports.double(1);
    made.save();
    const file = made.file!;
    const good = readFileSync(file);

    const damaged = Buffer.from(good);
    damaged[damaged.length - 10] = damaged[damaged.length - 10]! ^ 0xff;
    writeFileSync(file, damaged);
    const afterDamage = loadCopy();
    assert.equal(afterDamage.state, 'absent');
    assert.equal(afterDamage.exports.double(2), 5);
    assert.equal(afterDamage.save(), true);
    assert.equal(loadCopy().state, 'used');

    // The cache of another bundle (another Node, another build) put under this name.
    writeFileSync(file, good.toString('latin1').replace(/^(custom-actions code cache 1\n)[0-9a-f]{8}/, '$100000000'), 'latin1');
    assert.equal(loadCopy().state, 'absent');

    // Whole and of this bundle by its header, but not bytecode V8 takes.
    const header = good.subarray(0, good.indexOf('\n', good.indexOf('\n') + 1) + 1);
    const junk = Buffer.alloc(4096, 7);
    writeFileSync(file, Buffer.concat([header, Buffer.from(`${createHash('sha256').update(junk).digest('hex')}\n`), junk]));
    const rejected = loadCopy();
    assert.equal(rejected.state, 'rejected');
    assert.equal(rejected.exports.double(3), 7);
    assert.equal(rejected.save(), true);
    assert.equal(loadCopy().state, 'used');
  });

  it('is off when the variable says so', () => {
    const off = load({ [CODE_CACHE_VARIABLE]: 'off' });
    assert.equal(off.state, 'off');
    assert.equal(off.save(), false);
    assert.deepEqual(caches(bundleDir), []);
  });

  it('never goes into the workspace: a bundle inside it caches in the user cache folder instead', () => {
    const inside = path.join(workspace, 'node_modules', 'tool', 'dist');
    mkdirSync(inside, { recursive: true });
    writeFileSync(path.join(inside, 'analysis.js'), MODULE);
    const xdg = path.join(root, 'xdg');
    const loaded = loadCached<{ double(n: number): number }>(path.join(inside, 'analysis.js'), { env: env({ XDG_CACHE_HOME: xdg }), workspace: [workspace] });
    loaded.exports.double(1);
    loaded.save();
    assert.deepEqual(caches(inside), []);
    assert.equal(path.dirname(loaded.file!), path.join(xdg, 'custom-actions'));
    assert.equal(caches(path.join(xdg, 'custom-actions')).length, 1);
  });

  it('uses no cache at all when every place is in the workspace', () => {
    const loaded = load({ XDG_CACHE_HOME: path.join(workspace, '.cache') }, [workspace, bundleDir]);
    assert.equal(loaded.state, 'off');
    loaded.save();
    assert.equal(existsSync(path.join(workspace, '.cache')), false);
  });

  it('takes a folder named by the variable only outside the workspace, and says why not', () => {
    const warnings: string[] = [];
    const named = path.join(workspace, 'cache');
    assert.equal(cacheFolder(bundleDir, { env: { [CODE_CACHE_VARIABLE]: named }, workspace: [workspace], warn: (w) => warnings.push(w) }), undefined);
    assert.match(warnings[0]!, /inside the workspace/);
    assert.equal(existsSync(named), false);
    assert.equal(
      cacheFolder(bundleDir, { env: { [CODE_CACHE_VARIABLE]: 'relative/cache' }, workspace: [workspace], warn: (w) => warnings.push(w) }),
      undefined,
    );
    assert.match(warnings[1]!, /not an absolute path/);
    const outside = path.join(root, 'ci-cache');
    assert.equal(cacheFolder(bundleDir, { env: { [CODE_CACHE_VARIABLE]: outside }, workspace: [workspace] }), outside);
  });

  it('refuses a cache folder that others may write to, and a cache file that is a link', function () {
    if (process.platform === 'win32') this.skip();
    const shared = path.join(root, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    const warnings: string[] = [];
    assert.equal(cacheFolder(bundleDir, { env: { [CODE_CACHE_VARIABLE]: shared }, workspace: [workspace], warn: (w) => warnings.push(w) }), undefined);
    assert.match(warnings[0]!, /only you can write to/);
    // The user cache folder likewise: not used when group-writable.
    const xdg = path.join(root, 'xdg');
    mkdirSync(path.join(xdg, 'custom-actions'), { recursive: true });
    chmodSync(path.join(xdg, 'custom-actions'), 0o775);
    assert.equal(cacheFolder(path.join(workspace, 'dist'), { env: { XDG_CACHE_HOME: xdg }, workspace: [workspace] }), undefined);

    const made = loadCopy();
    made.exports.double(1);
    made.save();
    const target = path.join(root, 'elsewhere.v8cache');
    writeFileSync(target, readFileSync(made.file!));
    rmSync(made.file!);
    symlinkSync(target, made.file!);
    assert.equal(loadCopy().state, 'absent');
  });

  it('keeps only the newest few caches of the bundle in a folder', () => {
    for (let i = 0; i < 5; i++) writeFileSync(path.join(bundleDir, `analysis-${String(i).repeat(24)}.v8cache`), 'old');
    writeFileSync(path.join(bundleDir, 'other-000000000000000000000000.v8cache'), 'not ours');
    const made = load();
    made.save();
    const left = caches(bundleDir);
    assert.equal(left.filter((f) => f.startsWith('analysis-')).length, 3);
    assert.ok(left.includes(path.basename(made.file!)));
    assert.ok(left.includes('other-000000000000000000000000.v8cache'));
  });
});

describe('cli: the folders the launcher keeps its code cache out of', () => {
  let root: string;
  let project: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'launch-folders-')));
    project = path.join(root, 'repo');
    mkdirSync(path.join(project, 'app-a', 'greet'), { recursive: true });
    writeFileSync(path.join(project, 'customactions.yaml'), 'applications: []\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('names the current folder and the project above it', () => {
    const inside = path.join(project, 'app-a', 'greet');
    assert.deepEqual(launchFolders(['deploy'], inside), [inside, project]);
    assert.deepEqual(launchFolders([], root), [root]);
  });

  it('names the folder of every way of writing --project, and its project', () => {
    const elsewhere = path.join(root, 'elsewhere');
    const sub = path.join(project, 'app-a');
    for (const argv of [
      ['-C', sub, 'deploy'],
      [`-C${sub}`, 'deploy'],
      ['--project', sub, 'status'],
      [`--project=${sub}`, 'status'],
      ['-yC', sub, 'deploy'],
      ['deploy', '--project', sub],
    ])
      assert.deepEqual(launchFolders(argv, elsewhere), [elsewhere, sub, project], argv.join(' '));
    // Relative to the current folder, as the program reads it.
    assert.deepEqual(launchFolders(['-C', '../repo'], elsewhere), [elsewhere, project]);
  });

  it('errs towards more folders, never fewer: a value that only looks like --project is named too', () => {
    const folders = launchFolders(['deploy', '-aC', 'greet'], project);
    // `-aC` is -a with the value C, but may be read as -a -C greet: both kept out.
    assert.ok(folders.includes(path.join(project, 'greet')));
    assert.ok(folders.includes(project));
  });
});
