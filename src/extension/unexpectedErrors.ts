/**
 * Where an error goes that no caller can be handed: one thrown by an event listener, or by a
 * disposable while its owner is disposed. Catching it keeps the other listeners and disposables
 * going; reporting it here keeps it from vanishing. Activation adds the log; the test runners add a
 * check that fails the test during which one was reported.
 *
 * The reporters live on `globalThis` because one extension host holds several bundles with their own
 * copy of this module (extension.js, and the host tests' bundle): each reports to every reporter.
 */
export type UnexpectedErrorReporter = (error: unknown, where: string) => void;

const KEY = Symbol.for('customActions.unexpectedErrorReporters');

function reporters(): Set<UnexpectedErrorReporter> {
  const holder = globalThis as { [KEY]?: Set<UnexpectedErrorReporter> };
  holder[KEY] ??= new Set();
  return holder[KEY];
}

/** Adds a reporter until the returned disposable is disposed. */
export function onUnexpectedError(reporter: UnexpectedErrorReporter): { dispose(): void } {
  reporters().add(reporter);
  return { dispose: () => void reporters().delete(reporter) };
}

/** Tells every reporter; with none (a script, a unit test without the hook) the error goes to stderr. */
export function reportUnexpectedError(error: unknown, where: string): void {
  const all = [...reporters()];
  if (all.length === 0) {
    console.error(`Custom Actions: unexpected error in ${where}:`, error);
    return;
  }
  for (const report of all) {
    try {
      report(error, where);
    } catch {
      // A reporter that fails has nowhere left to report to; the others still hear of the error.
    }
  }
}
