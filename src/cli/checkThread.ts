/**
 * A deploy's code checks on a thread of their own. Loading the compiler and checking the first
 * actions take a few tenths of a second of CPU; in the command's own thread they would wait for the
 * workspace to be read and hold up every write, and each later program's check would stall the
 * connections. On a thread of their own they run beside both.
 *
 * The thread decides with the same function as this one (`codeProblemsOfMany`), so the verdicts are
 * the same; when the thread cannot start, its compiler does not load or a check throws, the actions
 * not yet answered are checked here instead, as without it (and fail as they would fail here).
 */
import { Worker } from 'node:worker_threads';
import { type FileProblem } from '../core/deploy/outcome';
import { type WorkspaceAction } from '../core/deploy/pipeline';
import { type ActionMetadata } from '../core/schema/metadata';
import { type FromCheckThread, type LoadRequest, type ToCheckThread } from './checkProtocol';
import { takeEarlyThread } from './earlyThread';

type Checkable = WorkspaceAction & { readonly metadata: ActionMetadata };

interface Pending {
  readonly action: WorkspaceAction;
  readonly resolve: (problems: readonly FileProblem[]) => void;
  readonly reject: (error: unknown) => void;
}

export interface CheckThreadHooks {
  /** Checks in this thread: the fallback, and the only way on a machine of one core. */
  readonly inThread: (action: Checkable) => readonly FileProblem[];
  readonly warn: (message: string) => void;
  readonly debug?: (message: string) => void;
}

export class CheckThread {
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 0;
  /** Each posted action's answer, by its code file, with the texts it was posted with. */
  private readonly posted = new Map<
    string,
    { readonly code: string; readonly metadata: ActionMetadata | undefined; readonly answer: Promise<readonly FileProblem[]> }
  >();
  private readonly pending = new Map<number, Pending>();
  private needsSave = false;
  private finished: (() => void) | undefined;

  constructor(
    private readonly data: Omit<LoadRequest, 'kind'> & { readonly script: string },
    private readonly hooks: CheckThreadHooks,
  ) {}

  /** Starts the thread (the compiler starts loading there); nothing when it runs already. */
  start(): void {
    if (this.worker || this.broken) return;
    try {
      const { script, ...load } = this.data;
      const worker = takeEarlyThread() ?? new Worker(script);
      worker.on('message', (message: FromCheckThread) => this.onMessage(message));
      worker.on('error', (error) => this.breakDown(error.message));
      worker.on('exit', () => {
        this.finished?.();
        if (this.pending.size > 0) this.breakDown('the check thread stopped');
      });
      // Only an unanswered check may keep the process alive (post).
      worker.unref();
      this.worker = worker;
      this.send({ kind: 'load', ...load });
    } catch (error) {
      this.breakDown(error instanceof Error ? error.message : String(error));
    }
  }

  /** Actions to check in this order, as early as they are known; problemsOf answers from these. */
  post(actions: readonly WorkspaceAction[]): void {
    this.start();
    const items = [];
    for (const action of actions) {
      // Only code with metadata is checked before a write; without, the deploy refuses the metadata.
      if (action.code === undefined || action.metadata === undefined || this.posted.has(action.codeFile)) continue;
      const id = this.nextId++;
      const answer = new Promise<readonly FileProblem[]>((resolve, reject) => this.pending.set(id, { action, resolve, reject }));
      // A deploy that stops early never asks for some answers; their failure is no one's to report.
      answer.catch(() => undefined);
      this.posted.set(action.codeFile, { code: action.code, metadata: action.metadata, answer });
      items.push({ id, text: action.code, metadata: action.metadata });
    }
    if (items.length === 0) return;
    if (this.broken) return this.checkHere();
    this.worker?.ref();
    this.send({ kind: 'check', items });
  }

  /** A deploy's `checkCode`: the answer to what was posted, or the action posted now. */
  readonly problemsOf = (action: Checkable): Promise<readonly FileProblem[]> => {
    const known = this.posted.get(action.codeFile);
    if (known && known.code === action.code && known.metadata === action.metadata) return known.answer;
    if (known) return Promise.resolve().then(() => this.hooks.inThread(action));
    this.post([action]);
    return this.posted.get(action.codeFile)!.answer;
  };

  /**
   * After the command's work: the thread stops, once it is done writing the compiler's cache when it
   * loaded without one (it writes it as soon as its checks are done).
   */
  async finish(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    if (!this.needsSave || this.broken) {
      await worker.terminate();
      return;
    }
    worker.ref();
    const done = new Promise<void>((resolve) => (this.finished = resolve));
    worker.postMessage({ kind: 'finish' } satisfies ToCheckThread);
    await done;
  }

  private onMessage(message: FromCheckThread): void {
    switch (message.kind) {
      case 'loaded':
        this.needsSave = message.state === 'absent' || message.state === 'rejected';
        this.hooks.debug?.(`compiler code cache ${message.state}${message.file ? ` (${message.file})` : ''}, in the check thread`);
        return;
      case 'warn':
        return this.hooks.warn(message.message);
      case 'checked':
        for (const { id, problems } of message.results) {
          const pending = this.pending.get(id);
          if (!pending) continue;
          this.pending.delete(id);
          pending.resolve(problems.map((p) => ({ file: pending.action.codeFile, range: p.range, message: p.message, code: p.code })));
        }
        if (this.pending.size === 0) this.worker?.unref();
        return;
      case 'failed':
        return this.breakDown(message.message);
      case 'saved':
        this.hooks.debug?.(`compiler code cache written (${message.file}), in the check thread`);
        return;
      case 'finished':
        return;
    }
  }

  private breakDown(why: string): void {
    if (this.broken) return;
    this.broken = true;
    this.hooks.debug?.(`check thread: ${why}; checking in the command's thread`);
    void this.worker?.terminate();
    this.checkHere();
  }

  /** What the thread left unanswered, checked here. */
  private checkHere(): void {
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const { action, resolve, reject } of left) {
      try {
        resolve(this.hooks.inThread(action as Checkable));
      } catch (error) {
        reject(error);
      }
    }
  }

  private send(message: ToCheckThread): void {
    this.worker?.postMessage(message);
  }
}
