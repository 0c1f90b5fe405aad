import { type NormalizedEvent } from '../client';

/** Ids remembered per environment; past this the oldest (by start time) are forgotten behind a watermark. */
export const DEFAULT_SEEN_CAP = 5_000;

/**
 * Which events of one environment have been handled already. Memory stays bounded however long the
 * server's list is: once more than `cap` ids are held, the oldest are dropped and their newest start
 * time becomes the watermark, below which an unknown event counts as seen (it is older than anything
 * still remembered, so printing it now would be noise, and possibly a repeat).
 */
export class SeenEvents {
  /** id → start time. */
  private readonly timed = new Map<string, number>();
  /** Events without a start time cannot sit behind a watermark; they are kept first in, first out. */
  private readonly untimed = new Set<string>();
  private mark = -Infinity;
  private readonly slack: number;

  constructor(private readonly cap = DEFAULT_SEEN_CAP) {
    // Trimming in batches keeps the cost per event constant instead of a sort per insertion.
    this.slack = Math.max(1, Math.ceil(cap / 10));
  }

  get size(): number {
    return this.timed.size + this.untimed.size;
  }

  get watermark(): number {
    return this.mark;
  }

  has(event: NormalizedEvent): boolean {
    if (this.timed.has(event.id) || this.untimed.has(event.id)) return true;
    return event.startTime !== undefined && event.startTime <= this.mark;
  }

  add(event: NormalizedEvent): void {
    if (event.startTime === undefined) {
      this.untimed.add(event.id);
      if (this.untimed.size > this.cap) this.untimed.delete(this.untimed.values().next().value as string);
      return;
    }
    if (this.timed.has(event.id)) return;
    this.timed.set(event.id, event.startTime);
    if (this.timed.size > this.cap + this.slack) this.trim();
  }

  private trim(): void {
    const times = [...this.timed.values()].sort((a, b) => a - b);
    const cutoff = times[this.timed.size - this.cap - 1];
    if (cutoff === undefined) return;
    // Everything at the cutoff goes: the watermark covers those ids from now on.
    for (const [id, time] of this.timed) if (time <= cutoff) this.timed.delete(id);
    this.mark = Math.max(this.mark, cutoff);
  }
}
