import { type IncomingMessage } from 'node:http';
import { ETAG_PREFIX, type Expected, type VersionKind } from '../store/versions';

/**
 * What `If-Match` asks of a write (RFC 9110 §13.1.1): `*`, or a list of entity tags compared strongly,
 * so a weak tag or one of another resource matches nothing. Without it, `If-None-Match: *` (§13.1.2)
 * asks that the resource not exist yet; a list of tags there is not a check this service offers, and
 * is ignored. No header: the write is unconditional, as the spec's operations are.
 */
export function expectedFrom(req: IncomingMessage, kind: VersionKind): Expected {
  const header = req.headers['if-match'];
  if (header === undefined) return req.headers['if-none-match']?.trim() === '*' ? 'none' : undefined;
  if (header.trim() === '*') return '*';
  const pattern = new RegExp(`^"${ETAG_PREFIX[kind]}-([1-9][0-9]{0,8})"$`);
  return header
    .split(',')
    .map((tag) => pattern.exec(tag.trim())?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
}

/** Who wrote a version, as far as the request says: its User-Agent, kept as untrusted text. */
export function clientOf(req: IncomingMessage): string | undefined {
  const agent = req.headers['user-agent'];
  return agent ? agent.slice(0, 200) : undefined;
}
