import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { metadata, requester, ROOT } from './support';

const CACHE = 'custom-actions-sandbox';

/** Starts the CLI in its own process with `env`; resolves with its ready line's URL. */
function startCli(dataDir: string, env: NodeJS.ProcessEnv): Promise<{ url: string; key: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--require', 'tsx/cjs', path.join(ROOT, 'src/sandbox/cli.ts'), '--json', '--port', '0', '--data', dataDir, '--ensure-app', 'app:App'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${stderr}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes('\n')) return;
      child.removeAllListeners('exit');
      const { url, applications } = JSON.parse(stdout) as { url: string; applications: { key: string }[] };
      resolve({ url, key: applications[0]?.key ?? '', stop: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))) });
    });
  });
}

/**
 * A new data directory starts as a copy of a template directory cached in the OS temp folder (made
 * once from the cached dump): sandboxes that make it at the same moment must all start, and none may
 * copy a half-made one.
 */
describe('Sandbox data directory: new ones copied from a cached template', function () {
  this.timeout(120_000);
  let scratch: string;

  beforeEach(() => (scratch = mkdtempSync(path.join(tmpdir(), 'sandbox-template-'))));
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('starts three sandboxes on new data directories at once, from one template directory made among them', async () => {
    // A temp folder of their own, holding only the dump (made by the suite's root hook), so the
    // template directory does not exist yet and all three race to make it.
    const temp = path.join(scratch, 'tmp');
    mkdirSync(path.join(temp, CACHE), { recursive: true });
    for (const file of readdirSync(path.join(tmpdir(), CACHE)).filter((f) => f.endsWith('.tar'))) {
      cpSync(path.join(tmpdir(), CACHE, file), path.join(temp, CACHE, file));
    }
    const env = { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp };
    const dirs = [1, 2, 3].map((i) => path.join(scratch, `data-${i}`));
    const started = await Promise.all(dirs.map((dir) => startCli(dir, env)));
    try {
      for (const { url } of started) assert.equal((await fetch(`${url}/api`)).status, 200);
    } finally {
      await Promise.all(started.map((s) => s.stop()));
    }
    for (const dir of dirs) assert.ok(existsSync(path.join(dir, 'PG_VERSION')), `${dir} is a data directory`);
    const cached = readdirSync(path.join(temp, CACHE));
    assert.ok(
      cached.some((f) => !f.endsWith('.tar') && existsSync(path.join(temp, CACHE, f, 'PG_VERSION'))),
      `a template directory: ${cached.join(', ')}`,
    );
    assert.deepEqual(
      cached.filter((f) => f.includes('.partial')),
      [],
      'no half-made template left',
    );
  });

  it('keeps what a sandbox on a copied data directory wrote, across a restart', async () => {
    const dir = path.join(scratch, 'data');
    const first = await startCli(dir, process.env);
    try {
      const created = await requester(first.url)('POST', '/api/application/app/actions', { key: first.key, json: metadata() });
      assert.equal(created.status, 201);
    } finally {
      await first.stop();
    }
    const again = await startCli(dir, process.env);
    try {
      const listed = await requester(again.url)('GET', '/api/application/app/actions', { key: again.key });
      assert.deepEqual(
        (listed.json as { key: string }[]).map((a) => a.key),
        ['add'],
      );
    } finally {
      await again.stop();
    }
  });
});
