import { hashKey } from '../keys';
import { type Queryable } from '../store/sql';

/**
 * Requests per minute for each client of a shared sandbox: a token bucket that holds a minute's worth
 * (so a burst as large as the limit passes) and refills evenly. A request with a known key counts
 * against that key, anything else (no key, an unknown one, `GET /api`) against the client's address,
 * so guessing keys is slowed as much as any other traffic and one busy key does not starve another
 * developer behind the same address.
 */
export interface RateLimit {
  /** Takes one request from the client's allowance: undefined when it may go on, else the seconds to wait. */
  take(client: string): Promise<number | undefined>;
}

/** The seconds until a bucket holding `tokens` (less than one) has one again. */
const waitFor = (tokens: number, perMinute: number) => Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute));

/** The buckets in this process's memory: the limit of a sandbox that is one process (PGlite's data directory). */
export class RateLimiter implements RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastSweep = now();
  }

  take(client: string): Promise<number | undefined> {
    return Promise.resolve(this.takeNow(client));
  }

  takeNow(client: string): number | undefined {
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
    return waitFor(bucket.tokens, this.perMinute);
  }

  /** Buckets that have refilled are the same as no bucket: dropped, so the map stays as small as the traffic of the last minute. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [client, bucket] of this.buckets) if (now - bucket.at >= 60_000) this.buckets.delete(client);
  }
}

/** The bucket refilled to the database's clock, as SQL: `$2` is the limit per minute. */
const REFILLED = `LEAST($2::float8, rate_limits.tokens + GREATEST(0, EXTRACT(EPOCH FROM (now() - rate_limits.at)))::float8 * $2::float8 / 60)`;

/**
 * The buckets in the PostgreSQL database the team's processes share: each request refills and takes
 * from its client's bucket in one statement (the row is locked while it is updated), by the
 * database's clock, so several processes together allow what one would, and guessed keys from one
 * address draw on one allowance, whichever process they reach. No copy in memory: a process that
 * decided alone could let through up to its own share again.
 */
export class SharedRateLimiter implements RateLimit {
  private lastSweep = 0;

  constructor(
    private readonly perMinute: number,
    private readonly db: Queryable,
  ) {}

  async take(client: string): Promise<number | undefined> {
    const { rows } = await this.db.query<{ tokens: number; taken: boolean }>(
      `INSERT INTO rate_limits (client, tokens, at, taken) VALUES ($1, $2::float8 - 1, now(), true)
       ON CONFLICT (client) DO UPDATE SET
         tokens = CASE WHEN ${REFILLED} >= 1 THEN ${REFILLED} - 1 ELSE ${REFILLED} END,
         taken = ${REFILLED} >= 1,
         at = GREATEST(now(), rate_limits.at)
       RETURNING tokens, taken`,
      [client, this.perMinute],
    );
    this.sweep();
    const row = rows[0];
    if (!row || row.taken) return undefined;
    return waitFor(Number(row.tokens), this.perMinute);
  }

  /** Buckets full again are the same as none: dropped now and then, so the table holds the last minute's clients only. */
  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    this.db.query(`DELETE FROM rate_limits WHERE at < now() - interval '1 minute'`).catch(() => undefined);
  }
}

/** The bucket of a request with a known key: its hash, so no key is held in the limiter's memory or table. */
export const keyClient = (token: string) => `key:${hashKey(token)}`;
export const addressClient = (address: string | undefined) => `address:${address ?? 'unknown'}`;
