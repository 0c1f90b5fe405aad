/**
 * The base of a local copy: which version of an action's code and metadata on the server it was
 * derived from. The version tag (ETag) is what a conditional write names; the content hash says
 * whether two texts are the same without keeping both, and answers where a server sends no tags.
 */
import { codeHash, metadataHash as metadataHashOf } from '../contentHash';

export { canonicalJson, codeHash, metadataFields, metadataHash } from '../contentHash';

/** One side of the base: the server's tag for the version, when it sent one, and its content hash. */
export interface BaseVersion {
  readonly etag: string | undefined;
  readonly hash: string;
  /** The server held none of this part (a new action's code): the next write asks that it still holds none. */
  readonly absent?: boolean;
}

/** The base of code the server does not have yet: of an action just created, or pulled without code. */
export const NO_CODE: BaseVersion = Object.freeze({ etag: undefined, hash: codeHash(''), absent: true });

/** What a local copy of one action was derived from; a side is absent when the server had none. */
export interface DeployBase {
  readonly metadata?: BaseVersion;
  readonly implementation?: BaseVersion;
}

/**
 * When a server version becomes the base of a local copy: the one rule of both faces (docs/deploy.md,
 * *The base*). The base moves only to a version the server holds and this copy is derived from:
 *
 *   created      the metadata the create sent, under the tag it answered; no code yet (NO_CODE):
 *                `createdBase`
 *   confirmed    the local part is the server's text (a deploy or save found it unchanged, or a part
 *                with no base is found the same as the server's): that version
 *   pulled       the version read into the folder
 *   merged       the server's version a merge took in, so the save after it goes against it
 *   overwritten  the version a held push named (by its tag, even when its content is unknown), so
 *                the overwrite replaces that one and no later one
 *   pushed       the version the server answered a write with
 *
 * A held push moves nothing: the base stays until one of the above. Undefined: nothing to record
 * (the local part is not the server's, or the server's version has no content to tell it by).
 */
export type BaseEvent =
  | { readonly kind: 'confirmed'; readonly localHash: string | undefined; readonly server: { readonly hash?: string; readonly etag: string | undefined } }
  | { readonly kind: 'pulled' | 'merged' | 'overwritten' | 'pushed'; readonly server: { readonly hash?: string; readonly etag?: string | undefined } };

/** The base of one part after `event` (the rule above); `createdBase` for a create. */
export function baseAfter(event: BaseEvent): BaseVersion | undefined {
  if (event.kind === 'confirmed')
    return event.localHash !== undefined && event.server.hash === event.localHash ? { etag: event.server.etag, hash: event.localHash } : undefined;
  // The version a held push named is named by its tag even when its content is unknown (an empty
  // hash matches no text): the overwrite's If-Match replaces that version and no later one.
  if (event.kind === 'overwritten') return { etag: event.server.etag, hash: event.server.hash ?? '' };
  return event.server.hash === undefined ? undefined : { etag: event.server.etag, hash: event.server.hash };
}

/** The base of an action just created: the metadata sent, under the tag the create answered, and no code. */
export function createdBase(etag: string | undefined, metadata: object): Required<Pick<DeployBase, 'metadata' | 'implementation'>> {
  return { metadata: { etag, hash: metadataHashOf(metadata) }, implementation: NO_CODE };
}
