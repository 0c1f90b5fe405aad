/**
 * A save in the editor as the plan of one action's part, with no `vscode`: the base it is checked
 * against (the lock's, else the text the save replaced), the core's rule for a part (./pushPart.ts, the
 * command line's deploy too), and what came of it as one `Outcome` (./outcome.ts) the extension
 * renders. The extension's push queue (./pushQueue.ts) carries the write and hands the outcome back.
 */
import { ApiError, type Capabilities } from '../client';
import { type BaseVersion, codeHash, metadataHash } from './base';
import { type Part } from './decide';
import { failedOutcome, type Outcome } from './outcome';
import { type PartClient, pushPart } from './pushPart';

export interface SavePush {
  readonly id: string;
  readonly part: Part;
  /** The code's text, or the metadata as JSON. */
  readonly content: string;
  /** The part's base in the lock, when it has one. */
  readonly locked: BaseVersion | undefined;
  /** The hash of the text the save replaced on disk, when known: the base where the lock has none. */
  readonly replaced: string | undefined;
  /** Pushed by hand: sent even when the server holds the same text (never when it would be held). */
  readonly resend: boolean;
  readonly caps: Capabilities;
  readonly signal?: AbortSignal;
}

export interface SaveResult {
  readonly outcome: Outcome;
  /** The part's base after the push, when it changed: for the lock. */
  readonly base: BaseVersion | undefined;
}

/**
 * One save's write, by the core's rule. The base is the lock's; where the lock has none, the text the
 * save replaced (with no tag, so the server is read, and its version is the base only when it is exactly
 * that text). Held against the replaced text and not a base, it is held as having no base, since no
 * pull or push of it is known. Never throws: a failure of the server is a `failed` outcome, an abort
 * (the window closing) `cancelled`.
 */
export async function pushSave(client: PartClient, save: SavePush): Promise<SaveResult> {
  const { id, part, content, locked, replaced, resend, caps, signal } = save;
  try {
    const hash = part === 'implementation' ? codeHash(content) : metadataHash(JSON.parse(content) as object);
    const base = locked ?? (replaced === undefined ? undefined : { etag: undefined, hash: replaced });
    const result = await pushPart(client, { id, part, content, hash, base, force: false, resend, caps, ...(signal ? { signal } : {}) });
    const outcome = result.outcome;
    if (outcome.kind === 'held' && locked === undefined && outcome.why === 'changed-on-server')
      return { outcome: { ...outcome, why: 'no-base' }, base: undefined };
    return { outcome, base: result.base };
  } catch (error) {
    return { outcome: saveFailure(part, error), base: undefined };
  }
}

/** What a save that threw comes to: cancelled when deploy was closed under it, else failed with its cause. */
export function saveFailure(part: Part, error: unknown): Outcome {
  if (error instanceof ApiError && error.kind === 'cancelled') return { kind: 'cancelled', step: part };
  return failedOutcome(part, error);
}
