/**
 * A save in the editor pushed and judged, with no `vscode`: the base a save is checked against, the
 * core's rule for a part (./pushPart.ts, the command line's too), and what came of it as one typed
 * outcome the extension renders (status bar, notification, log, Problems). The extension's push queue
 * (./pushQueue.ts) carries the write; this file decides it and reads its settlement.
 */
import { ApiError, type Capabilities } from '../client';
import { type BaseVersion, codeHash, metadataHash } from './base';
import { type HeldReason, type Part } from './decide';
import { type HeldServer, type PartClient, type PartOutcome, pushPart } from './pushPart';
import { type PushOutcome } from './pushQueue';

/** What came of one push of a save, once the queue settled it. */
export type SaveOutcome =
  /** The server accepted it; `checked`: against the base's version (If-Match, If-None-Match, or a read). */
  | { readonly kind: 'pushed'; readonly checked: boolean; readonly durationMs: number }
  /** The server holds this text already: nothing was sent. */
  | { readonly kind: 'unchanged' }
  /** Not sent: the server holds a version this copy was not derived from, or there is no base and it holds other text. */
  | { readonly kind: 'held'; readonly why: HeldReason; readonly server: HeldServer }
  /** Sent and not accepted, or the action's list could not be read: `error` says why. */
  | { readonly kind: 'failed'; readonly error: unknown; readonly durationMs: number }
  /** Aborted because deploy was closed (the window is going): nothing to tell. */
  | { readonly kind: 'cancelled' };

/** A save's write was held (not an error of the server): the push queue counts it as not accepted. */
export class HeldPush extends Error {
  constructor(
    readonly why: HeldReason,
    readonly server: HeldServer,
    part: Part,
  ) {
    super(
      why === 'no-base'
        ? `The server holds other ${part === 'implementation' ? 'code' : 'metadata'} than this workspace, and no base says it is safe to replace.`
        : `The ${part === 'implementation' ? 'code' : 'metadata'} changed on the server since your last pull or push.`,
    );
  }
}

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

/**
 * One save's write, by the core's rule. The base is the lock's; where the lock has none, the text the
 * save replaced (with no tag, so the server is read, and its version is the base only when it is exactly
 * that text). A held part rejects with `HeldPush`, so the queue counts it as not accepted; held against
 * the replaced text and not a base, it is held as having no base, since no pull or push of it is known.
 */
export async function pushSave(
  client: PartClient,
  save: SavePush,
): Promise<{ readonly outcome: Exclude<PartOutcome, { kind: 'held' }>; readonly base: BaseVersion | undefined }> {
  const { id, part, content, locked, replaced, resend, caps, signal } = save;
  const hash = part === 'implementation' ? codeHash(content) : metadataHash(JSON.parse(content) as object);
  const base = locked ?? (replaced === undefined ? undefined : { etag: undefined, hash: replaced });
  const result = await pushPart(client, { id, part, content, hash, base, force: false, resend, caps, ...(signal ? { signal } : {}) });
  const outcome = result.outcome;
  if (outcome.kind === 'held') throw new HeldPush(locked === undefined && outcome.why === 'changed-on-server' ? 'no-base' : outcome.why, outcome.server, part);
  return { outcome, base: result.base };
}

/**
 * What the queue's settlement of a push came to. `written` is what the write itself decided, when it
 * ran: the queue counts a write that found the server holding the text already as accepted.
 */
export function saveOutcome(settled: PushOutcome, written: PartOutcome | undefined): SaveOutcome {
  switch (settled.kind) {
    case 'unchanged':
      return { kind: 'unchanged' };
    case 'accepted':
      if (written?.kind === 'unchanged') return { kind: 'unchanged' };
      return { kind: 'pushed', checked: written?.kind === 'pushed' && written.checked, durationMs: settled.durationMs };
    case 'failed':
      if (settled.error instanceof ApiError && settled.error.kind === 'cancelled') return { kind: 'cancelled' };
      if (settled.error instanceof HeldPush) return { kind: 'held', why: settled.error.why, server: settled.error.server };
      return { kind: 'failed', error: settled.error, durationMs: settled.durationMs };
  }
}
