import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { admin } from '../../src/sandbox/admin';
import { testDatabaseUrl } from './backend';
import { withSandbox } from './support';

/** `sandbox admin`, in-process, on a PGlite data directory (or, in the PostgreSQL run, a database of the cluster). */
describe('Sandbox admin command: applications and keys', function () {
  // Each command opens the data directory afresh, as the CLI does: seconds each on a busy machine.
  this.timeout(180_000);
  let dir: string;
  let where: string[];
  let databaseUrl: string | undefined;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sandbox-admin-'));
    databaseUrl = await testDatabaseUrl();
    where = databaseUrl === undefined ? ['--data', dir] : ['--database-url', databaseUrl];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await admin(
      [...args, ...where],
      {},
      (t) => (out += t),
      (t) => (err += t),
    );
    return { code, out, err };
  }

  it('creates an application, issues and lists keys without showing them, and a revoked key is refused', async () => {
    const created = await run('create-app', 'billing', '--name', 'Billing', '--json');
    assert.equal(created.code, 0, created.err);
    const first = JSON.parse(created.out) as { ok: boolean; id: string; name: string; key: string; keyId: string };
    assert.equal(first.ok, true, 'the envelope of custom-actions: ok');
    assert.equal(first.name, 'Billing');
    assert.match(first.key, /^ca_sk_[A-Za-z0-9_-]{43}$/);
    const issued = await run('issue-key', 'billing', '--json');
    assert.equal(issued.code, 0, issued.err);
    const second = JSON.parse(issued.out) as { key: string; keyId: string };

    const listed = await run('list-keys', 'billing');
    assert.deepEqual(
      listed.out
        .trim()
        .split('\n')
        .map((line) => line.split('\t')[0])
        .sort(),
      [first.keyId, second.keyId].sort(),
    );
    assert.ok(!listed.out.includes('ca_sk_'), 'list-keys shows no key');
    assert.match((await run('list-apps')).out, /^billing\tBilling\t2 key\(s\)$/m);

    const revoked = await run('revoke-key', second.keyId);
    assert.equal(revoked.code, 0, revoked.err);
    assert.equal((await run('revoke-key', second.keyId)).code, 2, 'a key is revoked once: no such key is a usage error, as an unknown action is');
    const apps = JSON.parse((await run('list-apps', '--json')).out) as { ok: boolean; applications: { id: string; keys: number }[] };
    assert.deepEqual([apps.ok, apps.applications.find((a) => a.id === 'billing')?.keys], [true, 1]);

    const box = await withSandbox({ ...(databaseUrl === undefined ? { dataDir: dir } : { databaseUrl }), applications: [] });
    try {
      assert.equal((await box.request('GET', '/api/application/billing/actions', { key: first.key })).status, 200);
      assert.equal((await box.request('GET', '/api/application/billing/actions', { key: second.key })).status, 401);
    } finally {
      await box.close();
    }
  });

  it("refuses what it cannot do with a clear message and custom-actions' exit codes and failure document, changing nothing", async () => {
    const none = await run('issue-key', 'no-such-app');
    assert.equal(none.code, 2, 'an unknown application is a usage error (2), as in custom-actions');
    assert.match(none.err, /no application "no-such-app"/);
    const unknown = await run('drop-everything');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /usage: sandbox admin/);
    const short = await run('revoke-key', 'abc');
    assert.equal(short.code, 2);
    assert.match(short.err, /8 or more hex digits/);
    const badId = await run('create-app', ' spaced ');
    assert.equal(badId.code, 2);
    const failed = await run('issue-key', 'no-such-app', '--json');
    assert.deepEqual(JSON.parse(failed.out), { ok: false, error: { exitCode: 2, message: 'no application "no-such-app" (create-app makes one)' } });
    const usage = await run('list-apps', 'extra', '--json');
    assert.equal((JSON.parse(usage.out) as { error: { exitCode: number } }).error.exitCode, 2);
    let err = '';
    assert.equal(
      await admin(
        ['list-apps'],
        {},
        () => undefined,
        (t) => (err += t),
      ),
      2,
    );
    assert.match(err, /say which database/);
  });

  it('help on every subcommand, on stdout with exit 0', async () => {
    for (const command of ['create-app', 'issue-key', 'list-apps', 'list-keys', 'revoke-key']) {
      let out = '';
      assert.equal(
        await admin(
          [command, '--help'],
          {},
          (t) => (out += t),
          () => undefined,
        ),
        0,
        command,
      );
      assert.match(out, new RegExp(`^usage: sandbox admin ${command}`), command);
      assert.match(out, /--json: \{"ok": true/, command);
    }
  });

  it('a data directory with a database server, by flag or by CUSTOM_ACTIONS_DATABASE_URL, is refused (the rule of sandboxBackend)', async () => {
    for (const [args, env] of [
      [['list-apps', '--data', dir, '--database-url', 'postgres://u@127.0.0.1:1/x'], {}],
      [['list-apps', '--data', dir], { CUSTOM_ACTIONS_DATABASE_URL: 'postgres://u@127.0.0.1:1/x' }],
    ] as const) {
      let err = '';
      assert.equal(
        await admin(
          [...args],
          { ...env },
          () => undefined,
          (t) => (err += t),
        ),
        2,
      );
      assert.match(err, /exclude each other|unset CUSTOM_ACTIONS_DATABASE_URL/);
    }
  });
});
