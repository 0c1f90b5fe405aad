import { type NormalizedEvent } from '../client';

/** Oldest first; events without a start time keep their place after the timed ones. */
export function byStartTime(a: NormalizedEvent, b: NormalizedEvent): number {
  if (a.startTime === undefined || b.startTime === undefined) return a.startTime === undefined ? (b.startTime === undefined ? 0 : 1) : -1;
  return a.startTime - b.startTime;
}

/** The newest events of an environment, held for the tree; a fixed number, so memory stays flat. */
export class RecentEvents {
  private events: NormalizedEvent[] = [];

  constructor(private readonly keep: number) {}

  add(incoming: readonly NormalizedEvent[]): void {
    if (incoming.length === 0) return;
    const ids = new Set(incoming.map((e) => e.id));
    const merged = [...this.events.filter((e) => !ids.has(e.id)), ...incoming].sort(byStartTime);
    this.events = merged.slice(-this.keep);
  }

  /** Newest first. */
  newest(limit: number): NormalizedEvent[] {
    return this.events.slice(-limit).reverse();
  }
}
