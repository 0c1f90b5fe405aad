import { type NormalizedEvent } from './client';
import { type EventContext, formatEvent, formatLocalTime, formatWhen } from './events';
import { serverText } from './text';

/**
 * An event opened from the tree, as a person reads it: a tab title that says which run it was, and
 * the server's JSON with the summary the events channel prints on top and a readable local time
 * beside every raw timestamp, as JSON-with-comments so the data itself stays exactly as sent.
 */

/** Keys whose numbers are points in time in the event shapes servers send (see normalizeEvent). */
const TIME_KEYS = new Set(['startTime', 'start', 'endTime', 'end', 'timestamp', 'time', 'ts', 'createdAt', 'updatedAt', 'recordedAt']);
/** Epoch values read as times only between 2000 and 2200, so a count or a duration is never dressed up as a date. */
const EARLIEST_MS = Date.UTC(2000, 0, 1);
const LATEST_MS = Date.UTC(2200, 0, 1);
/** An action key is at most 64 characters; a server may send more. */
const TITLE_KEY_MAX = 64;

/** "hello-world · Test · 12:03:05 failed": the time without milliseconds, with the date unless it is today's. */
export function eventTitle(event: NormalizedEvent, context: EventContext, now = Date.now()): string {
  const outcome = event.ok ? 'succeeded' : 'failed';
  // The key came from the server: a tab title is one line of plain text.
  const head = `${serverText(context.actionKey, TITLE_KEY_MAX)} · ${serverText(context.environment, TITLE_KEY_MAX)}`;
  if (event.startTime === undefined) return `${head} · ${outcome}`;
  return `${head} · ${formatWhen(event.startTime, false, now)} ${outcome}`;
}

/** The document's text: the channel's lines for the event as comments, then the raw event, times annotated. */
export function eventDocumentText(event: NormalizedEvent, context: EventContext): string {
  const summary = formatEvent(event, context).map(comment);
  return (
    [...summary, comment(''), comment('The event as the server sent it; the times beside it are local.'), ...jsonLines(event.raw, '', undefined, '')].join(
      '\n',
    ) + '\n'
  );
}

function comment(line: string): string {
  // Only the editor's own line breaks end a comment; marks the channel's formatter leaves are escaped too.
  return escapeActing(`// ${line.replace(/[\r\n]/g, ' ')}`).trimEnd();
}

/** JSON.stringify(value, null, 2) of parsed JSON, line by line, with a `// time` after each timestamp. */
function jsonLines(value: unknown, indent: string, key: string | undefined, trailer: string): string[] {
  const prefix = indent + (key === undefined ? '' : `${escapeActing(JSON.stringify(key))}: `);
  if (typeof value === 'object' && value !== null) {
    const entries: [string | undefined, unknown][] = Array.isArray(value) ? value.map((v) => [undefined, v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) return [`${prefix}${open}${close}${trailer}`];
    const inner = entries.flatMap(([k, v], i) => jsonLines(v, indent + '  ', k, i < entries.length - 1 ? ',' : ''));
    return [`${prefix}${open}`, ...inner, `${indent}${close}${trailer}`];
  }
  const time = key !== undefined && TIME_KEYS.has(key) ? readableTime(value) : undefined;
  return [`${prefix}${escapeActing(JSON.stringify(value) ?? 'null')}${trailer}${time ? ` // ${time}` : ''}`];
}

/**
 * Characters JSON.stringify leaves as they are but that would act rather than show in the editor: line
 * and paragraph separators (the editor takes them for line ends), C1 controls, and the invisible and
 * direction-changing marks that reorder or hide what follows. Written as JSON escapes, the value a
 * JSON reader gets is unchanged: the document stays the exact event.
 */
const ACTING = /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function escapeActing(json: string): string {
  return json.replace(ACTING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function readableTime(value: unknown): string | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return undefined;
  const ms = n >= EARLIEST_MS ? n : n * 1000;
  return ms >= EARLIEST_MS && ms < LATEST_MS ? formatLocalTime(ms, true) : undefined;
}
