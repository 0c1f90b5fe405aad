/**
 * A temporary PostgreSQL cluster for the tests and the bench: the server binaries of the machine
 * (Debian's `postgresql` package, installed with apt-get when missing and when this runs as root),
 * a new cluster in a temporary folder owned by an unprivileged user (initdb refuses root), on a free
 * loopback port with a random password, and removed again by `stop`. Speed over durability (fsync
 * off): the tests kill sandbox processes, never the database server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

/** Finds the server's binaries (POSTGRES_BINDIR, Debian's /usr/lib/postgresql/N/bin, or PATH). */
export function postgresBinaries(): string | undefined {
  const fromEnv = process.env.POSTGRES_BINDIR;
  if (fromEnv) return existsSync(path.join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(path.join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? path.dirname(which.stdout.trim()) : undefined;
}

/** The binaries, installing Debian's package first when they are missing and this may (root, apt-get). */
export function ensurePostgres(log: (message: string) => void): string {
  const found = postgresBinaries();
  if (found) return found;
  const root = process.getuid?.() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
  if (root && apt) {
    log('postgres: installing the Debian package postgresql (once, about a minute)');
    const installed = spawnSync('bash', ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    if (installed.status !== 0) throw new Error(`postgres: apt-get could not install postgresql:\n${(installed.stderr || installed.stdout).slice(-2_000)}`);
    const now = postgresBinaries();
    if (now) return now;
  }
  throw new Error(
    'postgres: no PostgreSQL server binaries (initdb, postgres) were found. Install them (Debian: apt-get install postgresql) or set POSTGRES_BINDIR.',
  );
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
