/**
 * What the command line's thread and its check thread (checkWorker.ts, dist/check-worker.js) say to
 * each other. Both ends are this package's own code; the texts are the workspace's, checked there
 * exactly as here.
 */
import { type CodeProblem } from '../core/deploy/checks';
import { type ActionMetadata } from '../core/schema/metadata';
import { type CacheState } from './codeCache';

/** The first message to the thread: only then does it load the compiler (codeCache.ts decides where from). */
export interface LoadRequest {
  readonly kind: 'load';
  /** The analysis bundle (the TypeScript compiler), loaded through its code cache. */
  readonly bundle: string;
  /** The variables the code cache reads (its folder, the user's cache folders): `cacheEnvironment`, never keys. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Folders that must never hold the cache (codeCache.ts). */
  readonly workspace: readonly string[];
  /** How many actions the first program checks; each next one checks three times as many. */
  readonly firstChunk: number;
}

export interface CheckItem {
  readonly id: number;
  readonly text: string;
  readonly metadata: ActionMetadata | undefined;
}

export type ToCheckThread = LoadRequest | { readonly kind: 'check'; readonly items: readonly CheckItem[] } | { readonly kind: 'finish' };

export type FromCheckThread =
  | { readonly kind: 'loaded'; readonly state: CacheState; readonly file: string | undefined }
  | { readonly kind: 'warn'; readonly message: string }
  | { readonly kind: 'checked'; readonly results: readonly { readonly id: number; readonly problems: readonly CodeProblem[] }[] }
  /** The compiler did not load, or a check threw: the command checks in its own thread instead. */
  | { readonly kind: 'failed'; readonly message: string }
  /** The compiler's code cache was written (the thread used none), after the checks asked for so far. */
  | { readonly kind: 'saved'; readonly file: string | undefined }
  | { readonly kind: 'finished' };
