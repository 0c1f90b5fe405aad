import { type LogEntry } from '../../core/schema';

/** Messages between the sandbox and its runner worker. Only plain data crosses. */
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
}

export type WorkerMessage =
  | { type: 'log'; runId: number; entry: LogEntry }
  | { type: 'done'; runId: number; ok: true; resultJson: string; logsDropped: number }
  | { type: 'done'; runId: number; ok: false; error: { name: string; message: string; stack?: string; code?: string }; logsDropped: number };
