import { isInvisible } from '../core/text';

/**
 * JSON as written to stdout: JSON.stringify escapes C0 controls but leaves DEL, the C1 controls
 * (U+009B starts a terminal sequence like ESC [) and the invisible characters (bidi overrides,
 * zero-width spaces, tag characters, line separators) as they are. Escaping every character the
 * core's rule calls invisible (`isInvisible`) keeps the same JSON value and makes the text safe on a
 * terminal, which is where `--json` output often lands. A character beyond U+FFFF is written as its
 * two `\uXXXX` halves, as JSON spells it. The line breaks between members are JSON.stringify's own:
 * one inside a string is already `\n`.
 */
export function terminalSafeJson(json: string): string {
  if (!/[^\n\u0020-\u007e]/.test(json)) return json;
  const chars = [...json];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === '\n' || !isInvisible(chars, i)) out += char;
    else for (let u = 0; u < char.length; u++) out += `\\u${char.charCodeAt(u).toString(16).padStart(4, '0')}`;
  }
  return out;
}
