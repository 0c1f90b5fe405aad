/**
 * The sandbox's limits: what the spec leaves "not shown" (§8), decided once. docs/api.md lists them;
 * tests shrink some through `startSandbox({ limits })` to reach them quickly.
 */
export interface SandboxLimits {
  /** Largest JSON request body, in bytes. */
  readonly jsonBodyBytes: number;
  /** Largest implementation (TypeScript source), in bytes. */
  readonly codeBytes: number;
  /** Events kept per action and environment; the oldest go first. */
  readonly eventsPerEnvironment: number;
  /** Actions per application. */
  readonly actionsPerApplication: number;
  /** Events list page size when `limit` is absent, and its maximum. */
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  /** Longest long poll (`wait`), in seconds. */
  readonly maxWaitSeconds: number;
  /** Wall-clock limit of one run, in ms: the worker is terminated when it is reached. */
  readonly runTimeoutMs: number;
  /** Heap limit of the worker that runs actions, in MB. */
  readonly runMemoryMb: number;
  /** Log entries kept per run, and the longest message (characters). */
  readonly logEntriesPerRun: number;
  readonly logMessageChars: number;
  /** Largest JSON of a run's result, in bytes. */
  readonly resultBytes: number;
  /** Runs at once; more wait in line. */
  readonly concurrentRuns: number;
  /** Requests a minute per key, or per client address without a known key; 0: no limit. */
  readonly requestsPerMinute: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  jsonBodyBytes: 256 * 1024,
  codeBytes: 512 * 1024,
  eventsPerEnvironment: 100_000,
  actionsPerApplication: 10_000,
  defaultPageSize: 50,
  maxPageSize: 500,
  maxWaitSeconds: 30,
  runTimeoutMs: 5_000,
  runMemoryMb: 64,
  logEntriesPerRun: 1_000,
  logMessageChars: 8_192,
  resultBytes: 256 * 1024,
  concurrentRuns: 4,
  requestsPerMinute: 0,
};
