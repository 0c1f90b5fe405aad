/**
 * Wakes long polls: the events list of an environment changes only through this process, so a
 * notification per action and environment is enough (no polling of the database).
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

export const changeKey = (actionId: string, environmentId: string) => `${actionId}\n${environmentId}`;
