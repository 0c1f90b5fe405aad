/**
 * JSON as written to stdout: JSON.stringify escapes C0 controls but leaves DEL, the C1 controls
 * (U+009B starts a terminal sequence like ESC [) and the invisible format characters (bidi
 * overrides, zero-width spaces, line separators) as they are. Escaping them too keeps the same
 * JSON value and makes the text safe on a terminal, which is where `--json` output often lands.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\u007f-\u009f\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
