import type { HarnessPool as NodeHarnessPool } from '../../sandbox/runner/local/harnessPool';
import { NO_PROCESSES } from '../platform';

export const LOCAL_CASE_TIMEOUT_MS = 30_000;

export function harnessParallelism(_cases: number): number {
  return 1;
}

/** No process starts in a browser: the Local profile is not offered there, and a run that comes anyway says why. */
export class HarnessPool implements Pick<NodeHarnessPool, 'run' | 'cancel' | 'close'> {
  constructor(..._args: unknown[]) {
    throw new Error(NO_PROCESSES);
  }

  run(): never {
    throw new Error(NO_PROCESSES);
  }

  cancel(): void {}

  close(): void {}
}
