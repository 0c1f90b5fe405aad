/**
 * The base of a local copy: which version of an action's code and metadata on the server it was
 * derived from. The version tag (ETag) is what a conditional write names; the content hash says
 * whether two texts are the same without keeping both, and answers where a server sends no tags.
 */
import { codeHash } from '../contentHash';

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
