import { type SandboxLimits } from '../limits';
import { type ActionRunner } from '../runner/types';
import { type Store } from '../store/store';
import { type Changes } from './changes';
import { type RateLimit } from './rateLimit';

/** What every handler of the sandbox's HTTP interface is handed (its own file, so a handler names it without importing the server that routes to it). */
export interface ServerContext {
  store: Store;
  runner: ActionRunner;
  limits: SandboxLimits;
  changes: Changes;
  log: (message: string) => void;
  /** Absent: no rate limit (the local sandbox of one developer). */
  rateLimiter?: RateLimit;
  /** Set by the sandbox's close; requests in flight are tracked so a stop lets them finish. */
  lifecycle?: Lifecycle;
  /** The origins a browser may call from (cors.ts); absent or empty: no CORS header at all. */
  corsOrigins?: readonly string[];
}

export interface Lifecycle {
  /** Once set: the health endpoint says so (a load balancer stops sending), long polls answer at once, connections close after their answer. */
  stopping: boolean;
  /** The requests being handled, each settled when its handler is done (its writes included). */
  readonly inflight: Set<Promise<void>>;
}
