/**
 * The command line's program as a process runs it (dist/cli-program.js, which the launcher,
 * dist/cli.js, loads through its code cache). All the work is in program.ts; this only connects it to
 * the process: its signals, its streams, its exit code.
 */
import { type ExitCode, EXIT } from './exitCodes';
import { Interrupts } from './interrupt';
import { processIo } from './io';
import { runCommandLine } from './program';

/** Runs `custom-actions` with `argv`; `afterCommand` is called once a command has done its work. */
export function main(argv: readonly string[], afterCommand?: () => void): Promise<ExitCode> {
  const interrupts = new Interrupts(() => process.exit(EXIT.interrupted));
  process.on('SIGINT', () => interrupts.interrupt());
  // A CI system cancels a job with SIGTERM: the same clean stop as Ctrl+C.
  process.on('SIGTERM', () => interrupts.interrupt());
  return runCommandLine(argv, processIo(interrupts, afterCommand));
}
