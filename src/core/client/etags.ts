/**
 * Version tags as a server sends them in `ETag`. Only a strong tag is kept: `If-Match` compares
 * strongly (RFC 9110 §13.1.1), so a weak one (`W/"…"`) would never match and every write based on it
 * would be refused.
 */

/** Longer than any tag a server means to be sent back; such a header is not used. */
const MAX_ETAG = 1024;

/** The strong tag of an `ETag` header, as sent (quotes included); undefined for none, a weak one or several. */
export function strongEtag(header: string | undefined): string | undefined {
  const tag = header?.trim();
  if (!tag || tag.length > MAX_ETAG || /^W\//i.test(tag)) return undefined;
  // Two ETag headers are joined with ", " on the way in: which one holds is unknown.
  if (/^"[^"]*"\s*,/.test(tag)) return undefined;
  // Sent back in a header: a line break or other control character would end it.
  if ([...tag].some((char) => char < ' ' || char === '\u007f')) return undefined;
  return tag;
}
