import { type LogEntry } from '../../core/schema';

/** What one run of `main` produced; the run route turns it into an event. */
export interface RunOutcome {
  ok: boolean;
  /** ms since the epoch, and elapsed ms. */
  startTime: number;
  duration: number;
  logs: LogEntry[];
  result?: unknown;
  error?: { name: string; message: string; stack?: string; code?: string };
}

export interface ActionRunner {
  /** Runs `main` of `code`; `application` is whose code it is: runs of different applications never share a process. */
  run(code: string, inputs: unknown[], application: string): Promise<RunOutcome>;
  close(): Promise<void>;
}
