/**
 * A temporary PostgreSQL cluster for the tests and the bench: the server binaries of the machine
 * (Debian's `postgresql` package, installed with apt-get when missing and when this runs as root;
 * `ensurePostgres` says what it does, or what to do),
 * a new cluster in a temporary folder owned by an unprivileged user (initdb refuses root), on a free
 * loopback port with a random password, and removed again by `stop`. Speed over durability (fsync
 * off): the tests kill sandbox processes, never the database server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** The connection string of the cluster's `postgres` database, as its superuser. */
  url: string;
  /** A new, empty database; its connection string. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** The Debian package with the server (initdb, postgres); the cluster needs version 15 or later. */
export const POSTGRES_PACKAGE = 'postgresql';

/**
 * Where the binaries are looked for, read from the environment so a test can point each at an
 * empty folder: POSTGRES_BINDIR (only there, when set), else Debian's versioned folders under
 * POSTGRES_DEBIAN_ROOT (default /usr/lib/postgresql), else PATH.
 */
export interface PostgresLookup {
  bindir: string | undefined;
  debianRoot: string;
  path: string;
}

export function lookupFromEnvironment(env: NodeJS.ProcessEnv = process.env): PostgresLookup {
  return { bindir: env.POSTGRES_BINDIR || undefined, debianRoot: env.POSTGRES_DEBIAN_ROOT || '/usr/lib/postgresql', path: env.PATH ?? '' };
}

