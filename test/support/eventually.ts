/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. Shared by host and browser tests. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Checks that `check` holds throughout `forMs`, and fails the moment it does not. For an absence (no
 * request after a stop, no repeated line), which has no event to wait for: the window is the longest a
 * wrong behaviour would take to show, and a failure names the moment it showed.
 */
export async function staysTrue(check: () => Promise<boolean> | boolean, what: string, forMs: number): Promise<void> {
  const end = Date.now() + forMs;
  for (;;) {
    if (!(await check())) throw new Error(`No longer true after ${forMs - Math.max(0, end - Date.now())} ms: ${what}`);
    if (Date.now() >= end) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
