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
    const first = JSON.parse(created.out) as { id: string; name: string; key: string; keyId: string };
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
    assert.equal((await run('revoke-key', second.keyId)).code, 1, 'a key is revoked once');

    const box = await withSandbox({ ...(databaseUrl === undefined ? { dataDir: dir } : { databaseUrl }), applications: [] });
    try {
      assert.equal((await box.request('GET', '/api/application/billing/actions', { key: first.key })).status, 200);
      assert.equal((await box.request('GET', '/api/application/billing/actions', { key: second.key })).status, 401);
    } finally {
      await box.close();
    }
  });

  it('refuses what it cannot do with a clear message and an exit code, changing nothing', async () => {
    const none = await run('issue-key', 'no-such-app');
    assert.equal(none.code, 1);
    assert.match(none.err, /no application "no-such-app"/);
    const unknown = await run('drop-everything');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /usage: sandbox admin/);
    const short = await run('revoke-key', 'abc');
    assert.equal(short.code, 1);
    assert.match(short.err, /8 or more hex digits/);
    const badId = await run('create-app', ' spaced ');
    assert.equal(badId.code, 1);
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
});
