'use strict';
/**
 * The local harness (dist/run-local.js), in two modes:
 *
 * - `run-local <request.json> <outcome.json>`: the program of the `node` launch configuration that
 *   VS Code's JavaScript debugger starts for Debug (src/extension/debug). It reads one request, runs
 *   main through localRun.ts, prints each log entry to stdout or stderr (the Debug Console shows
 *   them) and writes the outcome to the second file, then exits.
 * - `run-local --serve`: the Testing view's Local runs (src/extension/testing). It reads requests as
 *   JSON lines on stdin (`{"id", "request"}`), runs them one after the other, each in a fresh context,
 *   and answers with JSON lines on stdout: `{"id", "log"}` per log entry, then `{"id", "outcome"}`.
 *   main's console goes through the realm's bridge, never to stdout, so nothing else is written there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type LocalOutcome, type LocalRunRequest, runLocally } from './localRun';
import { type Run } from '../child/run';

let current: Run | undefined;
// A promise of main's context that nobody handled fails the run, as in the sandbox's runner.
process.on('unhandledRejection', (reason) => current?.rejected(reason));

if (process.argv[2] === '--serve') serve();
else runOnce();

function runOnce(): void {
  const [requestFile, outcomeFile] = process.argv.slice(2);
  if (!requestFile || !outcomeFile) {
    process.stderr.write('usage: run-local <request.json> <outcome.json> | run-local --serve\n');
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

function serve(): void {
  const queue: { id: unknown; request: LocalRunRequest }[] = [];
  let busy = false;
  let drained = Promise.resolve();
  const send = (message: unknown) => process.stdout.write(JSON.stringify(message) + '\n');
  const next = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { id, request } = job;
      const outcome = await runLocally(
        request,
        (log) => send({ id, log }),
        (run) => (current = run),
      );
      current = undefined;
      send({ id, outcome });
    }
    busy = false;
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    try {
      const job = JSON.parse(line) as { id: unknown; request: LocalRunRequest };
      queue.push(job);
    } catch {
      return;
    }
    if (!busy) drained = next();
  });
  // The extension closes stdin when it has no more runs to give: the process ends once they are done.
  process.stdin.on('end', () => void drained.then(() => process.exit(0)));
}
