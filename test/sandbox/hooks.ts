/**
 * Root hook of the sandbox suites: a new Postgres cluster costs seconds, so the template every sandbox
 * starts from is made (or found in the OS temp folder) once, before any test, instead of inside the
 * first test's time-out.
 */
import { loadTemplate } from '../../src/sandbox/store/database';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(120_000);
    await loadTemplate();
  },
};
