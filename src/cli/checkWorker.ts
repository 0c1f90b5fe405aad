/**
 * The entry of dist/check-worker.js: a deploy's code checks on a thread of their own (checkThread.ts).
 * The thread may start before the command knows it needs it (earlyThread.ts), so it loads the
 * compiler only on its first message, which says from where. Actions are then checked in programs of
 * growing size, each program's verdicts sent as soon as it is done: the first writes leave after a
 * few checks, and the rest are checked while those are on the wire.
 */
import { parentPort } from 'node:worker_threads';
import type * as Analysis from '../core/analysis';
import { codeProblemsOfMany } from '../core/deploy/checks';
import { type CheckItem, type FromCheckThread, type LoadRequest, type ToCheckThread } from './checkProtocol';
import { type CachedLoad, loadCached } from './codeCache';

const port = parentPort!;
const post = (message: FromCheckThread) => port.postMessage(message);

let load: CachedLoad<typeof Analysis> | undefined;
let failed = false;
const queue: CheckItem[] = [];
let chunk = 1;

port.on('message', (message: ToCheckThread) => {
  switch (message.kind) {
    case 'load':
      return start(message);
    case 'check':
      queue.push(...message.items);
      return drain();
    case 'finish':
      // The cache is written by now when the thread checked anything (drain); one made without a
      // check would hold only the compiler's top level, so none is.
      post({ kind: 'finished' });
      return port.close();
  }
});

function start(request: LoadRequest): void {
  if (load || failed) return;
  chunk = Math.max(1, request.firstChunk);
  try {
    load = loadCached<typeof Analysis>(request.bundle, { env: request.env, workspace: request.workspace, warn: (message) => post({ kind: 'warn', message }) });
    post({ kind: 'loaded', state: load.state, file: load.file });
  } catch (error) {
    fail(error);
  }
  drain();
}

function drain(): void {
  const checking = queue.length > 0;
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
  // The cache is written once the checks asked for so far are done, so it holds what they compiled
  // (codeCache.ts), while the command's thread is still sending: not after, when the command would
  // wait for it. A later check only compiles a little more, left out of the cache.
  if (checking && !failed && load && load.save()) post({ kind: 'saved', file: load.file });
}

function fail(error: unknown): void {
  failed = true;
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
