'use strict';
/**
 * The local harness (dist/run-local.js): the program of the `node` launch configuration that VS
 * Code's JavaScript debugger starts for Debug (src/extension/debug), as
 * `run-local <request.json> <outcome.json>`. It reads one request, runs main through localRun.ts,
 * prints each log entry to stdout or stderr (the Debug Console shows them) and writes the outcome to
 * the second file, then exits. Test runs do not come here: they run in the sandbox's own confined
 * runner processes (harnessPool.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type LocalOutcome, type LocalRunRequest, runLocally } from './localRun';
import { type Run } from '../child/run';

let current: Run | undefined;
// A promise of main's context that nobody handled fails the run, as in the sandbox's runner.
process.on('unhandledRejection', (reason) => current?.rejected(reason));

runOnce();

function runOnce(): void {
  const [requestFile, outcomeFile] = process.argv.slice(2);
  if (!requestFile || !outcomeFile) {
    process.stderr.write('usage: run-local <request.json> <outcome.json>\n');
    process.exit(2);
  }
  const request = JSON.parse(readFileSync(requestFile, 'utf8')) as LocalRunRequest;
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
}
