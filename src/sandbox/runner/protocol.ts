import { type LogEntry } from '../../core/schema';

/**
 * Lines of JSON between the sandbox and a runner process: runs on its stdin, what they did on its
 * stdout. Only plain data crosses.
 */
export interface RunMessage {
  type: 'run';
  runId: number;
  /** The compiled module, wrapped by wrapModule. */
  js: string;
  inputsJson: string;
  filename: string;
  maxLogEntries: number;
  maxLogChars: number;
  maxResultBytes: number;
  /**
   * The run's time limit: the runner ends the run then itself; the sandbox kills the process a little
   * later if it has not. Infinity (a local debugged run, never sent as JSON) for none.
   */
  timeoutMs: number;
}

export type RunError = { name: string; message: string; stack?: string; code?: string };

export type RunnerMessage =
  /** Sent once, when the process can take runs; `confined` when the permission model is in force. */
  | { type: 'ready'; confined: boolean }
  | { type: 'log'; runId: number; entry: LogEntry }
  | { type: 'done'; runId: number; ok: true; resultJson: string; logsDropped: number }
  | { type: 'done'; runId: number; ok: false; error: RunError; logsDropped: number };
