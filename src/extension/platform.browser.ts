import { type Platform } from './platform';

export { NO_PROCESSES, type Platform } from './platform';

/** VS Code for the Web: a browser's worker, where no process starts (platform.ts). */
export const PLATFORM: Platform = {
  processes: false,
};
