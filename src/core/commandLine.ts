/**
 * The conventions every command line of the project keeps (`custom-actions` and `sandbox admin`,
 * docs/cli.md, *Exit codes* and *Output*): one meaning per exit code, so a pipeline can branch on
 * them, and one JSON document per command whose `ok` says whether it did what was asked, with a
 * failure's `error` in one shape.
 */
export const EXIT = {
  /** Done, or in step. */
  ok: 0,
  /** The answer is no: the workspace and the server differ (status), a test failed. */
  no: 1,
  /** The command line was wrong, or the project is invalid (customactions.yaml, an unknown application or action). */
  usage: 2,
  /** No key, or the server refused it. */
  auth: 3,
  /** Changed on the server since the base, or local changes a pull would overwrite: nothing written. */
  conflict: 4,
  /** The server (or a sandbox's database server) could not be reached, timed out or failed (5xx). */
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

/** The `--json` document of a failure: `{"ok": false, "error": {"exitCode", "message", "kind"?}}`. */
export function failureDocument(
  exitCode: ExitCode,
  message: string,
  kind?: string,
): { readonly ok: false; readonly error: { readonly exitCode: ExitCode; readonly message: string; readonly kind?: string } } {
  return { ok: false, error: { exitCode, message, ...(kind ? { kind } : {}) } };
}
