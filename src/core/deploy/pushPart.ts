/**
 * One part (metadata or code) of one action pushed against its base: the one road by which both the
 * command line's deploy and the editor's save send a part, so a deploy from either side is decided
 * the same way (docs/deploy.md, *The base*), and the one place "unchanged" is decided.
 *
 *   local = base, listed under the base's tag  unchanged, with no request: the server's list says it
 *                                           still holds the base (a strong tag names one version)
 *   local = base, server checks versions   read the part: the server still holding the base (or this
 *                                           text) is unchanged, anything else is held
 *   local ≠ base, server checks versions   one conditional write on the base's tag (If-Match, or
 *                                           If-None-Match: * for an action known to have no code); a
 *                                           412 reads the part and decides as below, so a server that
 *                                           holds the base's text under a newer version is replaced.
 *                                           When the list already shows another tag, the write that
 *                                           would be refused is not sent: the part is read at once
 *   otherwise                              read the server's part, then decide.ts's rule: the same
 *                                           text is unchanged, the base's text or no code is replaced
 *                                           (conditionally where the server checks), and anything else
 *                                           is held: changed on the server, or no base
 *
 * "Unchanged" is judged against the base: local text equal to the base's says nothing sent only while
 * the server still holds it. A held part names the server's version (number, time, writer) where the
 * server keeps versions. A 412 is a held part, not an error; any other failure of the server is thrown
 * for the caller to make its outcome.
 */
import { type Capabilities, type CustomActionsClient, VersionConflictError } from '../client';
import { type ActionMetadata } from '../schema/metadata';
import { baseAfter, type BaseVersion, codeHash, metadataHash } from './base';
import { decideRead, type HeldReason, listedAtBase, type Part, type ServerPart } from './decide';
import { type Outcome, type ServerVersionInfo } from './outcome';

/** The client operations one part's push uses. */
export type PartClient = Pick<CustomActionsClient, 'updateAction' | 'putImplementation' | 'getActionVersioned' | 'getImplementationVersioned' | 'listVersions'>;

