/**
 * Events in whatever reasonable shape a server sends them (spec part 6 leaves units, log entries and
 * failure details open), brought to one shape. The heuristics are documented in docs/client.md.
 */
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
  readonly logs: readonly NormalizedLog[];
  readonly error: { readonly message: string; readonly stack?: string } | undefined;
  readonly result: unknown;
  readonly raw: unknown;
}

/** Below this a start time is taken as seconds since the epoch (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

export function normalizeEvent(raw: unknown): NormalizedEvent {
  const event = record(raw);
  const data = record(event.data);
  const timings = record(data.timings ?? event.timings);
  const start = readTime(timings.startTime ?? timings.start ?? event.startTime ?? event.timestamp);
  let duration = num(timings.duration ?? event.duration);
  if (duration !== undefined && start.unit === 's') duration *= 1000;
  const name = str(event.name ?? event.status ?? event.type) ?? 'unknown';
  const error = readError(data.error ?? event.error, data.message, data.reason);
  const ok = /^(success|succeeded|ok|completed)$/i.test(name) || (!/fail|error/i.test(name) && error === undefined && name !== 'unknown');
  const logsRaw = data.logs ?? event.logs;
  return {
    id: str(event.id) ?? (typeof event.id === 'number' ? String(event.id) : syntheticId(raw)),
    name,
    ok,
    startTime: start.ms,
    duration,
    logs: Array.isArray(logsRaw) ? logsRaw.map(readLog) : [],
    error: ok ? undefined : (error ?? (/fail|error/i.test(name) ? { message: 'the run failed (the server gave no reason)' } : undefined)),
    result: data.result ?? data.output,
    raw,
  };
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
  if (typeof entry === 'string') return { time: undefined, level: 'info', message: entry };
  if (typeof entry !== 'object' || entry === null) return { time: undefined, level: 'info', message: String(entry) };
  const e = entry as Record<string, unknown>;
  const rawMessage = e.message ?? e.msg ?? e.text ?? e.args ?? e.data;
  const message = Array.isArray(rawMessage) ? rawMessage.map(show).join(' ') : rawMessage === undefined ? JSON.stringify(entry) : show(rawMessage);
  return { time: readTime(e.time ?? e.timestamp ?? e.ts).ms, level: (str(e.level ?? e.severity ?? e.type) ?? 'info').toLowerCase(), message };
}

function readError(...candidates: unknown[]): { message: string; stack?: string } | undefined {
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim()) return { message: c };
    if (typeof c === 'object' && c !== null) {
      const e = c as Record<string, unknown>;
      const message = str(e.message) ?? str(e.detail) ?? JSON.stringify(c);
      const name = str(e.name);
      return { message: name && !message.startsWith(name) ? `${name}: ${message}` : message, ...(str(e.stack) ? { stack: str(e.stack) } : {}) };
    }
  }
  return undefined;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

function syntheticId(raw: unknown): string {
  // Stable for the same content, so an event without an id is still printed once.
  const text = JSON.stringify(raw) ?? '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `content:${(hash >>> 0).toString(16)}`;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}
