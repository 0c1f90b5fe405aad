import { changePayload } from '../store/store';

/**
 * Wakes long polls, per action and environment, without polling the database. A process wakes its
 * own at once; on a PostgreSQL server, the others hear of it through the store's NOTIFY and the
 * sandbox's listener (store/postgres.ts), which calls `notify` or `notifyPrefix` here.
 */
export class Changes {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Resolves when `notify` is called for the key, after `ms`, or when the signal aborts; never rejects. */
  wait(key: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(key) ?? new Set();
      this.waiters.set(key, set);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      set.add(done);
      if (signal.aborted) done();
    });
  }

  notify(key: string): void {
    for (const wake of [...(this.waiters.get(key) ?? [])]) wake();
  }

  /** Wakes every key that starts with `prefix` (all environments of a deleted action). */
  notifyPrefix(prefix: string): void {
    for (const key of [...this.waiters.keys()]) if (key.startsWith(prefix)) this.notify(key);
  }

  notifyAll(): void {
    for (const key of [...this.waiters.keys()]) this.notify(key);
  }
}

/** The same text as the store's NOTIFY payload, so a payload heard from another process is a key here. */
export const changeKey = changePayload;
