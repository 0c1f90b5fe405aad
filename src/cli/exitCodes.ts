/**
 * The exit codes of `custom-actions`, one meaning each (docs/cli.md, *Exit codes*), so a pipeline can
 * branch on them. When one run meets several conditions (a deploy of many actions), the code of the
 * most pressing one wins, in the order of `EXIT_PRECEDENCE`.
 */
export const EXIT = {
  /** Done, or in step. */
  ok: 0,
  /** The answer is no: the workspace and the server differ (status), a test failed. */
  no: 1,
  /** The command line was wrong, or the project is invalid (customactions.yaml, an unknown action). */
  usage: 2,
  /** No key, or the server refused it. */
  auth: 3,
  /** Changed on the server since the base, or local changes a pull would overwrite: nothing written. */
  conflict: 4,
  /** The server could not be reached, timed out or failed (5xx). */
  network: 5,
  /** Refused before sending: code that disagrees with its metadata, an invalid action.yaml. */
  refused: 6,
  /** The server refused a request for another reason (validation, protocol). */
  failed: 7,
  /** Interrupted (Ctrl+C). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Most pressing first: a key problem hides everything behind it, a network failure the rest. */
export const EXIT_PRECEDENCE: readonly ExitCode[] = [EXIT.usage, EXIT.auth, EXIT.network, EXIT.failed, EXIT.conflict, EXIT.refused, EXIT.no, EXIT.ok];

/** The most pressing of several exit codes. */
export function worstExit(codes: Iterable<ExitCode>): ExitCode {
  let worst: ExitCode = EXIT.ok;
  for (const code of codes) if (EXIT_PRECEDENCE.indexOf(code) < EXIT_PRECEDENCE.indexOf(worst)) worst = code;
  return worst;
}

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
