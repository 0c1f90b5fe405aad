import { errorText } from '../client/normalizeEvent';
import { type ResultType } from '../schema';
import { type Expectation, judge, type RunOutcome, type Verdict } from './expectation';
import { checkResult } from './resultCheck';

/**
 * The verdict of one run of a case, wherever it ran: its result must fit the declared result type
 * (a problem names the field), then give what the case expects.
 */
export function judgeCase(expectation: Expectation | undefined, outcome: RunOutcome, resultType: ResultType | undefined): Verdict {
  if (outcome.ok && resultType !== undefined && expectation?.kind !== 'error') {
    const problems = checkResult(resultType, outcome.result);
    if (problems.length > 0)
      return {
        pass: false,
        message: `the result does not fit the declared result type: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
        actual: outcome.result,
      };
  }
  return judge(expectation, outcome);
}

/** A value as the diff editor shows it: JSON, two spaces, so objects diff line by line. */
export function diffText(value: unknown): string {
  return value === undefined ? 'undefined' : (JSON.stringify(value, null, 2) ?? String(value));
}

/**
 * An error of main as a verdict names it, in the Testing view and on the command line alike:
 * `RangeError: …`, by the rule events show errors with (`errorText`), so the name stands once when
 * the message already starts with it (a server's event often carries the name only there).
 */
export function errorTitle(error: { readonly name?: string; readonly message: string }): string {
  return errorText(error.name ?? 'Error', error.message);
}
