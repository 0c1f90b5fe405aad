/**
 * The rule of a deploy, in one place for every side that deploys (the command line's deploy and the
 * extension's save, through ./pushPart.ts): given what the workspace holds, what the base says
 * this copy was derived from, and, where it was read, what the server holds, what happens to one part
 * (metadata or code) of one action.
 *
 *   local = server              nothing to send: the part is unchanged (and that is the new base)
 *   server = base               the server still holds what this copy came from: safe to replace
 *   no code there, none in base the first code of an action: safe
 *   server ≠ base               changed on the server since the base: held, unless forced
 *   no base                     the server holds a version this repository never had: held, unless forced
 *
 * "Unchanged" is judged against the base: a part whose local text is the base's is still read (or its
 * write conditioned on the base), and a server that moved since is held, as `status` says it changed
 * there. A part that differs from the base is sent conditionally, and the server's check (`If-Match`
 * the base's tag) or a read before the write decides between "safe" and "held" (./pushPart.ts).
 */
import { type BaseVersion } from './base';

export type Part = 'metadata' | 'implementation';

/** What the server holds of a part, when it was read: a hash, or `absent` (an action without code). */
export type ServerPart = { readonly hash: string; readonly etag: string | undefined } | { readonly absent: true; readonly etag?: undefined };

export type PartDecision =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'push'; readonly why: 'changed-here' | 'first-code' | 'forced' }
  | { readonly kind: 'held'; readonly why: HeldReason };

/**
 * Why a part is held: `changed-on-server` (the server holds a version other than the base),
 * `no-base` (this repository never deployed or pulled the action from this server), `deleted-on-server`
 * (the base names an action the server no longer lists).
 */
export type HeldReason = 'changed-on-server' | 'no-base' | 'deleted-on-server';

/**
 * Changed on the server: the server holds other content than the base (by content hash, never by
 * version tag: a server writes a new tag for the same text put back, and that is no change). The one
 * rule of a deploy's hold, a status's `changed-on-server` and the editor's out-of-step mark;
 * undefined with no base to tell.
 */
export function changedSinceBase(base: BaseVersion | undefined, server: ServerPart): boolean | undefined {
  if (base === undefined) return undefined;
  return ('hash' in server ? server.hash : undefined) !== (base.absent ? undefined : base.hash);
}

/**
 * What a list entry's tag (`ListedEtags`) tells of a part without reading it: with the base's own tag
 * (or no code listed against a base of none), the server still holds the base, so that is its part;
 * undefined when the list says nothing, or names another version (the same text may be back under a
 * new tag: only a read tells).
 */
export function listedAtBase(base: BaseVersion | undefined, listedEtag: string | null | undefined): ServerPart | undefined {
  if (!base || listedEtag === undefined) return undefined;
  if (base.absent) return listedEtag === null ? { absent: true } : undefined;
  return base.etag !== undefined && listedEtag === base.etag ? { hash: base.hash, etag: base.etag } : undefined;
}

/** The decision for a part whose server side was read. */
export function decideRead(localHash: string, base: BaseVersion | undefined, server: ServerPart, force: boolean): PartDecision {
  if ('hash' in server && server.hash === localHash) return { kind: 'unchanged' };
  if (force) return { kind: 'push', why: 'forced' };
  if ('absent' in server) {
    // No code on the server: there is nothing to overwrite, whatever the base says.
    return { kind: 'push', why: 'first-code' };
  }
  const moved = changedSinceBase(base, server);
  if (moved === undefined) return { kind: 'held', why: 'no-base' };
  return moved ? { kind: 'held', why: 'changed-on-server' } : { kind: 'push', why: 'changed-here' };
}

/** How a status reads one part: the same on both sides, changed here, on the server, on both, or different with no base to tell. */
export type PartStatus = 'same' | 'changed-here' | 'changed-on-server' | 'changed-on-both' | 'differs' | 'unknown';

export function partStatus(localHash: string | undefined, base: BaseVersion | undefined, server: ServerPart | undefined): PartStatus {
  if (server === undefined) return 'unknown';
  const serverHash = 'hash' in server ? server.hash : undefined;
  if (serverHash === localHash) return 'same';
  const there = changedSinceBase(base, server);
  if (base === undefined || there === undefined) return 'differs';
  const here = localHash !== (base.absent ? undefined : base.hash);
  return here && there ? 'changed-on-both' : there ? 'changed-on-server' : 'changed-here';
}
