/**
 * Root hooks of the PostgreSQL run of the sandbox suites (`npm run test:sandbox-pg`): one temporary
 * cluster for the whole run, installed if missing, removed at the end. In CI a missing server fails
 * the run; it is never skipped.
 */
import { startPostgresCluster } from '../support/postgresCluster';
import { postgresCluster, useCluster } from './backend';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(600_000);
    useCluster(await startPostgresCluster((message) => process.stderr.write(`${message}\n`)));
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(30_000);
    await postgresCluster()?.stop();
    useCluster(undefined);
  },
};
