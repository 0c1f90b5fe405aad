/**
 * The deploy history kept by the extension: every accepted push of code or metadata, with what was
 * sent, when, where to and what the server answered. Bounded per action, in entries and in bytes, so
 * it can live in one small file; the oldest go first.
 */

import { normalizeOrigin, type Scope } from './scope';

export type HistoryPart = 'implementation' | 'metadata';

export interface HistoryEntry {
  /** Unique within the history: time and a counter. */
  readonly id: string;
  /** The application and action it went to (`actionKey` is the key the action had then). */
  readonly appId: string;
  readonly actionId: string;
  readonly actionKey: string;
  readonly part: HistoryPart;
  /** The code, or the metadata as JSON, exactly as sent. */
  readonly content: string;
  /** ISO 8601. */
  readonly time: string;
  /** The base URL it was pushed to. */
  readonly target: string;
  /** The server's version tag in its answer, when it sent one. */
  readonly etag: string | undefined;
  /** Whether the server checked that nobody had changed the action since (If-Match). */
  readonly checked: boolean;
}

export interface HistoryLimits {
  readonly perAction: number;
  readonly total: number;
  /** Characters of content in all entries together. */
  readonly totalChars: number;
}

export const HISTORY_LIMITS: HistoryLimits = { perAction: 30, total: 400, totalChars: 4_000_000 };

/**
 * The entries of one action of one application on one server, oldest first. An entry names the server
 * it was pushed to (`target`), so entries written before the history was scoped are attributed without
 * guessing; an entry of another server is never offered, however its ids match.
 */
export function entriesIn(entries: readonly HistoryEntry[], scope: Scope, actionId: string): HistoryEntry[] {
  const server = normalizeOrigin(scope.server);
  return entries.filter((e) => e.appId === scope.appId && e.actionId === actionId && normalizeOrigin(e.target) === server);
}

/** Adds `entry` (newest last) and drops the oldest entries beyond the limits. */
export function addEntry(entries: readonly HistoryEntry[], entry: HistoryEntry, limits: HistoryLimits = HISTORY_LIMITS): HistoryEntry[] {
  let kept = [...entries, entry];
  const sameAction = (e: HistoryEntry) =>
    e.appId === entry.appId && e.actionId === entry.actionId && normalizeOrigin(e.target) === normalizeOrigin(entry.target);
  const ofAction = kept.filter(sameAction).length;
  if (ofAction > limits.perAction) {
    let drop = ofAction - limits.perAction;
    kept = kept.filter((e) => !(sameAction(e) && drop-- > 0));
  }
  while (kept.length > limits.total) kept.shift();
  let chars = kept.reduce((sum, e) => sum + e.content.length, 0);
  // The newest entry is always kept, however large: it is what the server holds now.
  while (chars > limits.totalChars && kept.length > 1) chars -= (kept.shift() as HistoryEntry).content.length;
  return kept;
}

/** Entries read back from storage: anything that is not a well-formed entry is left out. */
export function readEntries(value: unknown): HistoryEntry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isEntry);
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  const strings = ['id', 'appId', 'actionId', 'actionKey', 'content', 'time', 'target'].every((name) => typeof e[name] === 'string');
  return (
    strings && (e.part === 'implementation' || e.part === 'metadata') && (e.etag === undefined || typeof e.etag === 'string') && typeof e.checked === 'boolean'
  );
}