export interface PartPush {
  readonly id: string;
  readonly part: Part;
  /** What is sent: the code's text, or the metadata as JSON. */
  readonly content: string;
  /** The content's hash (codeHash or metadataHash), compared with the base's and the server's. */
  readonly hash: string;
  /** The version this copy was derived from, when one is known. */
  readonly base: BaseVersion | undefined;
  /**
   * The part's tag in the server's list, read before this push (`ListedEtags`): a tag, `null` for no
   * code, undefined when the list does not say.
   */
  readonly listedEtag?: string | null;
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

/** What one part's push can come to. */
export type PartOutcome = Extract<Outcome, { kind: 'pushed' | 'unchanged' | 'held' }>;

export interface PartResult {
  readonly outcome: PartOutcome;
  /** The part's base after this push, when it changed (the version the server now holds, or was found to hold). */
  readonly base: BaseVersion | undefined;
}

type Condition = { readonly ifMatch?: string; readonly ifNoneMatch?: '*' };

export async function pushPart(client: PartClient, push: PartPush): Promise<PartResult> {
  const listed = listedAs(push);
  if (listed === 'base' && sameAsBase(push) && !push.resend) return { outcome: { kind: 'unchanged', step: push.part }, base: undefined };
  const straight = listed === 'moved' ? undefined : straightWrite(push);
  if (straight) {
    const written = await write(client, push, straight, true);
    if (written !== PRECONDITION_FAILED) return written;
  }
  return readThenDecide(client, push);
}

/**
 * The condition of a write the server can check by itself, with no read before it: one request, as a
 * bare PUT. Only for a change (or a push by hand) against a base the server can name.
 */
function straightWrite(push: PartPush): Condition | undefined {
  const { part, base, caps, force, dryRun } = push;
  const checks = part === 'metadata' ? caps.conditionalWrites.metadata : caps.conditionalWrites.implementation;
  if (dryRun || force || !base || !checks || (sameAsBase(push) && !push.resend)) return undefined;
  if (base.absent) return part === 'implementation' && caps.conditionalWrites.firstImplementation ? { ifNoneMatch: '*' } : undefined;
  return base.etag ? { ifMatch: base.etag } : undefined;
}

/**
 * What the list says of the server's part against the base (`listedAtBase`): it still holds the base
 * (`base`), another version (`moved`: read it, the same text may be back under a new tag), or nothing.
 */
function listedAs({ base, listedEtag }: PartPush): 'base' | 'moved' | undefined {
  if (listedAtBase(base, listedEtag)) return 'base';
  return base && listedEtag !== undefined && (base.absent || base.etag !== undefined) ? 'moved' : undefined;
}

function sameAsBase(push: PartPush): boolean {
  return push.base !== undefined && !push.base.absent && push.base.hash === push.hash;
}

async function readThenDecide(client: PartClient, push: PartPush): Promise<PartResult> {
  const { part, base, caps, force } = push;
  const server = await readPart(client, push);
  if (server === undefined) {
    // This server cannot show its version: the base is all there is to judge by. The same text is
    // unchanged; another is sent unchecked with a base, held without one.
    if (sameAsBase(push) && !force && !push.resend) return { outcome: { kind: 'unchanged', step: part }, base: undefined };
    if (!base && !force) return held(client, push, 'no-base', {});
    return orHeld(client, push, await write(client, push, {}, false));
  }
  const decision = decideRead(push.hash, base, server, force);
  if (decision.kind === 'unchanged' && !push.resend)
    return {
      outcome: { kind: 'unchanged', step: part },
      base: baseAfter({ kind: 'confirmed', localHash: push.hash, server: 'hash' in server ? server : { etag: undefined } }),
    };
  if (decision.kind === 'held') return held(client, push, decision.why, 'hash' in server ? { etag: server.etag, hash: server.hash } : {});
  const checks = part === 'metadata' ? caps.conditionalWrites.metadata : caps.conditionalWrites.implementation;
  const condition: Condition = force
    ? {}
    : 'absent' in server
      ? caps.conditionalWrites.firstImplementation && part === 'implementation'
        ? { ifNoneMatch: '*' }
        : {}
      : checks && server.etag
        ? { ifMatch: server.etag }
        : {};
  return orHeld(client, push, await write(client, push, condition, Object.keys(condition).length > 0));
}

const PRECONDITION_FAILED = Symbol('precondition failed');

/** The write itself; a 412 is handed back for the caller to decide (read, or held). */
async function write(client: PartClient, push: PartPush, condition: Condition, checked: boolean): Promise<PartResult | typeof PRECONDITION_FAILED> {
  const { id, part, content, hash } = push;
  if (push.dryRun) return { outcome: { kind: 'pushed', step: part, op: 'update', checked }, base: undefined };
  const options = { ...condition, ...(push.signal ? { signal: push.signal } : {}) };
  try {
    const result =
      part === 'metadata'
        ? await client.updateAction(id, JSON.parse(content) as ActionMetadata, options)
        : await client.putImplementation(id, content, options);
    return { outcome: { kind: 'pushed', step: part, op: 'update', checked }, base: baseAfter({ kind: 'pushed', server: { etag: result.etag, hash } }) };
  } catch (error) {
    if (error instanceof VersionConflictError) return PRECONDITION_FAILED;
    throw error;
  }
}

/** A write after a read that the server still refused: it moved between the two, so the part is held. */
async function orHeld(client: PartClient, push: PartPush, result: PartResult | typeof PRECONDITION_FAILED): Promise<PartResult> {
  return result === PRECONDITION_FAILED ? held(client, push, 'changed-on-server', {}) : result;
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

async function held(client: PartClient, push: PartPush, why: HeldReason, server: ServerVersionInfo): Promise<PartResult> {
  return { outcome: { kind: 'held', step: push.part, why, server: await versionInfo(client, push, server) }, base: undefined };
}

/** Names the server's version of a held part: its number, time and writer, where the server keeps versions. */
async function versionInfo(client: PartClient, push: PartPush, known: ServerVersionInfo): Promise<ServerVersionInfo> {
  if (!push.caps.versions) return known;
  try {
    const versions = (await client.listVersions(push.id, push.signal ? { signal: push.signal } : {})).filter((v) => v.kind === push.part);
    const v =
      (known.etag ? versions.find((x) => x.etag === known.etag) : undefined) ??
      versions.reduce<(typeof versions)[number] | undefined>((a, b) => (!a || b.version > a.version ? b : a), undefined);
    if (!v) return known;
    return { ...known, etag: v.etag ?? known.etag, version: v.version, ...(v.createdAt ? { at: v.createdAt } : {}), ...(v.client ? { by: v.client } : {}) };
  } catch {
    return known;
  }
}
