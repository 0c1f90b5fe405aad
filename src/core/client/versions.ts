/**
 * The kept versions of an action (an extension, docs/api.md), read tolerantly: an entry this client
 * cannot use is dropped rather than failing the list, and fields it does not know are ignored.
 */
import { strongEtag } from './etags';
import { parseJson, protocol, readList, record } from './readers';

/** What versions are kept of: an action's code and its metadata, each counted on its own. */
export type VersionKind = 'implementation' | 'metadata';

export const VERSION_KINDS: readonly VersionKind[] = ['implementation', 'metadata'];

/** One kept version, without its content. */
export interface VersionEntry {
  readonly kind: VersionKind;
  /** 1, 2, … per kind; `getVersion(id, kind, version)` reads it back. */
  readonly version: number;
  /** The tag the write answered with, when the server names it. */
  readonly etag: string | undefined;
  /** ISO 8601, when the server says. */
  readonly createdAt: string | undefined;
  /** The content's size in bytes, when the server says. */
  readonly size: number | undefined;
  /**
   * Who wrote it, as the writer's User-Agent said: untrusted text, kept as data (at most
   * CLIENT_MAX characters) and shown only through serverText.
   */
  readonly client: string | undefined;
}

/** One kept version's content, as written. */
export type VersionContent =
  | { readonly kind: 'implementation'; readonly version: number; readonly etag: string | undefined; readonly code: string }
  | { readonly kind: 'metadata'; readonly version: number; readonly etag: string | undefined; readonly metadata: Record<string, unknown> };

/** The server keeps at most 200 characters of a writer's name; a longer one is cut to that. */
export const CLIENT_MAX = 200;

const KIND_NAMES: Record<string, VersionKind> = { implementation: 'implementation', code: 'implementation', metadata: 'metadata', meta: 'metadata' };

/** `{"versions": [...]}` as the sandbox sends it, or a bare array or another usual wrapper; order as sent. */
export function readVersionList(text: string): VersionEntry[] {
  if (!text.trim()) return [];
  const wrapped = record(parseJson('listVersions', text)).versions;
  const items = Array.isArray(wrapped) ? (wrapped as unknown[]) : readList('listVersions', text);
  return items.flatMap((item) => {
    const entry = readVersionEntry(item);
    return entry ? [entry] : [];
  });
}

/** An entry with a known kind and a version number, or undefined. */
export function readVersionEntry(item: unknown): VersionEntry | undefined {
  const e = record(item);
  const kind = typeof e.kind === 'string' ? KIND_NAMES[e.kind.toLowerCase()] : undefined;
  const version = versionNumber(e.version);
  if (!kind || version === undefined) return undefined;
  return {
    kind,
    version,
    etag: typeof e.etag === 'string' ? strongEtag(e.etag) : undefined,
    createdAt: isoTime(e.createdAt),
    size: typeof e.size === 'number' && Number.isSafeInteger(e.size) && e.size >= 0 ? e.size : undefined,
    client: typeof e.client === 'string' && e.client ? e.client.slice(0, CLIENT_MAX) : undefined,
  };
}

/** A version as the path takes it: a whole number from 1 (a numeric string counts). */
export function versionNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^[1-9][0-9]{0,14}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/**
 * A kept metadata version is the metadata as written; a server may wrap it as `{metadata: {…}}`.
 * Anything but a JSON object is not metadata.
 */
export function readVersionMetadata(text: string): Record<string, unknown> {
  const body = parseJson('getVersion', text);
  const bare = record(body);
  const wrapped = record(bare.metadata);
  const metadata = typeof bare.key !== 'string' && Object.keys(wrapped).length > 0 ? wrapped : bare;
  if (Object.keys(metadata).length === 0) throw protocol('getVersion', 'the metadata version is not a JSON object');
  return metadata;
}

/** A time as ISO 8601, from a date string or a number (seconds below 10¹¹, else milliseconds, as for events). */
function isoTime(value: unknown): string | undefined {
  let ms: number | undefined;
  if (typeof value === 'string') ms = Date.parse(value);
  else if (typeof value === 'number' && Number.isFinite(value)) ms = value < 1e11 ? value * 1000 : value;
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
