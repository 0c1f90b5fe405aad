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
  run(code: string, inputs: unknown[]): Promise<RunOutcome>;
  close(): Promise<void>;
}
