// The packaged sandbox on a machine that has never run it: an empty temp folder, so no cached database
// dump. It must start from the dump the build ships in dist/pglite/ rather than run initdb (seconds:
// docs/benchmarks.md). Runs after the build stage, on the bundle the .vsix carries.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const root = path.resolve(__dirname, '..', '..');
const pgliteVersion = (JSON.parse(readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string })
  .version;

describe('The packaged sandbox on a new machine', function () {
  const scratch: string[] = [];
  after(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('starts from the database dump it ships, not from initdb, and names the cache by its PGlite', async function () {
    const bundle = path.join(root, 'dist', 'sandbox.js');
    const shipped = path.join(root, 'dist', 'pglite', readdirSync(path.join(root, 'dist', 'pglite')).find((f) => f.endsWith('.tar.gz')) ?? 'none');
    assert.ok(existsSync(bundle) && existsSync(shipped), 'run the build stage first (npm run package)');
    assert.ok(path.basename(shipped).includes(`-pglite${pgliteVersion}.`), path.basename(shipped));
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-first-start-'));
    scratch.push(tmp);
    const child = spawn(process.execPath, [bundle, '--json', '--data', path.join(tmp, 'data'), '--ensure-app', 'first:First'], {
      env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, TEMP: tmp, TMP: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const ready = await new Promise<{ url: string }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.trim().split('\n')[0]!) as { url: string });
      });
      child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${err}`)));
    });
    child.kill('SIGTERM');
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const cached = path.join(tmp, 'custom-actions-sandbox', `template-schema${path.basename(shipped).match(/schema(\d+)/)?.[1]}-pglite${pgliteVersion}.tar`);
    assert.ok(existsSync(cached), `the dump cached under this PGlite's version: ${readdirSync(path.join(tmp, 'custom-actions-sandbox')).join(', ')}`);
    // initdb would have made a cluster of its own, with a random system identifier: the bytes differ.
    assert.ok(readFileSync(cached).equals(gunzipSync(readFileSync(shipped))), 'the cached dump is the shipped one');
  });
});
