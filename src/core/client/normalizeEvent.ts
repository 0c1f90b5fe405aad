/**
 * Events in whatever reasonable shape a server sends them (spec part 6 leaves units, log entries and
 * failure details open), brought to one shape. The heuristics are documented in docs/client.md.
 * Whatever it is sent, reading one event stays bounded (eventBounds.ts): one that cannot be read is
 * listed as unreadable, with what is safely known of it, and never costs the rest of the page.
 */
import { clip, EVENT_LIMITS, fingerprint, preview, whyUnreadable } from './eventBounds';
import { record } from './readers';

export interface NormalizedLog {
  /** Milliseconds since the epoch, when the entry says. */
  readonly time: number | undefined;
  readonly level: string;
  readonly message: string;
}

export interface NormalizedEvent {
  readonly id: string;
  /** `success`, `failure`, or whatever else the server calls it. */
  readonly name: string;
  readonly ok: boolean;
  /** Milliseconds since the epoch. */
  readonly startTime: number | undefined;
  /** Milliseconds. */
  readonly duration: number | undefined;
  /** At most `EVENT_LIMITS.logEntries`; how many more the event had is in `logsOmitted`. */
  readonly logs: readonly NormalizedLog[];
  readonly logsOmitted: number;
  readonly error: { readonly message: string; readonly stack?: string } | undefined;
  readonly result: unknown;
  /** The event as sent; for an unreadable one, `{ unreadable, preview }`, which is safe to show as JSON. */
  readonly raw: unknown;
  /** Why the event could not be read (then it is not ok, named `unreadable`, and has no logs). */
  readonly unreadable: string | undefined;
}

/** Below this a start time is taken as seconds since the epoch (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

export function normalizeEvent(raw: unknown): NormalizedEvent {
  const problem = typeof raw !== 'object' || raw === null || Array.isArray(raw) ? 'not a JSON object' : whyUnreadable(raw);
  if (problem) return unreadable(raw, problem);
  try {
    return readEvent(raw as Record<string, unknown>);
  } catch (error) {
    // Within the limits nothing is known to throw; should something still, that event is listed as
    // unreadable rather than failing the whole page.
    return unreadable(raw, `it could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

function readEvent(event: Record<string, unknown>): NormalizedEvent {
  const data = record(event.data);
  const { startTime, duration } = readTimings(event);
  const name = clip(str(event.name ?? event.status ?? event.type) ?? 'unknown', EVENT_LIMITS.labelChars);
  const error = readError(data.error ?? event.error, data.message, data.reason);
  const ok = /^(success|succeeded|ok|completed)$/i.test(name) || (!/fail|error/i.test(name) && error === undefined && name !== 'unknown');
  const logsRaw = data.logs ?? event.logs;
  const logs = Array.isArray(logsRaw) ? logsRaw : [];
  return {
    id: readId(event) ?? `content:${fingerprint(event)}`,
    name,
    ok,
    startTime,
    duration,
    logs: logs.slice(0, EVENT_LIMITS.logEntries).map(readLog),
    logsOmitted: Math.max(0, logs.length - EVENT_LIMITS.logEntries),
    error: ok ? undefined : (error ?? (/fail|error/i.test(name) ? { message: 'the run failed (the server gave no reason)' } : undefined)),
    result: data.result ?? data.output,
    raw: event,
    unreadable: undefined,
  };
}

/** An event beyond the limits: only shallow fields are read, and the raw event gives way to a preview of it. */
function unreadable(raw: unknown, reason: string): NormalizedEvent {
  const event = record(raw);
  const { startTime, duration } = readTimings(event);
  return {
    id: readId(event) ?? `content:${fingerprint(raw)}`,
    name: 'unreadable',
    ok: false,
    startTime,
    duration,
    logs: [],
    logsOmitted: 0,
    error: { message: `unreadable event: ${reason}` },
    result: undefined,
    raw: { unreadable: reason, preview: preview(raw) },
    unreadable: reason,
  };
}

/** Timings from `data.timings`, falling back to the event itself; a duration is in the start time's unit. */
function readTimings(event: Record<string, unknown>): { startTime: number | undefined; duration: number | undefined } {
  const data = record(event.data);
  const timings = record(data.timings ?? event.timings);
  const start = readTime(timings.startTime ?? timings.start ?? event.startTime ?? event.timestamp);
  const duration = num(timings.duration ?? event.duration);
  return { startTime: start.ms, duration: duration !== undefined && start.unit === 's' ? duration * 1000 : duration };
}

function readId(event: Record<string, unknown>): string | undefined {
  const id = str(event.id) ?? (typeof event.id === 'number' && Number.isFinite(event.id) ? String(event.id) : undefined);
  // Ids are remembered per environment; one of megabytes would make that memory unbounded.
  return id !== undefined && id.length > EVENT_LIMITS.idChars ? `id:${fingerprint(id)}` : id;
}

function readTime(value: unknown): { ms: number | undefined; unit: 'ms' | 's' | undefined } {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return value < SECONDS_BELOW ? { ms: Math.round(value * 1000), unit: 's' } : { ms: value, unit: 'ms' };
  }
  if (typeof value === 'string') {
    const asNumber = Number(value);
    if (value.trim() && Number.isFinite(asNumber)) return readTime(asNumber);
    const parsed = Date.parse(value);
    if (!Number.isNaN(parsed)) return { ms: parsed, unit: undefined };
  }
  return { ms: undefined, unit: undefined };
}

function readLog(entry: unknown): NormalizedLog {
  if (typeof entry === 'string') return { time: undefined, level: 'info', message: clip(entry, EVENT_LIMITS.messageChars) };
  if (typeof entry !== 'object' || entry === null) return { time: undefined, level: 'info', message: String(entry) };
  const e = entry as Record<string, unknown>;
  const rawMessage = e.message ?? e.msg ?? e.text ?? e.args ?? e.data;
  const message = Array.isArray(rawMessage) ? rawMessage.map(show).join(' ') : rawMessage === undefined ? JSON.stringify(entry) : show(rawMessage);
  const level = clip((str(e.level ?? e.severity ?? e.type) ?? 'info').toLowerCase(), EVENT_LIMITS.labelChars);
  return { time: readTime(e.time ?? e.timestamp ?? e.ts).ms, level, message: clip(message, EVENT_LIMITS.messageChars) };
}

/** An error as events show it: its message, after its name unless the message starts with it ("TypeError: x"). */
export function errorText(name: string | undefined, message: string): string {
  return name && !message.startsWith(name) ? `${name}: ${message}` : message;
}

function readError(...candidates: unknown[]): { message: string; stack?: string } | undefined {
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim()) return { message: clip(c, EVENT_LIMITS.messageChars) };
    if (typeof c === 'object' && c !== null) {
      const e = c as Record<string, unknown>;
      const message = str(e.message) ?? str(e.detail) ?? JSON.stringify(c);
      const name = str(e.name);
      const stack = str(e.stack);
      return {
        message: clip(errorText(name, message), EVENT_LIMITS.messageChars),
        ...(stack ? { stack: clip(stack, EVENT_LIMITS.messageChars) } : {}),
      };
    }
  }
  return undefined;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}
