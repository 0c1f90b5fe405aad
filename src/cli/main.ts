/**
 * `custom-actions`: the entry of dist/cli.js, the package's `bin`. All the work is in program.ts;
 * this only connects it to the process.
 */
import { processIo } from './io';
import { EXIT } from './exitCodes';
import { interrupt } from './interrupt';
import { guardIo } from './output';
import { runCli } from './program';

process.on('SIGINT', interrupt);
// A CI system cancels a job with SIGTERM: the same clean stop as Ctrl+C.
process.on('SIGTERM', interrupt);
// One guard for the whole run (output.ts): the last resort below writes through it too.
const io = guardIo(processIo());
runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    io.stderr.write(`custom-actions: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
