/**
 * How long a watcher waits between two requests. Right after something happened (a push, a run, a new
 * event) it asks about once a second; the pace then slows, and after a minute of quiet it settles at
 * `quietMs`, which the setting keeps at 10 s or more: at most 6 requests a minute.
 */
export interface ScheduleOptions {
  readonly fastMs: number;
  /** How long the fast pace lasts after the last activity. */
  readonly fastForMs: number;
  /** From here on the quiet interval applies. */
  readonly quietAfterMs: number;
  readonly quietMs: number;
  /** Ceiling of the backoff after failures. */
  readonly maxBackoffMs: number;
}

export const DEFAULT_SCHEDULE: ScheduleOptions = {
  fastMs: 1_000,
  fastForMs: 15_000,
  quietAfterMs: 60_000,
  quietMs: 10_000,
  maxBackoffMs: 60_000,
};

export function pollDelay(sinceActivityMs: number, o: ScheduleOptions = DEFAULT_SCHEDULE): number {
  if (sinceActivityMs < o.fastForMs) return o.fastMs;
  if (sinceActivityMs >= o.quietAfterMs) return o.quietMs;
  // In between, the interval grows with the quiet so far: a sixth of it, within [fast, quiet].
  return Math.min(o.quietMs, Math.max(o.fastMs, Math.round(sinceActivityMs / 6)));
}

/** Exponential with jitter (the upper half of the range), so watchers that failed together do not retry together. */
export function failureDelay(failures: number, o: ScheduleOptions = DEFAULT_SCHEDULE, random: () => number = Math.random): number {
  const ceiling = Math.min(o.maxBackoffMs, o.fastMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
