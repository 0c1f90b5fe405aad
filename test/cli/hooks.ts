/** Root hook of the command line's suite: its process tests run the built command, and its in-process tests load the build's bundles (analysis.js), so the build must be there. */
import { existsSync } from 'node:fs';
import { CLI } from './support';

export const mochaHooks = {
  beforeAll(): void {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm run build:dev), or run npm run test:cli, which does.`);
  },
};
