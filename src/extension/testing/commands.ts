import { pinEventAsTest } from './pin';

/** The testing commands, merged into the command table (handlers/table.ts). */
export const TESTING_COMMANDS = {
  'customActions.pinEventAsTest': pinEventAsTest,
} satisfies Record<string, (s: never, ...args: never[]) => unknown>;
