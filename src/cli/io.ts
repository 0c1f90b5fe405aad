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
  /** Asks a person at the terminal and reads the line they answer; absent where no one can answer. */
  readonly ask?: (question: string) => Promise<string>;
}

export interface Stream {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Columns of the terminal, when it is one. */
  readonly columns?: number;
}

export function processIo(): CliIo {
  const stream = (s: NodeJS.WriteStream): Stream => {
    // A reader that stops early (`custom-actions deploy | head`) closes the pipe: what is left to print
    // is dropped, and the command still finishes its work (a deploy still records its lock) instead of
    // dying of the write error.
    let closed = false;
    s.on('error', () => (closed = true));
    return {
      write: (text) => void (closed || s.write(text)),
      get isTTY() {
        return s.isTTY === true;
      },
      get columns() {
        return s.columns;
      },
    };
  };
  return {
    stdout: stream(process.stdout),
    stderr: stream(process.stderr),
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    ask: async (question) => {
      // Loaded only when a question is asked: a command that asks nothing never reads stdin.
      const readline = await import('node:readline/promises');
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
