import { type NormalizedEvent, type NormalizedLog } from '../client';
import { visibleLine as visible } from '../text/invisible';

export interface EventContext {
  readonly environment: string;
  readonly actionKey: string;
}

const INDENT = '    ';
/** Stack lines shown under a failure; the whole stack is in the event's JSON. */
const STACK_LINES = 8;
/** A result is shown on one line, cut beyond this: the channel is read at a glance, Open Event has it whole. */
const RESULT_CHARS = 200;

/**
 * The lines one event becomes in the events channel: a header (environment, action, outcome, local
 * start time with milliseconds, duration), then each log entry indented with its own time and level,
 * then what the run came to: its result as compact JSON on one line, or, for a failure, its error.
 * Whatever the server left out is said, not guessed. Every piece of text from the server passes
 * `visible`, so it shows on the line it belongs to and cannot act.
 */
export function formatEvent(event: NormalizedEvent, context: EventContext): string[] {
  const start = event.startTime === undefined ? 'no start time' : formatLocalTime(event.startTime, true);
  const duration = event.duration === undefined ? 'no duration' : formatDuration(event.duration);
  const header = (outcome: string) => visible(`[${context.environment}] ${context.actionKey} ${outcome} at ${start} (${duration})`);
  if (event.unreadable !== undefined)
    return [header('unreadable event'), `${INDENT}${visible(event.unreadable)}; Open Event in the tree shows what could be read`];
  // The spec names two outcomes; another name a server uses is kept beside the one it maps to.
  const lines = [header((event.ok ? 'success' : 'failure') + (['success', 'failure', 'unknown'].includes(event.name) ? '' : ` (${event.name})`))];
  for (const log of event.logs) lines.push(...formatLog(log));
  if (event.logsOmitted > 0) lines.push(`${INDENT}(${event.logsOmitted.toLocaleString('en-US')} more log entries not shown; Open Event has them all)`);
  if (event.logs.length === 0 && event.ok) lines.push(`${INDENT}(no log entries)`);
  if (event.ok) lines.push(formatResult(event.result));
  if (!event.ok && event.error) {
    lines.push(...continued(`${INDENT}error: `, event.error.message));
    const stack = (event.error.stack ?? '')
      .split('\n')
      .filter((l) => /^\s*at\s/.test(l))
      .slice(0, STACK_LINES);
    for (const frame of stack) lines.push(`${INDENT}${INDENT}${visible(frame.trim())}`);
  }
  return lines;
}

/**
 * A result as JSON on one line (a text in quotes, so "" reads as the empty text it is), cut to
 * RESULT_CHARS; `(no result)` when the server sent none. JSON escapes line breaks; `visible` the rest.
 */
function formatResult(result: unknown): string {
  if (result === undefined) return `${INDENT}(no result)`;
  const json = JSON.stringify(result) ?? String(result);
  if (json.length <= RESULT_CHARS) return `${INDENT}result: ${visible(json)}`;
  // Never half a surrogate pair at the cut.
  const end = /[\ud800-\udbff]/.test(json.charAt(RESULT_CHARS - 1)) ? RESULT_CHARS - 1 : RESULT_CHARS;
  return `${INDENT}result: ${visible(json.slice(0, end))}… (${json.length.toLocaleString('en-US')} characters; Open Event has it all)`;
}

export function formatLog(log: NormalizedLog): string[] {
  const time = log.time === undefined ? ' '.repeat(12) : formatLocalTime(log.time, false);
  const level = visible(log.level).padEnd(5);
  return continued(`${INDENT}${time} ${level} `, log.message);
}

/**
 * A message of several lines keeps its first line beside the prefix and aligns the others under it.
 * LF and CRLF end a line; a lone CR is shown, not obeyed (it would overwrite the line in a terminal).
 */
function continued(prefix: string, message: string): string[] {
  const lines = message.split(/\r?\n/);
  while (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const [first = '', ...rest] = lines.map(visible);
  const pad = ' '.repeat(prefix.length);
  return [prefix + first, ...rest.map((line) => pad + line)].map((l) => l.trimEnd());
}

/** Local time with milliseconds; with the date when asked. */
export function formatLocalTime(ms: number, withDate: boolean): string {
  const d = new Date(ms);
  const time = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  return withDate ? `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${time}` : time;
}

/**
 * When something happened, as a row or a title shows it: the local time, with the date unless it is
 * today's, and milliseconds only where runs a moment apart must be told apart (events).
 */
export function formatWhen(ms: number, withMilliseconds: boolean, now = Date.now()): string {
  const sameDay = new Date(ms).toDateString() === new Date(now).toDateString();
  const text = formatLocalTime(ms, !sameDay);
  return withMilliseconds ? text : text.slice(0, -'.000'.length);
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}
