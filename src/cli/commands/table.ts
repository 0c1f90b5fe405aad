/**
 * Every command of `custom-actions`, in the order `--help` lists them. A command is one file of this
 * folder exporting a CommandDefinition, added here once (docs/cli.md, *Adding a command*).
 */
import { type CommandDefinition } from './command';
import { status } from './status';
import { events } from './events';
import { run } from './run';
import { sandbox } from './sandbox';
import { test } from './test';

export const COMMANDS: readonly CommandDefinition[] = [status, test, events, run, sandbox];
