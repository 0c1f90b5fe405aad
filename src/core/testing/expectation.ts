import { patternMatches } from './pattern';

/** What an input set says its run should give. */
export type Expectation =
  /** Exactly this result (JSON equality). */
  | { readonly kind: 'result'; readonly value: unknown }
  /** An object result holding at least these members, compared the same way at every depth; arrays whole. */
  | { readonly kind: 'resultContains'; readonly value: Readonly<Record<string, unknown>> }
  /** The run fails; when given, the error's message matches `message` (a regular expression, RE2 syntax: pattern.ts) and its name is `name`. */
  | { readonly kind: 'error'; readonly message?: string; readonly name?: string };

/** How a run ended, from any place a run happens (locally, or an event of the server). */
export type RunOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: { readonly name?: string; readonly message: string; readonly stack?: string } };

export type Verdict =
  | { readonly pass: true }
  /** `expected`/`actual` are set when a diff of the two explains the failure best. */
  | { readonly pass: false; readonly message: string; readonly expected?: unknown; readonly actual?: unknown };

export function judge(expectation: Expectation | undefined, outcome: RunOutcome): Verdict {
  if (!expectation) {
    // No expectation: a run that does not throw passes, as a smoke test.
    return outcome.ok ? { pass: true } : { pass: false, message: `main threw ${describeError(outcome.error)}` };
  }
  if (expectation.kind === 'error') {
    if (outcome.ok) return { pass: false, message: 'main was expected to fail, but returned a result', actual: outcome.result };
    if (expectation.name !== undefined && outcome.error.name !== expectation.name) {
      return {
        pass: false,
        message: `main failed with ${describeError(outcome.error)}, expected a ${expectation.name}`,
        expected: expectation.name,
        actual: outcome.error.name,
      };
    }
    if (expectation.message !== undefined && !patternMatches(expectation.message, outcome.error.message)) {
      return {
        pass: false,
        message: `main failed with "${outcome.error.message}", which does not match /${expectation.message}/`,
        expected: expectation.message,
        actual: outcome.error.message,
      };
    }
    return { pass: true };
  }
  if (!outcome.ok) return { pass: false, message: `main threw ${describeError(outcome.error)}` };
  if (expectation.kind === 'result') {
    return jsonEqual(toJson(outcome.result), toJson(expectation.value))
      ? { pass: true }
      : { pass: false, message: 'the result differs from the expected one', expected: expectation.value, actual: outcome.result };
  }
  const missing = firstMismatch(expectation.value, toJson(outcome.result), 'result');
  return missing === undefined
    ? { pass: true }
    : { pass: false, message: `the result does not contain the expected members: ${missing}`, expected: expectation.value, actual: outcome.result };
}

/** The first place where `actual` fails to hold what `expected` says (objects partially, everything else exactly). */
function firstMismatch(expected: unknown, actual: unknown, path: string): string | undefined {
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return `${path} is not an object`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${path}.${key} is missing`;
      const deeper = firstMismatch(value, actual[key], `${path}.${key}`);
      if (deeper) return deeper;
    }
    return undefined;
  }
  return jsonEqual(expected, actual) ? undefined : `${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compared as the server records results: through JSON (undefined members dropped, -0 as 0). */
function toJson(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);
}

function describeError(error: { name?: string; message: string }): string {
  return `${error.name ?? 'Error'}: ${error.message}`;
}

/**
 * Whether two JSON values are the same, as node:util's isDeepStrictEqual says of them (object keys in
 * any order, arrays in order, 0 and -0 apart), without node:util: it runs in a browser's worker too.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}
