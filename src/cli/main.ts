/**
 * `custom-actions`: the entry of dist/cli.js, the package's `bin`. All the work is in program.ts;
 * this only connects it to the process: its signals, its streams, its exit code.
 */
import { EXIT } from './exitCodes';
import { Interrupts } from './interrupt';
import { processIo } from './io';
import { runCommandLine } from './program';

const interrupts = new Interrupts(() => process.exit(EXIT.interrupted));
process.on('SIGINT', () => interrupts.interrupt());
// A CI system cancels a job with SIGTERM: the same clean stop as Ctrl+C.
process.on('SIGTERM', () => interrupts.interrupt());
void runCommandLine(process.argv.slice(2), processIo(interrupts)).then((code) => {
  process.exitCode = code;
});
