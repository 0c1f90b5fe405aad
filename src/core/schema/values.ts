/**
 * What a value of a simple type looks like, for every side that checks one: the extension's form and
 * input sets, and the sandbox's run endpoint, all through `checkRunInputs` (runInputs.ts). One rule,
 * so an input set the extension accepts is never refused by the sandbox (docs/api.md, *Running an action*).
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * ISO 8601 date, or date and time with optional seconds, fraction and zone. `T` and `Z` may be
 * lower case, as RFC 3339 allows and `Date.parse` reads.
 */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export function isIsoDatetime(text: string): boolean {
  return ISO_DATETIME.test(text) && !Number.isNaN(Date.parse(text));
}

export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text);
}

/** `null` is "no value" for a parameter of any type: accepted, and passed on as `null`. */
export function isNoValue(value: unknown): value is null {
  return value === null;
}
