'use strict';
/**
 * The local debug harness (dist/run-local.js): the program of the `node` launch configuration that
 * VS Code's JavaScript debugger starts for Debug (src/extension/debug). It reads one request (a JSON
 * file named by its first argument), runs main through localRun.ts, prints each log entry to stdout
 * or stderr (the Debug Console shows them) and writes the outcome to the file named by the second
 * argument, then exits.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type LocalOutcome, type LocalRunRequest, runLocally } from '../local/localRun';
import { type Run } from './run';

const [requestFile, outcomeFile] = process.argv.slice(2);
if (!requestFile || !outcomeFile) {
  process.stderr.write('usage: run-local <request.json> <outcome.json>\n');
  process.exit(2);
}
const request = JSON.parse(readFileSync(requestFile, 'utf8')) as LocalRunRequest;
let current: Run | undefined;
// A promise of main's context that nobody handled fails the run, as in the sandbox's runner.
process.on('unhandledRejection', (reason) => current?.rejected(reason));

void runLocally(
  request,
  (entry) => (entry.level === 'warn' || entry.level === 'error' ? process.stderr : process.stdout).write(`${entry.message}\n`),
  (run) => (current = run),
).then((outcome: LocalOutcome) => {
  writeFileSync(outcomeFile, JSON.stringify(outcome));
  if (outcome.ok) process.stdout.write(`main returned ${JSON.stringify(outcome.result)}\n`);
  else process.stderr.write(`${outcome.error.stack || `${outcome.error.name}: ${outcome.error.message}`}\n`);
  // Ends once the writes are out; nothing of main's is left (its timers end with the run).
  setTimeout(() => process.exit(0), 2_000).unref();
});
