/**
 * Every command of `custom-actions`, in the order `--help` lists them. A command is one file of this
 * folder exporting a CommandDefinition, added here once (docs/cli.md, *Adding a command*).
 */
import { check } from './check';
import { type CommandDefinition } from './command';
import { deploy } from './deploy';
import { pull } from './pull';
import { status } from './status';
import { events } from './events';
import { history } from './history';
import { rollback } from './rollback';
import { init } from './init';
import { promote } from './promote';
import { run } from './run';
import { sandbox } from './sandbox';
import { test } from './test';
import { whoami } from './whoami';

export const COMMANDS: readonly CommandDefinition[] = [init, status, deploy, promote, history, rollback, whoami, pull, check, test, events, run, sandbox];
