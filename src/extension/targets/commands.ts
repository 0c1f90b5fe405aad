import { promote } from './promote';
import { switchTarget } from './switchTarget';

/** The commands of the project's targets (docs/environments.md, *In the editor*). */
export const TARGET_COMMANDS = {
  'customActions.switchTarget': switchTarget,
  'customActions.promote': promote,
} satisfies Record<string, (s: never, ...args: never[]) => unknown>;
