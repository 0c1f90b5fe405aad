/**
 * Ctrl+C: a command that has work to wind down (a follow of events, test processes to end) claims
 * it with `on` and finishes cleanly; with nobody claiming it the run ends at once with exit code 130
 * (`end`: the process exits), as before. A second Ctrl+C always ends it at once.
 *
 * One per run, handed to the program in its io (io.ts), so runs in one process (the in-process tests)
 * never see each other's Ctrl+C; main.ts connects the process's SIGINT and SIGTERM to its run's.
 */
export class Interrupts {
  private readonly handlers = new Set<() => void>();
  private interrupted = false;

  constructor(private readonly end: () => void) {}

  interrupt(): void {
    if (this.interrupted || this.handlers.size === 0) return this.end();
    this.interrupted = true;
    for (const handler of [...this.handlers]) handler();
  }

  /** Calls `handler` on the first Ctrl+C instead of ending the run; the returned function stops that. */
  on(handler: () => void): () => void {
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }
}
