/**
 * Per id at most one request in flight; whatever arrives meanwhile collapses into one follow-up
 * carrying the latest content, so saving fifty times while a request is slow costs two requests and
 * the last save always wins. The queue decides nothing and remembers nothing of the server: its sender
 * returns what came of each request (./pushPart.ts decides, against the base, whether anything is
 * sent at all), and the queue hands that back to every save the request carried.
 */

/** What one request came to, as its sender said, and how long it took. */
export interface Settled<R> {
  readonly result: R;
  readonly durationMs: number;
}

export interface PushQueueOptions<R> {
  /** Sends one content for one id: what came of it. A rejection becomes `failed(error)`. */
  send(id: string, content: string, signal: AbortSignal, request: PushRequest): Promise<R>;
  /** What a request that threw, or a save the closed queue never sent, comes to. */
  failed(error: unknown): R;
  now?(): number;
}

export interface PushListener<R> {
  /** A request for `id` is about to be sent. */
  onStart?(id: string): void;
  /** A request for `id` settled; `more` says a follow-up with newer content goes out next. */
  onSettle?(id: string, settled: Settled<R>, more: boolean): void;
}

export interface PushRequest {
  /** A push by hand: the sender sends even what the server holds already. Kept when a plain save overtakes it. */
  readonly force?: boolean;
}

interface Waiting<R> {
  content: string;
  force: boolean;
  waiters: ((settled: Settled<R>) => void)[];
}

interface Slot<R> {
  inflight: AbortController | undefined;
  /** Content saved while a request was in flight; only the latest is kept. */
  pending: Waiting<R> | undefined;
}

export class PushQueue<R> {
  private readonly slots = new Map<string, Slot<R>>();
  private readonly now: () => number;
  private readonly listeners = new Set<PushListener<R>>();
  private disposed = false;

  constructor(private readonly options: PushQueueOptions<R>) {
    this.now = options.now ?? Date.now;
  }

  listen(listener: PushListener<R>): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Queues `content` for `id`. The promise settles with what came of the request that carried this
   * content or newer content saved after it; a superseded save shares the follow-up's result.
   */
  push(id: string, content: string, request: PushRequest = {}): Promise<Settled<R>> {
    const slot = this.slot(id);
    return new Promise<Settled<R>>((resolve) => {
      if (this.disposed) return resolve(this.closed());
      if (slot.inflight) {
        const waiters = slot.pending?.waiters ?? [];
        // A forced push stays forced even when a plain save overtakes it before it is sent.
        slot.pending = { content, force: (slot.pending?.force ?? false) || (request.force ?? false), waiters: [...waiters, resolve] };
        return;
      }
      this.start(id, slot, { content, force: request.force ?? false, waiters: [resolve] });
    });
  }

  isBusy(id: string): boolean {
    return this.slots.get(id)?.inflight !== undefined;
  }

  /** Aborts every request in flight; queued saves settle as failed. */
  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots.values()) {
      slot.inflight?.abort();
      const pending = slot.pending;
      slot.pending = undefined;
      for (const resolve of pending?.waiters ?? []) resolve(this.closed());
    }
  }

  private closed(): Settled<R> {
    return { result: this.options.failed(new Error('The push queue is closed.')), durationMs: 0 };
  }

  private slot(id: string): Slot<R> {
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { inflight: undefined, pending: undefined };
      this.slots.set(id, slot);
    }
    return slot;
  }

  private start(id: string, slot: Slot<R>, job: Waiting<R>): void {
    const controller = new AbortController();
    slot.inflight = controller;
    for (const l of this.listeners) l.onStart?.(id);
    const started = this.now();
    void this.options.send(id, job.content, controller.signal, { force: job.force }).then(
      (result) => this.finish(id, slot, job, { result, durationMs: this.now() - started }),
      (error: unknown) => this.finish(id, slot, job, { result: this.options.failed(error), durationMs: this.now() - started }),
    );
  }

  private finish(id: string, slot: Slot<R>, job: Waiting<R>, settled: Settled<R>): void {
    slot.inflight = undefined;
    const next = this.disposed ? undefined : slot.pending;
    slot.pending = undefined;
    for (const resolve of job.waiters) resolve(settled);
    for (const l of this.listeners) l.onSettle?.(id, settled, next !== undefined);
    if (next) this.start(id, slot, next);
  }
}
