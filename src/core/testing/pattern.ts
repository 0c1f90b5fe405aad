import type * as Re2js from 're2js';

/**
 * The `expect.error.message` pattern of an input set, matched against a run's error text. The pattern
 * is a cloned repository's text and the error text a server's (or hostile code's): with a backtracking
 * engine, `(a+)+$` on a crafted message stalls the extension host for minutes. So patterns are RE2
 * syntax, matched by a linear-time engine (re2js), on a text cut to `MATCHED_TEXT_MAX` characters; a
 * pattern is at most `PATTERN_MAX` characters. Validation (inputSetFile.ts) and matching use this one
 * compile, so a pattern the file accepts is a pattern the run matches.
 */

/** Characters of an error message looked at: the sandbox records 10,000 per message, more is noise. */
export const MATCHED_TEXT_MAX = 10_000;
/** Characters of a pattern: room for any real expectation; RE2's program size grows with it. */
export const PATTERN_MAX = 1_000;

let re2js: typeof Re2js | undefined;

/** Required on the first pattern, not at the top: the extension's activation bundle stays without it. */
function engine(): typeof Re2js.RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  re2js ??= require('re2js') as typeof Re2js;
  return re2js.RE2JS;
}

export type CompiledPattern = { readonly ok: true; readonly test: (text: string) => boolean } | { readonly ok: false; readonly reason: string };

/**
 * A pattern compiled for matching, or why it cannot be. The pattern is RE2 syntax as it stands: no
 * translation from JavaScript's (re2js offers one, but it turns what it does not know, such as `\k<n>`,
 * into something else silently). Lookahead, lookbehind, backreferences and `\uXXXX` are refused.
 */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern.length > PATTERN_MAX) return { ok: false, reason: `is longer than ${PATTERN_MAX} characters` };
  try {
    const RE2JS = engine();
    const compiled = RE2JS.compile(pattern);
    return { ok: true, test: (text) => compiled.test(capped(text)) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return { ok: false, reason: `is not a valid regular expression in RE2 syntax (${detail})` };
  }
}

/** Whether `text` matches `pattern` anywhere; a pattern that does not compile is matched as plain text. */
export function patternMatches(pattern: string, text: string): boolean {
  const compiled = compilePattern(pattern);
  return compiled.ok ? compiled.test(text) : capped(text).includes(pattern);
}

function capped(text: string): string {
  return text.length > MATCHED_TEXT_MAX ? text.slice(0, MATCHED_TEXT_MAX) : text;
}
