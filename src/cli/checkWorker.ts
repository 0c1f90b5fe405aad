/**
 * The entry of dist/check-worker.js: a deploy's code checks on a thread of their own (checkThread.ts).
 * The compiler starts loading as the thread starts, while the command's own thread reads the
 * workspace; actions are then checked in programs of growing size, each program's verdicts sent as
 * soon as it is done, so the first writes leave after a few checks and the rest are checked while
 * those are on the wire.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type * as Analysis from '../core/analysis';
import { codeProblemsOfMany } from '../core/deploy/checks';
import { type CheckItem, type CheckWorkerData, type FromCheckThread, type ToCheckThread } from './checkProtocol';
import { type CachedLoad, loadCached } from './codeCache';

const port = parentPort!;
const data = workerData as CheckWorkerData;
const post = (message: FromCheckThread) => port.postMessage(message);

let load: CachedLoad<typeof Analysis> | undefined;
let failed = false;
try {
  load = loadCached<typeof Analysis>(data.bundle, { env: data.env, workspace: data.workspace, warn: (message) => post({ kind: 'warn', message }) });
  post({ kind: 'loaded', state: load.state, file: load.file });
} catch (error) {
  fail(error);
}

const queue: CheckItem[] = [];
let chunk = Math.max(1, data.firstChunk);
port.on('message', (message: ToCheckThread) => {
  if (message.kind === 'check') {
    queue.push(...message.items);
    drain();
  } else {
    // After the checks, so the cache holds what they compiled, as codeCache.ts's save asks.
    post({ kind: 'finished', saved: !failed && load !== undefined && load.save() });
    port.close();
  }
});

function drain(): void {
  while (!failed && load && queue.length > 0) {
    const batch = queue.splice(0, chunk);
    chunk *= 3;
    try {
      const problems = codeProblemsOfMany(
        load.exports,
        batch.map((item) => ({ text: item.text, metadata: item.metadata })),
      );
      post({ kind: 'checked', results: batch.map((item, i) => ({ id: item.id, problems: problems[i]! })) });
    } catch (error) {
      fail(error);
    }
  }
}

function fail(error: unknown): void {
  failed = true;
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
