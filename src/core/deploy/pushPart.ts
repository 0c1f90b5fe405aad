/**
 * One part (metadata or code) of one action pushed against its base: the one road by which both the
 * command line's pipeline and the editor's save send a part, so a deploy from either side is decided
 * the same way (docs/deploy.md, *The base*).
 *
 *   the server checks versions, a base is known   one conditional write on the base's tag (If-Match, or
 *                                                  If-None-Match: * for an action known to have no code)
 *   otherwise                                      read the server's part, then decide.ts's rule: the same
 *                                                  text is unchanged, the base's version or no code is
 *                                                  replaced (conditionally where the server checks), and
 *                                                  anything else is held: changed on the server, or no base
 *
 * A 412 is a held part, not an error. Any other failure of the server is thrown for the caller to tell.
 */
import { type Capabilities, type CustomActionsClient, VersionConflictError } from '../client';
import { type ActionMetadata } from '../schema/metadata';
import { type BaseVersion, codeHash, metadataHash } from './base';
import { decideRead, type HeldReason, type Part, type ServerPart } from './decide';

/** The client operations one part's push uses. */
export type PartClient = Pick<CustomActionsClient, 'updateAction' | 'putImplementation' | 'getActionVersioned' | 'getImplementationVersioned'>;

export interface PartPush {
  readonly id: string;
  readonly part: Part;
  /** What is sent: the code's text, or the metadata as JSON. */
  readonly content: string;
  /** The content's hash (codeHash or metadataHash), compared with the base's and the server's. */
  readonly hash: string;
  /** The version this copy was derived from, when one is known. */
  readonly base: BaseVersion | undefined;
  /** Replace whatever the server holds, unchecked (`deploy --force`). */
  readonly force: boolean;
  /**
   * Send even when the server holds the same text already (a push by hand in the editor). It never
   * turns a part that would be held into one that is sent.
   */
  readonly resend?: boolean;
  /** Decide and read, write nothing: a part that would be sent is `pushed`. */
  readonly dryRun?: boolean;
  readonly caps: Capabilities;
  readonly signal?: AbortSignal;
}

export type PartOutcome =
  /** Accepted (or, in a dry run, would be sent). `checked`: the server checked the write against a version. */
  | { readonly kind: 'pushed'; readonly step: Part; readonly op: 'update'; readonly checked: boolean }
  /** The server holds this content already: nothing sent. */
  | { readonly kind: 'unchanged'; readonly step: Part }
  /** Not sent: the server holds a version this copy was not derived from. `server` is what it holds, as far as known. */
  | { readonly kind: 'held'; readonly step: Part; readonly why: HeldReason; readonly server: HeldServer };

/** What the server holds of a held part: its tag, and its hash when it was read. */
export interface HeldServer {
  readonly etag?: string;
  readonly hash?: string;
}

export interface PartResult {
  readonly outcome: PartOutcome;
  /** The part's base after this push, when it changed (the version the server now holds, or was found to hold). */
  readonly base: BaseVersion | undefined;
}

export async function pushPart(client: PartClient, push: PartPush): Promise<PartResult> {
  const { part, base, caps, force, dryRun } = push;
  const checks = part === 'metadata' ? caps.conditionalWrites.metadata : caps.conditionalWrites.implementation;
  // Straight to the write when the server itself checks the base: one request, as a bare PUT.
  if (!dryRun && !force && base && checks) {
    if (base.absent && part === 'implementation' && caps.conditionalWrites.firstImplementation) return write(client, push, { ifNoneMatch: '*' }, true);
    if (!base.absent && base.etag) return write(client, push, { ifMatch: base.etag }, true);
  }
  const server = await readPart(client, push);
  if (server === undefined) {
    // This server cannot show its version: with a base, sent unchecked (nothing better can be known); without, held.
    if (!base && !force) return held(part, 'no-base', {});
    return write(client, push, {}, false);
  }
  const decision = decideRead(push.hash, base, server, force);
  if (decision.kind === 'unchanged' && !push.resend) return { outcome: { kind: 'unchanged', step: part }, base: { etag: server.etag, hash: push.hash } };
  if (decision.kind === 'held') return held(part, decision.why, 'hash' in server ? { etag: server.etag, hash: server.hash } : {});
  const condition = force
    ? {}
    : 'absent' in server
      ? caps.conditionalWrites.firstImplementation && part === 'implementation'
        ? { ifNoneMatch: '*' as const }
        : {}
      : checks && server.etag
        ? { ifMatch: server.etag }
        : {};
  return write(client, push, condition, Object.keys(condition).length > 0);
}

async function write(client: PartClient, push: PartPush, condition: { ifMatch?: string; ifNoneMatch?: '*' }, checked: boolean): Promise<PartResult> {
  const { id, part, content, hash } = push;
  if (push.dryRun) return { outcome: { kind: 'pushed', step: part, op: 'update', checked }, base: undefined };
  const options = { ...condition, ...(push.signal ? { signal: push.signal } : {}) };
  try {
    const result =
      part === 'metadata'
        ? await client.updateAction(id, JSON.parse(content) as ActionMetadata, options)
        : await client.putImplementation(id, content, options);
    return { outcome: { kind: 'pushed', step: part, op: 'update', checked }, base: { etag: result.etag, hash } };
  } catch (error) {
    if (error instanceof VersionConflictError) return held(part, 'changed-on-server', error.currentEtag ? { etag: error.currentEtag } : {});
    throw error;
  }
}

/** What the server holds of a part, or undefined when this server offers no read of it. */
async function readPart(client: PartClient, push: PartPush): Promise<ServerPart | undefined> {
  const signal = push.signal ? { signal: push.signal } : {};
  if (push.part === 'metadata') {
    if (!push.caps.getAction) return undefined;
    const { action, etag } = await client.getActionVersioned(push.id, signal);
    return { hash: metadataHash(action), etag };
  }
  if (!push.caps.getImplementation) return undefined;
  const { code, etag } = await client.getImplementationVersioned(push.id, signal);
  return code === undefined ? { absent: true } : { hash: codeHash(code), etag };
}

function held(part: Part, why: HeldReason, server: HeldServer): PartResult {
  return { outcome: { kind: 'held', step: part, why, server }, base: undefined };
}
