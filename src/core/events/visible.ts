/**
 * Text from a server is shown, never obeyed. Control characters in a log line would act instead of
 * showing: ANSI escapes colour, move the cursor or hide text where the output is a terminal or
 * honours them, a lone CR or a backspace overwrites what came before, a line or paragraph separator
 * starts a line the formatter did not indent (a fake event header, say), and bidi controls reorder
 * what follows. Each is written as a visible escape instead (`\x1b`, `\r`, `\u2028`). A tab stays a
 * tab; line breaks are the formatter's to decide (it splits multi-line text before calling this).
 * A backslash is left as it is, so `\x1b` in the output is ambiguous with those four characters sent
 * literally: the escapes are for reading, and the event's JSON has the exact text.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ACTING = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r' };

export function visible(text: string): string {
  return text.replace(ACTING, (c) => NAMED[c] ?? escapeOf(c.charCodeAt(0)));
}

function escapeOf(code: number): string {
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
