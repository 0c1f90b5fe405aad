/**
 * `custom-actions`: dist/cli.js, the package's `bin`. It only loads the program (dist/cli-program.js)
 * through a V8 code cache, as the program loads the compiler (codeCache.ts), and runs it. Compiling
 * the program's 690 KB and the functions a command runs (the YAML parser's, the HTTP client's) cost a
 * deploy about a tenth of its time on every run; with the bytecode a first run left, the first request
 * leaves 40 to 110 ms sooner (docs/benchmarks.md, *The command line's own code cache*). The cache is
 * kept where the compiler's is, by the same rules, out of every folder the command may work in.
 */
import path from 'node:path';
import { loadCached } from './codeCache';
import { launchFolders } from './launchFolders';
import type * as Program from './programMain';

const argv = process.argv.slice(2);
const debug = process.env.CUSTOM_ACTIONS_DEBUG ? (text: string) => process.stderr.write(`custom-actions: ${text}\n`) : undefined;
const program = loadCached<typeof Program>(path.join(__dirname, 'cli-program.js'), { env: process.env, workspace: launchFolders(argv, process.cwd()) });
debug?.(`command line code cache ${program.state}${program.file ? ` (${program.file})` : ''}`);
// Written after a command's work, not at load: the functions the command compiled on the way are then in it.
void program.exports
  .main(argv, () => {
    if (program.save()) debug?.(`command line code cache written (${program.file})`);
  })
  .then((code) => {
    process.exitCode = code;
  });
