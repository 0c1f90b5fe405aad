import { ApiError, type Capabilities, type EventsPage, type EventsQuery, ForeignOriginError, type NormalizedEvent } from '../client';
import { byStartTime, RecentEvents } from './recent';
import { DEFAULT_SCHEDULE, failureDelay, pollDelay, type ScheduleOptions } from './schedule';
import { DEFAULT_SEEN_CAP, SeenEvents } from './seen';

/** The two client operations a poller needs; the REST client provides them. */
export interface EventsApi {
  listEvents(eventsUrl: string, query?: EventsQuery): Promise<EventsPage>;
  capabilities(o?: { signal?: AbortSignal }): Promise<Capabilities>;
}

export type PollerStatus =
  | { readonly kind: 'watching'; readonly earlier: number }
  | { readonly kind: 'retrying'; readonly error: unknown; readonly failures: number; readonly delayMs: number }
  | { readonly kind: 'resumed' }
  | { readonly kind: 'stopped'; readonly reason: StopReason; readonly error: unknown };

/** Why a watch ended on its own: the key was refused, the events are gone, reading them is forbidden, or the server pointed elsewhere. */
export type StopReason = 'auth' | 'gone' | 'refused' | 'foreign-origin';

export interface PollerOptions {
  readonly eventsUrl: string;
  /** Asked before every request, so a new key or a restarted server is picked up. */
  readonly api: () => Promise<EventsApi>;
  /** New events, oldest first, each exactly once. */
  readonly onEvents: (events: readonly NormalizedEvent[]) => void;
  readonly onStatus?: (status: PollerStatus) => void;
  readonly schedule?: Partial<ScheduleOptions>;
  readonly seenCap?: number;
  /** Events asked for per page, where the server pages. */
  readonly pageLimit?: number;
  /** Pages read in one poll at most, so a flood cannot keep a poll going. */
  readonly maxPages?: number;
  /** Seconds a long poll may be held, where the server offers it. */
  readonly longPollSeconds?: number;
  /** How many of the newest events are kept for the tree. */
  readonly keepRecent?: number;
  readonly now?: () => number;
  readonly random?: () => number;
}

/**
 * Watches one environment's events list: GET only (the spec offers nothing else), conditional where
 * the server sends validators, paged where it advertises paging, held open where it offers long poll.
 * The first answer is the baseline: it is remembered, not printed. After that every event is
 * reported once, however pages overlap, reorder or deliver late.
 */
export class EventsPoller {
  private readonly schedule: ScheduleOptions;
  private readonly seen: SeenEvents;
  private readonly recentEvents: RecentEvents;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly stopper = new AbortController();
  private wake: (() => void) | undefined;
  private lastActivity: number;
  private etag: string | undefined;
  private lastModified: string | undefined;
  private baselined = false;
  private failures = 0;
  private poked = false;
  private lastAsked = 0;
  private running: Promise<void> | undefined;
  private readonly baselineWaiters: (() => void)[] = [];
  /** Requests sent, for diagnostics and tests. */
  requests = 0;

  constructor(private readonly o: PollerOptions) {
    this.schedule = { ...DEFAULT_SCHEDULE, ...o.schedule };
    this.seen = new SeenEvents(o.seenCap ?? DEFAULT_SEEN_CAP);
    this.recentEvents = new RecentEvents(o.keepRecent ?? 200);
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    this.lastActivity = this.now();
  }

  get stopped(): boolean {
    return this.stopper.signal.aborted;
  }

  /** How many ids are remembered (bounded by the cap). */
  get remembered(): number {
    return this.seen.size;
  }

