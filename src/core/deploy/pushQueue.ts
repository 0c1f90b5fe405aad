import { sha256Hex } from '../contentHash/sha256';

/** How one push ended. Only `accepted` means the server holds the content. */
export type PushOutcome =
  | { readonly kind: 'accepted'; readonly durationMs: number }
  /** Identical to what the server last accepted for this id: nothing was sent. */
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'failed'; readonly error: unknown; readonly durationMs: number };

export interface PushQueueOptions {
  /** Sends one content for one id; resolves only when the server accepted it (with whatever the sender returns, unused here). */
  send(id: string, content: string, signal: AbortSignal): Promise<unknown>;
  hash?(content: string): string;
  now?(): number;
}

export interface PushListener {
  /** A request for `id` is about to be sent. */
  onStart?(id: string): void;
  /** A request for `id` settled; `more` says a follow-up with newer content goes out next. */
  onSettle?(id: string, outcome: PushOutcome, more: boolean): void;
}

export interface PushRequest {
  /** Send even when the server last accepted the same content (an explicit push by hand). */
  readonly force?: boolean;
}

interface Waiting {
  content: string;
  force: boolean;
  waiters: ((outcome: PushOutcome) => void)[];
}

interface Slot {
  inflight: AbortController | undefined;
  /** Content saved while a request was in flight; only the latest is kept. */
  pending: Waiting | undefined;
  acceptedHash: string | undefined;
  /** The latest content that failed, kept for a retry until newer content is accepted. */
  failed: string | undefined;
}

/**
 * Per id at most one request in flight; whatever arrives meanwhile collapses into one follow-up
 * carrying the latest content, and content the server already accepted is not sent again. Saving
 * fifty times while a request is slow therefore costs two requests, and the last save always wins.
 */
export class PushQueue {
  private readonly slots = new Map<string, Slot>();
  private readonly hash: (content: string) => string;
  private readonly now: () => number;
  private readonly listeners = new Set<PushListener>();
  private disposed = false;

  constructor(private readonly options: PushQueueOptions) {
    this.hash = options.hash ?? sha256;
    this.now = options.now ?? Date.now;
  }

  listen(listener: PushListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Queues `content` for `id`. The promise settles with the outcome of the request that carried this
   * content or newer content saved after it; a superseded save shares the follow-up's outcome.
   */
  push(id: string, content: string, request: PushRequest = {}): Promise<PushOutcome> {
    const slot = this.slot(id);
    return new Promise<PushOutcome>((resolve) => {
      if (this.disposed) {
        resolve({ kind: 'failed', error: new Error('The push queue is closed.'), durationMs: 0 });
        return;
      }
      if (slot.inflight) {
        const waiters = slot.pending?.waiters ?? [];
        // A forced push stays forced even when a plain save overtakes it before it is sent.
        slot.pending = { content, force: (slot.pending?.force ?? false) || (request.force ?? false), waiters: [...waiters, resolve] };
        return;
      }
      this.start(id, slot, { content, force: request.force ?? false, waiters: [resolve] });
    });
  }

  /**
   * Pushes again the latest content that failed for `id`, if any. While a push is in flight or
   * waiting, that push carries content saved after the failure: a retry then sends nothing, since as
   * a push it would take the place of the newer content.
   */
  retry(id: string): Promise<PushOutcome> | undefined {
    const slot = this.slots.get(id);
    if (!slot || slot.failed === undefined || slot.inflight || slot.pending) return undefined;
    return this.push(id, slot.failed);
  }

  failedContent(id: string): string | undefined {
    return this.slots.get(id)?.failed;
  }

  isBusy(id: string): boolean {
    return this.slots.get(id)?.inflight !== undefined;
  }

  /** Whether the server last accepted exactly this content for `id`. */
  isAccepted(id: string, content: string): boolean {
    return this.slots.get(id)?.acceptedHash === this.hash(content);
  }

  /** Forgets what the server accepted, e.g. when the action was created anew or changed elsewhere. */
  forget(id: string): void {
    const slot = this.slots.get(id);
    if (slot) slot.acceptedHash = undefined;
  }

  /** Aborts every request in flight; queued saves settle as failed. */
  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots.values()) {
      slot.inflight?.abort();
      const pending = slot.pending;
      slot.pending = undefined;
      for (const resolve of pending?.waiters ?? []) resolve({ kind: 'failed', error: new Error('The push queue is closed.'), durationMs: 0 });
    }
  }

  private slot(id: string): Slot {
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { inflight: undefined, pending: undefined, acceptedHash: undefined, failed: undefined };
      this.slots.set(id, slot);
    }
    return slot;
  }

  private start(id: string, slot: Slot, job: Waiting): void {
    const hash = this.hash(job.content);
    if (!job.force && hash === slot.acceptedHash) {
      // Saving what the server already holds also clears an older failure: there is nothing left to retry.
      slot.failed = undefined;
      this.settle(id, job, { kind: 'unchanged' }, false);
      return;
    }
    const controller = new AbortController();
    slot.inflight = controller;
    for (const l of this.listeners) l.onStart?.(id);
    const started = this.now();
    void this.options.send(id, job.content, controller.signal).then(
      () => {
        slot.acceptedHash = hash;
        slot.failed = undefined;
        this.finish(id, slot, job, { kind: 'accepted', durationMs: this.now() - started });
      },
      (error: unknown) => {
        // What the server holds is unknown now (a time-out may have landed), so nothing counts as accepted.
        slot.acceptedHash = undefined;
        slot.failed = job.content;
        this.finish(id, slot, job, { kind: 'failed', error, durationMs: this.now() - started });
      },
    );
  }

  private finish(id: string, slot: Slot, job: Waiting, outcome: PushOutcome): void {
    slot.inflight = undefined;
    const next = this.disposed ? undefined : slot.pending;
    slot.pending = undefined;
    this.settle(id, job, outcome, next !== undefined);
    if (next) this.start(id, slot, next);
  }

  private settle(id: string, job: Waiting, outcome: PushOutcome, more: boolean): void {
    for (const resolve of job.waiters) resolve(outcome);
    for (const l of this.listeners) l.onSettle?.(id, outcome, more);
  }
}

function sha256(content: string): string {
  return sha256Hex(content);
}
