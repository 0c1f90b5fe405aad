import { type IncomingMessage, type ServerResponse } from 'node:http';
import { paths } from '../../core/schema';
import { type ActionRow } from '../store/store';
import { changeKey } from './changes';
import { HttpProblem } from './problem';
import { sendEmpty, sendJson } from './respond';
import { type ServerContext } from './context';

interface EventsQuery {
  limit: number;
  cursor: string | undefined;
  before: number | undefined;
  waitSeconds: number;
}

/**
 * Spec §4.6 with the paging and long-poll extensions: newest first, `limit` and `cursor`, a next
 * link, an ETag that changes with every new event, and `wait` to hold a conditional request until
 * the list changes.
 */
export async function listEvents(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  action: ActionRow,
  environmentId: string,
): Promise<void> {
  const query = parseQuery(url, ctx);
  let version = await ctx.store.eventsVersion(action, environmentId);
  let tag = etag(version.newest, query);
  const ifNoneMatch = req.headers['if-none-match'];
  // A stopping process holds no new long poll: the client's next poll goes to another process.
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, tag) && query.waitSeconds > 0 && !ctx.lifecycle?.stopping) {
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    await ctx.changes.wait(changeKey(action.id, environmentId), query.waitSeconds * 1000, aborted.signal);
    if (aborted.signal.aborted) return;
    const still = await ctx.store.action(action.id);
    if (!still) throw new HttpProblem(404, 'not-found', 'the action was deleted');
    version = await ctx.store.eventsVersion(still, environmentId);
    tag = etag(version.newest, query);
  }
  const lastModified = new Date(Math.floor(version.modifiedAt / 1000) * 1000).toUTCString();
  const validators = { ETag: tag, 'Last-Modified': lastModified, 'Cache-Control': 'no-cache' };
  if (ifNoneMatch !== undefined ? matches(ifNoneMatch, tag) : notModifiedSince(req.headers['if-modified-since'], version.modifiedAt)) {
    return sendEmpty(res, 304, validators);
  }
  const page = await ctx.store.listEvents(action.id, environmentId, query.limit, query.before);
  const headers: Record<string, string> = { ...validators };
  if (page.more) {
    const next = new URLSearchParams({ limit: String(query.limit), cursor: encodeCursor(page.last) });
    headers.Link = `<${paths.events(action.id, environmentId)}?${next.toString()}>; rel="next"`;
  }
  sendJson(res, 200, page.events, headers);
}

function parseQuery(url: URL, ctx: ServerContext): EventsQuery {
  const { defaultPageSize, maxPageSize, maxWaitSeconds } = ctx.limits;
  const limitText = url.searchParams.get('limit');
  const limit = limitText === null ? defaultPageSize : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '0') || !Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw new HttpProblem(400, 'invalid-query', `limit must be a whole number from 1 to ${maxPageSize}`, [
      { path: 'limit', message: `must be 1 to ${maxPageSize}` },
    ]);
  }
  const cursor = url.searchParams.get('cursor') ?? undefined;
  const before = cursor === undefined ? undefined : decodeCursor(cursor);
  const waitText = url.searchParams.get('wait');
  const wait = waitText === null ? 0 : Number(waitText);
  if (waitText !== null && (waitText.trim() === '' || !Number.isFinite(wait) || wait < 0)) {
    throw new HttpProblem(400, 'invalid-query', `wait must be a number of seconds (at most ${maxWaitSeconds} are used)`, [
      { path: 'wait', message: 'must be a number ≥ 0' },
    ]);
  }
  return { limit, cursor, before, waitSeconds: Math.min(wait, maxWaitSeconds) };
}

/** Cursors are opaque to clients: the sequence number the page ended at, base64url encoded. */
function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^s(\d{1,15})$/.exec(text);
  if (!match) throw new HttpProblem(400, 'invalid-query', 'cursor is not one this server handed out', [{ path: 'cursor', message: 'unknown cursor' }]);
  return Number(match[1]);
}

function etag(newest: number, query: EventsQuery): string {
  return `"e${newest}-${query.limit}${query.cursor ? `-${query.cursor}` : ''}"`;
}

/** RFC 9110 If-None-Match: a list of (possibly weak) tags, or `*`; weak comparison. */
function matches(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}

function notModifiedSince(header: string | undefined, modifiedAt: number): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(modifiedAt / 1000) * 1000 <= since;
}
