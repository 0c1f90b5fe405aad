import { availableParallelism } from 'node:os';

/** Whether a thread of its own can run beside the command's: on one core it would only take turns with it. */
export function threadsWorthIt(): boolean {
  return availableParallelism() > 1;
}
