import { PGlite } from '@electric-sql/pglite';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema';
import { type Database } from './sql';

/**
 * Opens the sandbox's database: PGlite (Postgres in WebAssembly) in `dataDir`, or in memory.
 *
 * A new Postgres cluster costs seconds (initdb); loading a dump of one costs a fraction of that. So the
 * dump of an empty cluster with the schema is cached in the OS temp folder, keyed by schema and PGlite
 * version, and every new data directory and every in-memory database starts from it. The packaged
 * extension ships that dump (the build makes it: `dist/pglite/template-*.tar.gz`), so a new user's
 * first start skips initdb too; running from source, the first open on a machine makes it once.
 * A new data directory on disk is a copy of a directory unpacked from the dump once, also cached:
 * PGlite unpacks a dump through its WebAssembly file system a file at a time (a thousand files, seconds
 * on a busy disk), where a native copy takes a fraction of that.
 */
export async function openDatabase(dataDir: string | undefined): Promise<PGlite> {
  let db: PGlite;
  if (dataDir !== undefined && (existsSync(path.join(dataDir, 'PG_VERSION')) || (await copyTemplateDirectory(dataDir)))) {
    db = await PGlite.create(dataDir);
  } else {
    const template = await loadTemplate();
    if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
    db = template ? await PGlite.create(dataDir, { loadDataDir: template }) : await PGlite.create(dataDir);
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  // Statistics only steer the planner: without them the database still answers, only slower.
  await analyze(db).catch(() => undefined);
  return db;
}

/**
 * Gathers the planner's statistics of the tables that grow. PGlite runs no autovacuum, so without this
 * they are never gathered, and the planner, guessing a few rows per environment, reads and sorts all
 * of an environment's events for its newest page instead of walking the index. It samples at most
 * 30,000 rows a table: about a millisecond when empty, some tens of ms at 100,000 events. Not the
 * whole database: that would analyse the system catalogs too and take a second.
 */
export async function analyze(db: Database): Promise<void> {
  await db.exec('ANALYZE actions, events');
}

async function migrate(db: PGlite): Promise<void> {
  await db.exec(SCHEMA_SQL);
  const row = await db.query<{ value: string }>("SELECT value FROM sandbox_meta WHERE name = 'schema_version'");
  const version = Number(row.rows[0]?.value);
  if (version > SCHEMA_VERSION) {
    throw new Error(`the data directory was written by a newer sandbox (schema ${version}; this one knows ${SCHEMA_VERSION})`);
  }
}

let template: Promise<Blob | undefined> | undefined;

/** The cached dump of an empty database with the schema; created on first use. Never fatal: without it, initdb runs. */
export function loadTemplate(): Promise<Blob | undefined> {
  template ??= (async () => {
    const file = templateFile();
    try {
      if (existsSync(file)) return new Blob([readFileSync(file)]);
      const bytes = shippedTemplate() ?? (await createTemplateDump());
      mkdirSync(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a concurrent reader never sees half a file.
      const partial = `${file}.${process.pid}.${Date.now()}.partial`;
      writeFileSync(partial, bytes);
      renameSync(partial, file);
      return new Blob([bytes]);
    } catch {
      return undefined;
    }
  })();
  return template;
}

/** The dump of a new cluster with the schema: what initdb and the migration make, as a tar. */
export async function createTemplateDump(): Promise<Buffer> {
  const db = await PGlite.create();
  await migrate(db);
  const dump = await db.dumpDataDir('none');
  await db.close();
  return Buffer.from(await dump.arrayBuffer());
}

/** The file name of the dump the build ships beside PGlite's files, for this schema and this PGlite. */
export function shippedTemplateName(pglite = pgliteVersion()): string {
  return `template-schema${SCHEMA_VERSION}-pglite${pglite}.tar.gz`;
}

/** The dump the packaged extension carries (dist/pglite/), when this is the bundle and it is there. */
function shippedTemplate(): Buffer | undefined {
  try {
    return gunzipSync(readFileSync(path.join(__dirname, 'pglite', shippedTemplateName())));
  } catch {
    return undefined;
  }
}

let templateDir: Promise<string | undefined> | undefined;

/** Copies the cached template directory to `dataDir` (absent or empty); false when there is none to copy. */
async function copyTemplateDirectory(dataDir: string): Promise<boolean> {
  const from = await (templateDir ??= unpackedTemplate());
  if (!from) return false;
  try {
    cpSync(from, dataDir, { recursive: true });
    return existsSync(path.join(dataDir, 'PG_VERSION'));
  } catch {
    // A half copy goes (only what came from the template: the folder may hold other files), so the
    // dump can be unpacked there instead.
    for (const entry of readdirSync(from)) rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    return false;
  }
}

/** The dump unpacked into a data directory beside it, once per machine; never fatal. */
async function unpackedTemplate(): Promise<string | undefined> {
  const dir = templateFile().replace(/\.tar$/, '');
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const dump = await loadTemplate();
  if (!dump) return undefined;
  // Unpacked aside and renamed, so a concurrent reader never copies half a directory.
  const partial = `${dir}.${process.pid}.${Date.now()}.partial`;
  try {
    const db = await PGlite.create(partial, { loadDataDir: dump });
    await db.close();
    renameSync(partial, dir);
  } catch {
    // Another process renamed its copy first, or this one failed: either way, use what is there.
    rmSync(partial, { recursive: true, force: true });
  }
  return existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
}

function templateFile(): string {
  return path.join(tmpdir(), 'custom-actions-sandbox', `template-schema${SCHEMA_VERSION}-pglite${pgliteVersion()}.tar`);
}

/** Set by the build in the bundle, whose PGlite is copied into dist/pglite/ without its package.json. */
declare const __PGLITE_VERSION__: string | undefined;

function pgliteVersion(): string {
  if (typeof __PGLITE_VERSION__ === 'string') return __PGLITE_VERSION__;
  try {
    const main = require.resolve('@electric-sql/pglite');
    const pkg = JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
