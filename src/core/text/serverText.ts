import { escapeInvisible, isInvisible } from './invisible';

/**
 * Text that came from a server (an error's detail, an action's key, name or description, an event's
 * message) is shown as text, never as something to click. VS Code turns `[label](command:…)` in a
 * notification into a link that runs a command, renders Markdown in hovers and tooltips, and draws
 * `$(icon)` in status bar items and quick picks. Every piece of server text passes through
 * `serverText` before it reaches one of those; Markdown gets `serverMarkdown` on top.
 */

/** Long enough for a validation error that names a few fields; a notification shows little more. */
export const SERVER_TEXT_MAX = 500;

const ELLIPSIS = '…';

/**
 * Plain text, safe in every plain sink (notifications, tree labels and descriptions, string tooltips,
 * quick picks, the status bar):
 * - line breaks and tabs become one space (these places show one line);
 * - control and invisible formatting characters (bidi overrides, zero-width spaces, lone surrogates)
 *   are shown as `\uXXXX`, so what is shown is what was sent;
 * - link syntax is broken where it would be read as a link: `](` becomes `] (`, `$(` becomes `$ (`;
 * - the result is at most `maxLength` characters, cut with an ellipsis.
 * Applying it twice gives the same text.
 */
export function serverText(raw: unknown, maxLength = SERVER_TEXT_MAX): string {
  const text = asString(raw);
  let out = '';
  // Enough input for the output: every character yields at least one, escapes more.
  const input = text.length > maxLength * 2 ? text.slice(0, maxLength * 2) : text;
  const chars = [...input];
  for (let i = 0; i < chars.length && out.length <= maxLength; i++) {
    const char = chars[i]!;
    if (/[\t\n\r\v\f\u0085\u2028\u2029]/u.test(char)) {
      if (!out.endsWith(' ')) out += ' ';
      continue;
    }
    if (isInvisible(chars, i)) {
      out += escapeInvisible(char);
      continue;
    }
    out += char;
  }
  out = out.replace(/\]\(/g, '] (').replace(/\$\(/g, '$ (');
  const cut = out.length > maxLength || input.length < text.length;
  return cut ? truncate(out, maxLength) : out;
}

/**
 * Server text for a MarkdownString: `serverText`, then every ASCII punctuation character escaped.
 * CommonMark lets any of them be escaped, and with all of them escaped nothing is read as a link,
 * an autolink (`https\:\/\/…`, `www\.…`, `a\@b\.c`), an image, HTML, emphasis or a heading. Use it
 * in a MarkdownString that is not trusted and has no HTML support (the default).
 */
export function serverMarkdown(raw: unknown, maxLength = SERVER_TEXT_MAX): string {
  return serverText(raw, maxLength).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

function asString(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (raw === null || raw === undefined) return '';
  try {
    return String(raw);
  } catch {
    return '';
  }
}

/** Cuts to `maxLength` including the ellipsis, never inside a surrogate pair or a `\uXXXX` escape. */
function truncate(text: string, maxLength: number): string {
  let end = Math.max(0, maxLength - ELLIPSIS.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const escape = /\\u(?:\{[0-9A-F]*|[0-9A-F]{0,3})$/.exec(text.slice(Math.max(0, end - 10), end));
  if (escape) end -= escape[0].length;
  return text.slice(0, end) + ELLIPSIS;
}