/** Finds the server's binaries: the folder holding initdb and postgres, or undefined. */
export function postgresBinaries(lookup: PostgresLookup = lookupFromEnvironment()): string | undefined {
  const hasServer = (dir: string) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'postgres'));
  if (lookup.bindir) return hasServer(lookup.bindir) ? lookup.bindir : undefined;
  if (existsSync(lookup.debianRoot)) {
    const versions = readdirSync(lookup.debianRoot)
      .filter((v) => hasServer(path.join(lookup.debianRoot, v, 'bin')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(lookup.debianRoot, versions[0], 'bin');
  }
  const initdb = onPath('initdb', lookup.path);
  return initdb && hasServer(path.dirname(initdb)) ? path.dirname(initdb) : undefined;
}

/** An executable file of that name in one of PATH's folders. */
export function onPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** What `ensurePostgres` does on this machine: use what is there, install the package, or fail saying what to do. */
export type PostgresPlan =
  | { kind: 'found'; bin: string }
  | { kind: 'install'; aptGet: string; steps: string[][]; describe: string }
  | { kind: 'cannot'; message: string };

export function postgresPlan(found: string | undefined, machine: { root: boolean; aptGet: string | undefined }, lookup: PostgresLookup): PostgresPlan {
  if (found) return { kind: 'found', bin: found };
  const missing = lookup.bindir
    ? `POSTGRES_BINDIR (${lookup.bindir}) holds no PostgreSQL server (initdb, postgres)`
    : `no PostgreSQL server binaries (initdb, postgres) were found in ${lookup.debianRoot}/N/bin or on PATH`;
  const or = 'or set POSTGRES_BINDIR to the folder that holds initdb';
  // A wrong POSTGRES_BINDIR is not fixed by installing: the package goes elsewhere.
  if (lookup.bindir) return { kind: 'cannot', message: `postgres: ${missing}. Point it at the server's bin folder, or unset it.` };
  if (!machine.aptGet)
    return {
      kind: 'cannot',
      message: `postgres: ${missing}, and there is no apt-get to install Debian's package "${POSTGRES_PACKAGE}". Install PostgreSQL 15 or later (the server, with initdb) with this system's package manager, ${or}.`,
    };
  if (!machine.root)
    return {
      kind: 'cannot',
      message: `postgres: ${missing}, and installing Debian's package "${POSTGRES_PACKAGE}" needs root: run "sudo apt-get install ${POSTGRES_PACKAGE}" once, ${or}.`,
    };
  const steps = [['update'], ['install', '-y', '--no-install-recommends', POSTGRES_PACKAGE]];
  return {
    kind: 'install',
    aptGet: machine.aptGet,
    steps,
    describe: `installing Debian's package "${POSTGRES_PACKAGE}" with ${steps.map((s) => `${machine.aptGet} ${s.join(' ')}`).join(', then ')} (DEBIAN_FRONTEND=noninteractive; once, about a minute)`,
  };
}

/**
 * The binaries, installing Debian's package first when they are missing and this may (root, apt-get).
 * POSTGRES_INSTALL_DRY_RUN=1 says what it would install and how, and fails instead of installing.
 */
export function ensurePostgres(log: (message: string) => void, env: NodeJS.ProcessEnv = process.env): string {
  const lookup = lookupFromEnvironment(env);
  const plan = postgresPlan(postgresBinaries(lookup), { root: process.getuid?.() === 0, aptGet: onPath('apt-get', lookup.path) }, lookup);
  if (plan.kind === 'found') return plan.bin;
  if (plan.kind === 'cannot') throw new Error(plan.message);
  if (env.POSTGRES_INSTALL_DRY_RUN === '1') {
    log(`postgres: would be ${plan.describe}`);
    throw new Error(`postgres: not installed (POSTGRES_INSTALL_DRY_RUN=1): the server is missing, and the test run would be ${plan.describe}.`);
  }
  log(`postgres: ${plan.describe}`);
  for (const step of plan.steps) {
    const run = spawnSync(plan.aptGet, step, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0)
      throw new Error(
        `postgres: "apt-get ${step.join(' ')}" failed, so Debian's package "${POSTGRES_PACKAGE}" is not installed:\n${(run.stderr || run.stdout || String(run.error)).slice(-2_000)}`,
      );
  }
  const now = postgresBinaries(lookup);
  if (!now) throw new Error(`postgres: apt-get installed "${POSTGRES_PACKAGE}", but no initdb is in ${lookup.debianRoot}/N/bin or on PATH afterwards.`);
  return now;
}

export async function startPostgresCluster(log: (message: string) => void = () => undefined): Promise<PostgresCluster> {
  const bin = ensurePostgres(log);
  // As root, the cluster belongs to `nobody`: its folder is made for it, and it runs every command.
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds('nobody') : undefined;
  const base = mkdtempSync(path.join(asRoot ? '/tmp' : tmpdir(), 'custom-actions-pg-'));
  const data = path.join(base, 'data');
  const password = randomBytes(18).toString('base64url');
  const pwfile = path.join(base, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) {
    chownSync(base, owner.uid, owner.gid);
    chownSync(pwfile, owner.uid, owner.gid);
    chmodSync(base, 0o700);
  }
  const command = (file: string, args: string[]): [string, string[]] =>
    owner
      ? ['setpriv', [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', '--pdeathsig=SIGQUIT', '--', path.join(bin, file), ...args]]
      : [path.join(bin, file), args];
  let server: ChildProcess | undefined;
  const stop = async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGINT'); // fast shutdown: ends the sessions, no checkpoint wait worth speaking of
      const force = setTimeout(() => server!.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    const [initdb, initArgs] = command('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    const init = spawnSync(initdb, initArgs, { cwd: base, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`postgres: initdb failed:\n${(init.stderr || init.stdout || String(init.error)).slice(-2_000)}`);
    rmSync(pwfile);
    const port = await freePort();
    const [postgres, serverArgs] = command('postgres', [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ]);
    let output = '';
    server = spawn(postgres, serverArgs, { cwd: base, stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    await ready(url, server, () => output);
    let databases = 0;
    return {
      url,
      async createDatabase() {
        const name = `sandbox_${process.pid}_${++databases}`;
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name}`);
        } finally {
          await client.end();
        }
        return url.replace(/\/postgres$/, `/${name}`);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid === 0) throw new Error(`postgres: no unprivileged user "${name}" to own the test cluster`);
  return { uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Connects until the server accepts (it replays nothing, so a second or two), or fails with its output. */
async function ready(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`postgres: the server exited:\n${output()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres: the server did not accept connections in time (${String(error)}):\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
