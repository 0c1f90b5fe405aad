/**
 * What a key looks like, so text can be scrubbed of keys that are not the one in use: a key a user
 * typed under the wrong option name, a key a server or a library echoes back, another application's
 * key. The sandbox mints `ca_sk_` and 43 base64url characters (src/sandbox/keys.ts); the platform
 * does not say how its keys look (the spec: "not shown"), so any bearer token, any JSON Web Token and,
 * where a value is known to be an argument of its own, any long high-entropy token counts as one.
 */

/** The prefix of every key the sandbox mints. */
export const SANDBOX_KEY_PREFIX = 'ca_sk_';

const REDACTED = '<redacted>';

/** Shapes that are a key wherever they stand in a text. */
const KEYS_IN_TEXT: readonly (readonly [RegExp, string])[] = [
  // The token of an Authorization header, as a library's error may quote it.
  [/(Bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  [new RegExp(`${SANDBOX_KEY_PREFIX}[A-Za-z0-9_-]{8,}`, 'g'), REDACTED],
  // A JSON Web Token: three base64url parts, the first an encoded `{"`.
  [/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, REDACTED],
];

/** `text` with every key shape of `KEYS_IN_TEXT` replaced by `<redacted>`. */
export function scrubKeyShapes(text: string): string {
  let out = text;
  for (const [shape, replacement] of KEYS_IN_TEXT) out = out.replace(shape, replacement);
  return out;
}

/** Removes a key from text that a server or a library produced, and any other text shaped like a key. */
export function redactKey(text: string, key: string | undefined): string {
  let out = scrubKeyShapes(text);
  if (key && key.length >= 4) out = out.split(key).join(REDACTED);
  return out;
}

/**
 * Whether a value that stands on its own (an option's value, a line of a file) looks like a key: a
 * shape of `KEYS_IN_TEXT`, or one long run of token characters that mixes letters and digits within
 * its parts, as random keys do. Paths, host names, dates and the names people make (`billing-eu-2026`,
 * `release_candidate`) do not: they break into short runs at `/` and `.`, or into parts that are each
 * a word or a number.
 */
export function looksLikeKey(value: string): boolean {
  const text = value.trim();
  if (/^Bearer\s+\S/i.test(text) || scrubKeyShapes(text) !== text) return true;
  if (text.length < 20 || !/^[A-Za-z0-9._~+/=-]+$/.test(text)) return false;
  const run = text.split(/[./]/).reduce((a, b) => (b.length > a.length ? b : a), '');
  if (run.length < 16) return false;
  const parts = run.split(/[-_~+=]/).filter((p) => p !== '');
  if (parts.some((p) => /[A-Za-z]/.test(p) && /[0-9]/.test(p))) return true;
  // Letters only, but long, hardly repeating, and with capitals throughout (not only where words
  // start, as in CamelCase): random base64 without a digit.
  return parts.some((p) => p.length >= 20 && upperShare(p) >= 0.35 && upperShare(p) <= 0.65 && entropy(p) >= 3.8);
}

function upperShare(text: string): number {
  return (text.match(/[A-Z]/g) ?? []).length / text.length;
}

/** Shannon entropy of the characters of `text`, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}
