/** Root hooks of the browser specs: the Chromium their workbenches share is closed after the last one. */
import { closeSharedBrowser } from './workbench';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeSharedBrowser();
  },
};
