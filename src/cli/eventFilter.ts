import { type NormalizedEvent } from '../core/client';
import { CliError, EXIT } from './exitCodes';

/** Which events a listing keeps: by outcome, by a text anywhere in them, by when they started. */
export interface EventFilter {
  readonly status?: 'success' | 'failure';
  /** Lower case; matched against the outcome's name, the logs, the error and the result as JSON. */
  readonly text?: string;
  /** Milliseconds since the epoch. */
  readonly since?: number;
}

const UNITS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: a duration back from `now` (`90s`, `15m`, `1h`, `2d`, `1w`) or an ISO 8601 date and time. */
export function parseSince(value: string, now = Date.now()): number {
  const relative = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(value.trim());
  if (relative) return now - Number(relative[1]) * UNITS[relative[2]!.toLowerCase()]!;
  const iso = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()) ? Date.parse(value.trim()) : NaN;
  if (Number.isNaN(iso)) throw new CliError(EXIT.usage, `--since must be a duration such as 15m, 1h or 2d, or an ISO date and time, not "${value}".`);
  return iso;
}

export function parseStatus(value: string | undefined): EventFilter['status'] {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'success' || lower === 'failure') return lower;
  throw new CliError(EXIT.usage, `--status must be success or failure, not "${value}".`);
}

export function matches(event: NormalizedEvent, filter: EventFilter): boolean {
  if (filter.status === 'success' && !event.ok) return false;
  if (filter.status === 'failure' && event.ok) return false;
  // An event without a start time cannot be placed: a time filter leaves it out.
  if (filter.since !== undefined && (event.startTime === undefined || event.startTime < filter.since)) return false;
  if (filter.text !== undefined && !searchable(event).includes(filter.text)) return false;
  return true;
}

function searchable(event: NormalizedEvent): string {
  const parts = [event.name, ...event.logs.map((l) => l.message), event.error?.message ?? '', event.unreadable ?? ''];
  if (event.result !== undefined) parts.push(JSON.stringify(event.result) ?? '');
  return parts.join('\n').toLowerCase();
}
