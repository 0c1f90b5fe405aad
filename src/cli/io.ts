/**
 * What a command may touch of the process it runs in, passed in so a test can run the whole program
 * in memory as well as a process.
 */
export interface CliIo {
  readonly stdout: Stream;
  readonly stderr: Stream;
  readonly stdinIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export interface Stream {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Columns of the terminal, when it is one. */
  readonly columns?: number;
}

export function processIo(): CliIo {
  const stream = (s: NodeJS.WriteStream): Stream => ({
    write: (text) => void s.write(text),
    get isTTY() {
      return s.isTTY === true;
    },
    get columns() {
      return s.columns;
    },
  });
  return { stdout: stream(process.stdout), stderr: stream(process.stderr), stdinIsTTY: process.stdin.isTTY === true, env: process.env, cwd: process.cwd() };
}
