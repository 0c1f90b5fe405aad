import { type Command } from 'commander';
import { type CommandContext } from '../context';
import { type ExitCode } from '../exitCodes';
import { type CommandOptions } from '../options';

/**
 * One command of `custom-actions`: its own file under src/cli/commands/, listed once in table.ts
 * (docs/cli.md, *Adding a command*).
 */
export interface CommandDefinition {
  readonly name: string;
  /** One line, for the list of commands. */
  readonly summary: string;
  /**
   * For a command that lists: the member of its `--json` document that holds the list (`lines` for a
   * command that prints one JSON line per item) and the fields of an item, which `--json=a,b` picks
   * from (as `gh … --json a,b`).
   */
  readonly listFields?: { readonly list: string; readonly fields: readonly string[] };
  /** Adds the command's arguments, options and help text. */
  configure(command: Command): void;
  /** Does the work; the exit code says how it went. Throw a CliError (or let an ApiError through) to fail. */
  run(context: CommandContext, operands: string[], options: CommandOptions): Promise<ExitCode>;
}
