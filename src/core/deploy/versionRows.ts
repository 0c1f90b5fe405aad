/**
 * An action's versions as both faces list them (the editor's Deploy History, `custom-actions history`):
 * the pushes this machine recorded (./history.ts) and the server's kept versions (its versions
 * extension), one row per version, newest first. A push from here that made a kept version (the same
 * tag) is one row carrying both, so a version is never listed twice.
 */
import { type VersionEntry, versionNumber } from '../client/versions';
import { type Part } from './decide';
import { type HistoryEntry } from './history';
import { type LockedAction } from './lock';

export interface VersionRow {
  readonly part: Part;
  /** ISO 8601: the push's time, else the server's, when it says. */
  readonly time: string | undefined;
  /** The push recorded on this machine, when it made this version. */
  readonly entry: HistoryEntry | undefined;
  /** The server's kept version, when it keeps versions. */
  readonly version: VersionEntry | undefined;
}

/** The rows of `parts`, newest first. */
export function versionRows(entries: readonly HistoryEntry[], versions: readonly VersionEntry[], parts: readonly Part[]): VersionRow[] {
  const kept = versions.filter((v) => parts.includes(v.kind));
  const byTag = new Map<string, VersionEntry>();
  for (const v of kept) if (v.etag !== undefined) byTag.set(`${v.kind}\u0000${v.etag}`, v);
  const matched = new Set<VersionEntry>();
  const local = entries
    .filter((e) => parts.includes(e.part))
    .map((e): VersionRow => {
      const version = e.etag === undefined ? undefined : byTag.get(`${e.part}\u0000${e.etag}`);
      if (version) matched.add(version);
      return { part: e.part, time: e.time, entry: e, version };
    });
  const server = kept.filter((v) => !matched.has(v)).map((v): VersionRow => ({ part: v.kind, time: v.createdAt, entry: undefined, version: v }));
  // Newest first; among rows without a time (or the same time), the higher version first.
  return [...local, ...server].sort((a, b) => (b.time ?? '').localeCompare(a.time ?? '') || (b.version?.version ?? 0) - (a.version?.version ?? 0));
}

/** Whether a row is the version the lock names as the part's base (the server's tag the last deploy or pull recorded). */
export function isBase(row: VersionRow, base: LockedAction | undefined): boolean {
  const etag = base?.[row.part]?.etag;
  return etag !== undefined && (row.version?.etag ?? row.entry?.etag) === etag;
}

/** A kept version as a person names it: `code@3` (also `main.ts@3`, `implementation@3`), `metadata@2` (`action.yaml@2`). */
export function versionRef(part: Part, version: number): string {
  return `${part === 'implementation' ? 'code' : 'metadata'}@${version}`;
}

const PART_NAMES: Record<string, Part> = {
  code: 'implementation',
  implementation: 'implementation',
  'main.ts': 'implementation',
  metadata: 'metadata',
  'action.yaml': 'metadata',
};

/**
 * `code@3`, `metadata@2`, or a bare `3` (whichever part has that version, when only one does), as
 * `versionRef` writes them; undefined when it names none.
 */
export function parseVersionRef(text: string): { readonly part: Part | undefined; readonly version: number } | undefined {
  const at = text.lastIndexOf('@');
  const part = at < 0 ? undefined : PART_NAMES[text.slice(0, at).trim().toLowerCase()];
  if (at >= 0 && part === undefined) return undefined;
  const version = versionNumber(at < 0 ? text : text.slice(at + 1));
  return version === undefined ? undefined : { part, version };
}
