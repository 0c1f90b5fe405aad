/**
 * The PostgreSQL run's install path (test/support/postgresCluster.ts), on a machine that has the
 * server: the lookup is pointed at empty folders through the environment, apt-get is a stand-in that
 * records what it was asked, and "not root" is a child process as `nobody`. Nothing is installed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensurePostgres, lookupFromEnvironment, onPath, POSTGRES_PACKAGE, postgresPlan } from '../support/postgresCluster';
import { ROOT } from './support';

const isRoot = process.getuid?.() === 0;

describe('postgres: installing the server for the PostgreSQL run', () => {
  let dir: string;
  let emptyRoot: string;
  let emptyBin: string;
  let aptBin: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pg-install-'));
    chmodSync(dir, 0o755);
    emptyRoot = path.join(dir, 'lib-postgresql');
    emptyBin = path.join(dir, 'bin-empty');
    aptBin = path.join(dir, 'bin-apt');
    for (const d of [emptyRoot, emptyBin, aptBin]) mkdirSync(d, { mode: 0o755 });
    // A stand-in apt-get: records each call and its DEBIAN_FRONTEND, installs nothing.
    writeFileSync(path.join(aptBin, 'apt-get'), `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> "${path.join(dir, 'apt-calls')}"\n`, { mode: 0o755 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => ({ POSTGRES_DEBIAN_ROOT: emptyRoot, PATH: emptyBin, ...extra });
  const calls = () => (existsSync(path.join(dir, 'apt-calls')) ? readFileSync(path.join(dir, 'apt-calls'), 'utf8') : '');

  it('decides: use what is there, install as root with apt-get, otherwise fail saying what to install', () => {
    const lookup = lookupFromEnvironment({ POSTGRES_DEBIAN_ROOT: '/nowhere', PATH: '' });
    assert.deepEqual(postgresPlan('/opt/pg/bin', { root: false, aptGet: undefined }, lookup), { kind: 'found', bin: '/opt/pg/bin' });
    const install = postgresPlan(undefined, { root: true, aptGet: '/usr/bin/apt-get' }, lookup);
    assert.equal(install.kind, 'install');
    assert.deepEqual(install.kind === 'install' && install.steps, [['update'], ['install', '-y', '--no-install-recommends', POSTGRES_PACKAGE]]);
    const notRoot = postgresPlan(undefined, { root: false, aptGet: '/usr/bin/apt-get' }, lookup);
    assert.equal(notRoot.kind, 'cannot');
    assert.match(notRoot.kind === 'cannot' ? notRoot.message : '', /needs root: run "sudo apt-get install postgresql"/);
    const noApt = postgresPlan(undefined, { root: true, aptGet: undefined }, lookup);
    assert.match(noApt.kind === 'cannot' ? noApt.message : '', /no apt-get to install Debian's package "postgresql"/);
    // A POSTGRES_BINDIR without the server is a mistake to fix, not a reason to install elsewhere.
    const wrongDir = postgresPlan(undefined, { root: true, aptGet: '/usr/bin/apt-get' }, lookupFromEnvironment({ POSTGRES_BINDIR: emptyBin }));
    assert.match(wrongDir.kind === 'cannot' ? wrongDir.message : '', /POSTGRES_BINDIR \(.*\) holds no PostgreSQL server/);
  });

  it('with no server and no apt-get, fails naming the package and the way out', () => {
    assert.throws(
      () => ensurePostgres(() => undefined, env({})),
      /no PostgreSQL server binaries .*no apt-get to install Debian's package "postgresql".*POSTGRES_BINDIR/s,
    );
  });

  it('a dry run says what it would install and how, and runs nothing', () => {
    const logged: string[] = [];
    const error = (() => {
      try {
        ensurePostgres((m) => logged.push(m), env({ PATH: aptBin, POSTGRES_INSTALL_DRY_RUN: '1' }));
      } catch (e) {
        return e as Error;
      }
      return assert.fail('the dry run went on');
    })();
    if (isRoot) {
      const how = `${aptBin}/apt-get update, then ${aptBin}/apt-get install -y --no-install-recommends postgresql`;
      assert.ok(error.message.includes(how), error.message);
      assert.match(error.message, /POSTGRES_INSTALL_DRY_RUN=1/);
      assert.ok(logged.some((m) => m.includes(how)));
    } else {
      assert.match(error.message, /needs root: run "sudo apt-get install postgresql"/);
    }
    assert.equal(calls(), '');
  });

  it('as root, runs apt-get update and install non-interactively, and says so when the server is still missing', function () {
    if (!isRoot) {
      assert.throws(() => ensurePostgres(() => undefined, env({ PATH: aptBin })), /needs root/);
      return;
    }
    const logged: string[] = [];
    assert.throws(() => ensurePostgres((m) => logged.push(m), env({ PATH: aptBin })), /apt-get installed "postgresql", but no initdb/);
    assert.equal(calls(), 'noninteractive update\nnoninteractive install -y --no-install-recommends postgresql\n');
    assert.ok(logged.some((m) => m.includes('installing Debian\'s package "postgresql"')));
  });

  it('not root, with apt-get there: fails naming the package and sudo, without running apt-get', function () {
    this.timeout(60_000);
    const script = `require(${JSON.stringify(path.join(ROOT, 'test/support/postgresCluster.ts'))}).ensurePostgres(() => undefined)`;
    // As root the check runs as `nobody`, the account the test cluster runs as too.
    const [command, args] = isRoot
      ? [
          onPath('setpriv', process.env.PATH ?? '') ?? 'setpriv',
          ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', process.execPath, '--require', 'tsx/cjs', '-e', script],
        ]
      : [process.execPath, ['--require', 'tsx/cjs', '-e', script]];
    // Its own writable temporary folder (tsx keeps a cache there), whoever it runs as.
    const childTmp = path.join(dir, 'tmp');
    mkdirSync(childTmp);
    chmodSync(childTmp, 0o1777);
    const run = spawnSync(command, args as string[], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { HOME: childTmp, TMPDIR: childTmp, ...env({ PATH: aptBin }) },
    });
    assert.equal(run.error, undefined);
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /installing Debian's package "postgresql" needs root: run "sudo apt-get install postgresql"/, run.stderr);
    assert.equal(calls(), '');
  });
});
