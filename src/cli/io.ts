import { spawn } from 'node:child_process';
import { fstatSync } from 'node:fs';
import { type Interrupts } from './interrupt';

/**
 * What a command may touch of the process it runs in, passed in so a test can run the whole program
 * in memory as well as a process: nothing of the program reads `process.env`, `process.cwd()`,
 * `process.stdin` or the process's signals, nor sets `process.exitCode` (programMain.ts does, from the
 * result). The HTTP transport is the run's own too (program.ts).
 */
export interface CliIo {
  readonly stdout: Stream;
  readonly stderr: Stream;
  readonly stdinIsTTY: boolean;
  /** One line a person types on stdin (without its end), or undefined when stdin ends first. */
  readonly readLine?: () => Promise<string | undefined>;
  /**
   * Settles when the reader of stdout goes (`events --follow | head -1`), even when nothing is written
   * meanwhile; never settles where that cannot be known.
   */
  readonly stdoutGone?: () => Promise<void>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Ctrl+C and SIGTERM of this run (interrupt.ts). */
  readonly interrupts: Interrupts;
  /** The folder of the bundles the program loads or starts beside itself (analysis.js, sandbox.js). */
  readonly bundles: string;
  /**
   * Called once a command has done its work (not after --help, --version or a usage error): the
   * launcher writes the program's own code cache then, when it found none (main.ts).
   */
  readonly afterCommand?: () => void;
}

export interface Stream {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Columns of the terminal, when it is one. */
  readonly columns?: number;
}

/** The process's own: its streams, environment, folder and stdin; `interrupts` connected to its signals by programMain.ts. */
export function processIo(interrupts: Interrupts, afterCommand?: () => void): CliIo {
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
    readLine,
    stdoutGone,
    env: process.env,
    cwd: process.cwd(),
    interrupts,
    // dist/: this file is bundled into dist/cli-program.js.
    bundles: __dirname,
    afterCommand,
  };
}

let gone: Promise<void> | undefined;

/**
 * When the reader of stdout goes. A write to a pipe nobody reads fails (EPIPE), but a command that
 * only waits (a follow with no new event) writes nothing, and the kernel tells a writer only on a
 * write or a poll, which Node does not offer on a stream. So where stdout is a pipe, `tail -f
 * /dev/null` with this stdout watches it: GNU tail (coreutils 8.28 and later) polls its output and
 * ends when the pipe has no reader. Without such a tail, the next write tells.
 */
function stdoutGone(): Promise<void> {
  return (gone ??= new Promise<void>((resolve) => {
    process.stdout.once('error', () => resolve());
    let pipe = false;
    try {
      pipe = fstatSync(1).isFIFO();
    } catch {
      return;
    }
    if (!pipe) return;
    const watcher = spawn('tail', ['-f', '/dev/null'], { stdio: ['ignore', 1, 'ignore'] });
    watcher.on('error', () => undefined);
    watcher.on('exit', () => resolve());
    watcher.unref();
    // Its copy of stdout must not outlive the command: a reader waiting for the end would wait for it.
    process.on('exit', () => watcher.kill());
  }));
}

/** A line from stdin; stdin is let go after it, so it keeps no command alive. */
function readLine(): Promise<string | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const stdin = process.stdin;
    const done = (line: string | undefined) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.pause();
      resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const end = text.indexOf('\n');
      if (end >= 0) done(text.slice(0, end).replace(/\r$/, ''));
    };
    const onEnd = () => done(text === '' ? undefined : text);
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}
