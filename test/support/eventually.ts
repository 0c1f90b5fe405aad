/**
 * Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. Shared by every
 * suite; `intervalMs` shorter than the default for a unit test whose server answers in milliseconds.
 */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
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
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** eventually for a condition: waits until `check` holds. */
export async function until(check: () => boolean, what: string, timeoutMs?: number, intervalMs?: number): Promise<void> {
  await eventually(() => (check() ? true : undefined), what, timeoutMs, intervalMs);
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
