/**
 * The exit codes of `custom-actions` (docs/cli.md, *Exit codes*): the core's conventions
 * (src/core/commandLine.ts), which `sandbox admin` keeps too, and the error that ends a command with one.
 */
import { type ExitCode } from '../core/commandLine';

export { EXIT, EXIT_PRECEDENCE, type ExitCode, worstExit } from '../core/commandLine';

/** A failure that ends the command with `exitCode`; its message says what to do next and never holds a key. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
