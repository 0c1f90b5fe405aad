/**
 * The check thread of a deploy, started while the rest of the command line loads. A thread takes a
 * few tens of milliseconds to start, and the compiler it loads is what a changed deploy waits for
 * before its first write; started here, the thread is ready when the deploy knows what to check.
 *
 * main.ts imports this module first, so its top level runs before the other modules' (commander,
 * yaml, the core). The thread only waits: it loads nothing until CheckThread sends it where from
 * (the code cache's rules need the project's folders), and a deploy with nothing to check ends it.
 * A guess from the arguments is enough: a wrong one costs a thread that starts and is ended.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { threadsWorthIt } from './threadsWorthIt';

let early: Worker | undefined;
/** The thread failed or ended before anyone adopted it: a new one will say why. */
let gone = false;

/** The thread started early, once, if it still runs: the first CheckThread to start adopts it. */
export function takeEarlyThread(): Worker | undefined {
  const worker = gone ? undefined : early;
  early = undefined;
  return worker;
}

/** Ends a thread no one adopted (the command had nothing to check). */
export async function endEarlyThread(): Promise<void> {
  await takeEarlyThread()?.terminate();
}

export const CHECK_WORKER_SCRIPT = path.join(__dirname, 'check-worker.js');

if (process.argv.slice(2).includes('deploy') && threadsWorthIt()) {
  try {
    early = new Worker(CHECK_WORKER_SCRIPT);
    // Until adopted, an error (the script missing) only means the thread is not to be adopted: the
    // CheckThread then starts one of its own, and hears why that one fails.
    early.on('error', () => (gone = true));
    early.on('exit', () => (gone = true));
    early.unref();
  } catch {
    early = undefined;
  }
}
