/**
 * Which backend the sandbox suites run on. The suites are written once; `npm run test:sandbox` runs
 * them on PGlite, `npm run test:sandbox-pg` (postgres.hooks.ts) on a temporary PostgreSQL cluster,
 * where every sandbox a test starts gets a database of its own. A test that keeps its data in a
 * data directory (the data directory is what it tests) stays on PGlite in both runs.
 */
import { type PostgresCluster } from '../support/postgresCluster';

let cluster: PostgresCluster | undefined;

export function useCluster(c: PostgresCluster | undefined): void {
  cluster = c;
}

/** The cluster of this run, when it is the PostgreSQL run. */
export function postgresCluster(): PostgresCluster | undefined {
  return cluster;
}

/** A new database for one sandbox in the PostgreSQL run; undefined in the PGlite run. */
export async function testDatabaseUrl(): Promise<string | undefined> {
  return cluster?.createDatabase();
}
