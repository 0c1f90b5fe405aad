/**
 * The one rule of which characters text from outside may not carry as they are: those that draw
 * nothing, break or reorder what follows, or are not characters at all (Unicode's control, format,
 * surrogate, private-use and unassigned categories, and the line and paragraph separators). ANSI escapes would colour or hide text, a lone CR
 * or a backspace overwrite it, a line separator start a fake line, a bidi override reorder it and a
 * zero-width space hide inside a name. Each is shown as an escape instead, so what is shown is what
 * was sent. Used by `serverText` (one-line sinks) and `visibleLine` (the events channel).
 */

/** Whether `chars[i]` is shown as an escape; the emoji joiner between two pictographs is how those are written, not a trick. */
export function isInvisible(chars: readonly string[], i: number): boolean {
  const char = chars[i]!;
  if (char === '\u200d') {
    const before = chars[i - 1];
    const after = chars[i + 1];
    if (before !== undefined && after !== undefined && /\p{Extended_Pictographic}|\uFE0F/u.test(before) && /\p{Extended_Pictographic}/u.test(after))
      return false;
  }
  return /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(char);
}

/** The categories of `isInvisible`, the tab aside: a line without any of them is shown as it is. */
const ANY_BUT_TAB = /(?!\t)[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r' };

/** `\n`, `\r`, `\u001B`, `\u{E0041}`: readable, and the same escape everywhere. */
export function escapeInvisible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * Text for a multi-line sink such as an output channel, one line of it: every invisible character
 * escaped but the tab. Line breaks are the caller's to decide (it splits before calling this), so one
 * left in the text is escaped too. A backslash is left as it is: `\u001B` in the output is ambiguous
 * with those six characters sent literally; the escapes are for reading, the event's JSON is exact.
 */
export function visibleLine(text: string): string {
  // Most lines hold nothing to escape: one scan, no copy.
  if (!ANY_BUT_TAB.test(text)) return text;
  const chars = [...text];
  let out = '';
  for (let i = 0; i < chars.length; i++) out += chars[i] !== '\t' && isInvisible(chars, i) ? escapeInvisible(chars[i]!) : chars[i];
  return out;
}

/** The categories of `isInvisible`, tab and line feed aside. */
const ANY_BUT_TAB_OR_LF = /(?![\t\n])[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/**
 * Text for a terminal: every invisible character escaped but the tab and the line feed, which the
 * command line lays its own lines out with. ESC (and so every CSI, OSC, title or clipboard sequence),
 * the C1 controls that a terminal reads like ESC sequences (U+009B is `ESC [`), DEL, a carriage
 * return or backspace that would overwrite a line, and bidi or zero-width characters are all shown as
 * escapes. Applying it twice gives the same text.
 */
export function terminalText(text: string): string {
  if (!ANY_BUT_TAB_OR_LF.test(text)) return text;
  const chars = [...text];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    out += char !== '\t' && char !== '\n' && isInvisible(chars, i) ? escapeInvisible(char) : char;
  }
  return out;
}
