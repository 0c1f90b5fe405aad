import { EXIT } from './exitCodes';

/**
 * Ctrl+C: a command that has work to wind down (a follow of events, test processes to end) claims
 * it with `onInterrupt` and finishes cleanly; with nobody claiming it the process ends at once with
 * exit code 130, as before. A second Ctrl+C always ends it at once.
 */
const handlers = new Set<() => void>();
let interrupted = false;

export function interrupt(): void {
  if (interrupted || handlers.size === 0) process.exit(EXIT.interrupted);
  interrupted = true;
  for (const handler of [...handlers]) handler();
}

/** Calls `handler` on the first Ctrl+C instead of ending the process; the returned function stops that. */
export function onInterrupt(handler: () => void): () => void {
  handlers.add(handler);
  return () => void handlers.delete(handler);
}

/** Whether Ctrl+C was pressed while a command had claimed it. */
export function wasInterrupted(): boolean {
  return interrupted;
}
