import { hashKey } from '../keys';

/**
 * Requests per minute for each client of a shared sandbox: a token bucket that holds a minute's worth
 * (so a burst as large as the limit passes) and refills evenly. A request with a known key counts
 * against that key, anything else (no key, an unknown one, `GET /api`) against the client's address,
 * so guessing keys is slowed as much as any other traffic and one busy key does not starve another
 * developer behind the same address.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastSweep = now();
  }

  /** Takes one request from the client's allowance: undefined when it may go on, else the seconds to wait. */
  take(client: string): number | undefined {
    const now = this.now();
    this.sweep(now);
    const perMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(client) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  }

  /** Buckets that have refilled are the same as no bucket: dropped, so the map stays as small as the traffic of the last minute. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [client, bucket] of this.buckets) if (now - bucket.at >= 60_000) this.buckets.delete(client);
  }
}

/** The bucket of a request with a known key: its hash, so no key is held in the limiter's memory. */
export const keyClient = (token: string) => `key:${hashKey(token)}`;
export const addressClient = (address: string | undefined) => `address:${address ?? 'unknown'}`;