  /** Whether the baseline is in, so events from now on will be reported. */
  get ready(): boolean {
    return this.baselined;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Resolves once the baseline is in (or the poller stopped): a run started after this is reported. */
  whenReady(): Promise<void> {
    if (this.baselined || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.baselineWaiters.push(resolve));
  }

  /** Something just happened (a push, a run): ask now and keep the fast pace for a while. */
  poke(): void {
    this.lastActivity = this.now();
    // A poll already on its way may have left before the news: the next one then goes at once.
    if (this.wake) this.wake();
    else this.poked = true;
  }

  /**
   * Someone is looking (the window got the focus back, after testing the workflow elsewhere, say):
   * ask once now instead of at the end of a quiet interval. It does not quicken the pace (a new event
   * does that), and does nothing while a request is out, one left less than the fast interval ago, or
   * the poller is backing off after failures (focus changes must not undo the backoff).
   */
  glance(): void {
    if (this.wake && this.failures === 0 && this.now() - this.lastAsked >= this.schedule.fastMs) this.wake();
  }

  /** Ends the loop and cancels the request in flight; nothing is sent afterwards. */
  async stop(): Promise<void> {
    if (!this.stopper.signal.aborted) this.stopper.abort();
    this.wake?.();
    this.releaseWaiters();
    await this.running;
  }

  /** The newest events known, newest first. */
  recent(limit: number): NormalizedEvent[] {
    return this.recentEvents.newest(limit);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const started = this.now();
      this.lastAsked = started;
      let delay: number;
      let held = false;
      try {
        held = await this.pollOnce();
        if (this.failures > 0) this.o.onStatus?.({ kind: 'resumed' });
        this.failures = 0;
        // A held request already spaced itself out; only what remains of the interval is waited.
        const interval = pollDelay(this.now() - this.lastActivity, this.schedule);
        delay = held ? Math.max(0, interval - (this.now() - started)) : interval;
      } catch (error) {
        if (this.stopped) break;
        // Anything else, an answer the client could not read or a bug alike, backs off below.
        const fatal = fatalReason(error);
        if (fatal) {
          this.stopper.abort();
          this.releaseWaiters();
          this.o.onStatus?.({ kind: 'stopped', reason: fatal, error });
          break;
        }
        this.failures++;
        delay = Math.max(failureDelay(this.failures, this.schedule, this.random), pollDelay(this.now() - this.lastActivity, this.schedule));
        this.o.onStatus?.({ kind: 'retrying', error, failures: this.failures, delayMs: delay });
      }
      if (this.poked) delay = 0;
      this.poked = false;
      await this.sleep(delay);
    }
  }

  /** One poll: the newest page, then older pages while they hold only unseen events. Returns whether the request was a long poll. */
  private async pollOnce(): Promise<boolean> {
    const api = await this.o.api();
    const signal = this.stopper.signal;
    const caps = await api.capabilities({ signal });
    const paging = caps.eventsPaging;
    const limit = paging ? Math.min(this.o.pageLimit ?? 100, paging.maxLimit) : undefined;
    // Long poll only once the baseline is in and a validator exists: the server holds "until something changes".
    const wait = caps.eventsLongPoll && this.baselined && this.etag ? Math.min(this.o.longPollSeconds ?? 25, caps.eventsLongPoll.maxWaitSeconds) : undefined;
    this.requests++;
    const first = await api.listEvents(this.o.eventsUrl, { etag: this.etag, lastModified: this.lastModified, limit, wait, signal });
    this.etag = first.etag;
    this.lastModified = first.lastModified;
    if (first.notModified) {
      this.markBaseline(0);
      return wait !== undefined;
    }
    const fresh = new Map<string, NormalizedEvent>();
    let page: EventsPage = first;
    const maxPages = this.baselined ? (this.o.maxPages ?? 50) : 1;
    for (let pages = 1; ; pages++) {
      let metSeen = false;
      for (const event of page.events) {
        if (this.seen.has(event)) metSeen = true;
        else fresh.set(event.id, event);
      }
      const cursor = paging ? page.nextCursor : undefined;
      if (metSeen || cursor === undefined || pages >= maxPages || page.events.length === 0 || this.stopped) break;
      this.requests++;
      page = await api.listEvents(this.o.eventsUrl, { limit, cursor, signal });
    }
    const events = [...fresh.values()].sort(byStartTime);
    for (const event of events) this.seen.add(event);
    this.recentEvents.add(events);
    if (!this.baselined) {
      this.markBaseline(events.length);
    } else if (events.length > 0) {
      this.lastActivity = this.now();
      this.o.onEvents(events);
    }
    return wait !== undefined;
  }

  private markBaseline(earlier: number): void {
    if (this.baselined) return;
    this.baselined = true;
    this.o.onStatus?.({ kind: 'watching', earlier });
    this.releaseWaiters();
  }

  private releaseWaiters(): void {
    for (const resolve of this.baselineWaiters.splice(0)) resolve();
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/** Failures no retry can fix: the key is refused, the action is gone, or the server points the key elsewhere. */
function fatalReason(error: unknown): StopReason | undefined {
  if (error instanceof ForeignOriginError) return 'foreign-origin';
  if (!(error instanceof ApiError)) return undefined;
  if (error.kind === 'auth') return 'auth';
  if (error.kind === 'not-found') return 'gone';
  if (error.kind === 'forbidden') return 'refused';
  return undefined;
}
