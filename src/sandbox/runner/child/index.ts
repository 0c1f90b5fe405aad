'use strict';
/**
 * The runner process: started by the sandbox (runner/pool.ts) with an empty environment and, where
 * Node has it, the permission model granting nothing, it takes runs as JSON lines on stdin, one at a
 * time, and answers on stdout. When the sandbox goes (stdin ends), it goes too.
 *
 * It is bundled whole (dist/sandbox-runner.js) and given to Node as the text to evaluate, so it reads
 * no file: not even its own. Strict mode throughout: a sloppy function of this realm would hand
 * itself and its receiver to Error.prepareStackTrace frames and `caller`.
 */
import { writeSync } from 'node:fs';
import { type RunMessage, type RunnerMessage } from '../protocol';
import { type Run, startRun } from './run';

/**
 * One line to the sandbox, written straight to the pipe: no stream state that an overflow half-way
 * could leave broken (a run logs from whatever depth its code is at), and written before this returns.
 */
function send(message: RunnerMessage): void {
  const line = Buffer.from(`${JSON.stringify(message)}\n`);
  for (let written = 0; written < line.length; ) written += writeSync(1, line, written);
}

let current: Run | undefined;
const waiting: RunMessage[] = [];

function next(): void {
  if (current) return;
  const message = waiting.shift();
  if (!message) return;
  let ended = false;
  // A run may end before startRun returns (code that does not compile).
  const run: Run = startRun(message, send, () => {
    ended = true;
    current = undefined;
    // The next run starts from a clean stack, not from inside the end of this one.
    setImmediate(next);
  });
  if (!ended) current = run;
}

// A promise of a run's context that nobody handled fails that run, as an uncaught error would.
process.on('unhandledRejection', (reason) => current?.rejected(reason));

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let newline: number;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    const message = JSON.parse(line) as RunMessage;
    if (message.type === 'run') waiting.push(message);
  }
  next();
});
process.stdin.on('end', () => process.exit(0));

// One run of nothing before the first real one: the first run in a process costs tens of ms more
// (compiling this code), and a spare process should have paid that while it waited.
startRun(
  {
    type: 'run',
    runId: 0,
    js: '(function (exports) { exports.main = () => 0; })',
    inputsJson: '[]',
    filename: 'warm-up.js',
    maxLogEntries: 0,
    maxLogChars: 0,
    maxResultBytes: 16,
    timeoutMs: 5_000,
  },
  () => undefined,
  () => undefined,
);

const permission = (process as { permission?: { has(scope: string): boolean } }).permission;
send({ type: 'ready', confined: permission !== undefined && !permission.has('fs.read') && !permission.has('child') && !permission.has('worker') });
