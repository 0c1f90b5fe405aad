/**
 * The deploy lock: what the repository's copy of each action was last derived from on each server,
 * kept in `customactions.lock.json` beside customactions.yaml, written by every deploy and pull and
 * committed by the team. It is the base a pipeline has: a fresh CI checkout, shallow or not, holds it.
 *
 * Per server (its identity, `serverIdentity`: every spelling of one server is one entry), application and action key: the action's id there, its
 * folder when it is not named by the key, and for its metadata and code the content hash of the version this repository deployed or pulled, and the server's version
 * tag of it when the server sent one. The server holding exactly that version is safe to replace;
 * holding anything else, the action changed on the server since (docs/cli.md, *The base*).
 *
 * Pure: reading and writing the file is the caller's. The text is stable (sorted members, two-space
 * indent, a final newline), so a deploy that changed nothing leaves it byte for byte, and a change
 * shows in a review as the lines of the actions it touched.
 */
import { serverIdentity } from '../client/serverIdentity';
import { actionFolderName } from '../workspace/layout';
import { type BaseVersion, type DeployBase } from './base';

export const LOCK_FILE = 'customactions.lock.json';
const LOCK_VERSION = 1;

/** One action's base on one server. */
export interface LockedAction extends DeployBase {
  readonly id: string;
  /**
   * The name of the action's folder in its application's folder, when it differs from the key or the
   * key was changed in it (`renamedActions`): an entry without one is of the folder named by its key,
   * as New Action and Pull name folders. A name to match, never a path to write to.
   */
  readonly folder?: string;
}

/** A lock entry with its key, as `entries` lists them. */
export interface LockEntry extends LockedAction {
  readonly key: string;
}

type Servers = Record<string, Record<string, Record<string, LockedAction>>>;

export interface LockProblem {
  readonly message: string;
  /** Where, from 1, when it can be told (the first conflict marker, or where the JSON breaks). */
  readonly line?: number;
  readonly column?: number;
  /** The file holds git's conflict markers: a merge or rebase changed the lock on both sides. */
  readonly conflict?: boolean;
}

/**
 * How to mend an invalid lock, in git's words, the same for the command line and the editor: for a
 * conflict, one side kept in a way git accepts on a conflicted file (`git checkout -- <file>` is
 * refused there); else the committed file restored.
 */
export function lockProblemFix(problem: LockProblem): string {
  return problem.conflict
    ? // Either side is safe: the lock holds bases, and a deploy re-reads the server.
      `Keep one side, as git accepts for a conflicted file: git checkout --theirs -- ${LOCK_FILE} (or --ours), then git add ${LOCK_FILE}. Either is safe: a side older than the server only holds an action (exit 4) until it is pulled or deployed with --force; it never overwrites.`
    : `Restore it from git (git restore --source=HEAD --staged --worktree ${LOCK_FILE}); it is the base deploys are checked against.`;
}

/** Where the problem is, as `file:line:column` from 1, or the file alone. */
export function lockProblemAt(file: string, problem: LockProblem): string {
  return problem.line === undefined ? file : `${file}:${problem.line}:${problem.column ?? 1}`;
}

/** Where in `text` an offset is, lines and columns from 1. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** Where JSON.parse stopped, from its message (`at position 12`, or `(line 3 column 5)` in newer Node). */
function jsonErrorAt(text: string, message: string): { line: number; column: number } | undefined {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const position = /position (\d+)/.exec(message);
  return position ? lineColumn(text, Number(position[1])) : undefined;
}

/** The lock's content; `with` and `without` return a changed copy. */
export class DeployLock {
  private constructor(private readonly servers: Servers) {}

  static empty(): DeployLock {
    return new DeployLock({});
  }

  /**
   * The lock of a file's text. A text that is not a lock of this version is an error, never taken as
   * empty: an empty base would turn every later deploy into a held one, or worse, with `--force`, a
   * silent overwrite.
   */
  static parse(text: string): { lock: DeployLock } | { problem: LockProblem } {
    let value: unknown;
    // A merge or rebase that changed the lock on both sides leaves git's markers: named as such, at the first of them.
    const marker = /^(<<<<<<<|=======|>>>>>>>)( |\r?$)/m.exec(text);
    if (marker && /^<<<<<<<( |\r?$)/m.test(text))
      return {
        problem: { message: "it holds git's conflict markers: a merge or rebase changed it on both sides", conflict: true, ...lineColumn(text, marker.index) },
      };
    try {
      value = JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { problem: { message: `not JSON (${message})`, ...jsonErrorAt(text, message) } };
    }
    if (!isRecord(value) || value.version !== LOCK_VERSION || !isRecord(value.servers))
      return { problem: { message: `not a lock of version ${LOCK_VERSION}: expected {"version": ${LOCK_VERSION}, "servers": {…}}` } };
    const servers: Servers = {};
    // A lock written before servers had one identity may name one server in several spellings: their
    // entries are read into one, and the next write keeps only the identity.
    for (const [server, apps] of Object.entries(value.servers)) {
      if (!isRecord(apps)) continue;
      const at = serverKey(server);
      for (const [app, actions] of Object.entries(apps)) {
        if (!isRecord(actions)) continue;
        for (const [key, entry] of Object.entries(actions)) {
          const locked = readLocked(entry);
          if (!locked) continue;
          const held = (servers[at] ??= {})[app] ?? (servers[at][app] = {});
          const other = Object.prototype.hasOwnProperty.call(held, key) ? held[key] : undefined;
          const merged = other ? mergeSpellings(other, locked) : locked;
          if (merged) held[key] = merged;
          else delete held[key];
        }
      }
    }
    return { lock: new DeployLock(servers) };
  }

  get(server: string, applicationId: string, key: string): LockedAction | undefined {
    return this.servers[serverKey(server)]?.[applicationId]?.[key];
  }

  /** The entries this lock holds for an application on a server, with their keys. */
  entries(server: string, applicationId: string): LockEntry[] {
    return Object.entries(this.servers[serverKey(server)]?.[applicationId] ?? {}).map(([key, entry]) => ({ ...entry, key }));
  }

  /** The keys this lock holds for an application on a server. */
  keys(server: string, applicationId: string): string[] {
    return Object.keys(this.servers[serverKey(server)]?.[applicationId] ?? {});
  }

  /** A copy with `entry` as the action's base (a part left out of `entry` keeps its old base when the id is the same). */
  with(server: string, applicationId: string, key: string, entry: LockedAction): DeployLock {
    return this.withAll(server, [{ applicationId, key, entry }]);
  }

  /**
   * A copy with every change made, in order: an entry as `with` sets it, or null for none (`without`).
   * One copy for all, where a run's hundred changes one at a time would copy the lock a hundred times.
   */
  withAll(server: string, changes: readonly { readonly applicationId: string; readonly key: string; readonly entry: LockedAction | null }[]): DeployLock {
    const next = clone(this.servers);
    const at = serverKey(server);
    const changed = new Set<string>();
    for (const { applicationId, key, entry } of changes) {
      const apps = (next[at] ??= {});
      const where = JSON.stringify([applicationId, key]);
      // The entry as this lock holds it, not its copy (which drops undefined members), unless changed here.
      const old = changed.has(where) ? apps[applicationId]?.[key] : this.get(server, applicationId, key);
      changed.add(where);
      if (entry === null) {
        if (apps[applicationId]) delete apps[applicationId][key];
        continue;
      }
      const actions = (apps[applicationId] ??= {});
      // One entry per action: the entry of the same id under an older key (the key was changed here)
      // goes, and its folder stays with the action unless the change names one.
      const renamed = Object.keys(actions).find((k) => k !== key && actions[k]!.id === entry.id);
      const folder = entry.folder ?? (renamed === undefined ? undefined : (actions[renamed]!.folder ?? actionFolderName(renamed)));
      if (renamed !== undefined) delete actions[renamed];
      const merged = old?.id === entry.id ? { ...old, ...entry } : entry;
      // Kept only where the folder is not the one its key names (`lockedFolder` reads it back so).
      actions[key] = folder === undefined || folder === actionFolderName(key) ? withoutFolder(merged) : { ...merged, folder };
    }
    // An application or server left without entries goes, so the file holds no empty objects.
    for (const [app, actions] of Object.entries(next[at] ?? {})) if (Object.keys(actions).length === 0) delete next[at]![app];
    if (next[at] && Object.keys(next[at]).length === 0) delete next[at];
    return new DeployLock(next);
  }

  /** The key of the entry of action `id`, found by its id (an editor knows an action by its id). */
  keyOf(server: string, applicationId: string, id: string): string | undefined {
    return this.keys(server, applicationId).find((key) => this.get(server, applicationId, key)?.id === id);
  }

  /**
   * A copy with `version` as the base of one part of the action `id`, now of key `key` in `folder`
   * (when told): one entry per action, so an entry of the same id under an older key (the key was
   * changed here) goes, its other part and its folder kept.
   */
  recorded(
    server: string,
    applicationId: string,
    action: { readonly id: string; readonly key: string; readonly folder?: string },
    part: 'metadata' | 'implementation',
    version: BaseVersion,
  ): DeployLock {
    const old = this.keyOf(server, applicationId, action.id);
    const kept = old === undefined ? undefined : this.get(server, applicationId, old);
    const clean: BaseVersion = { etag: version.etag, hash: version.hash, ...(version.absent ? { absent: true } : {}) };
    const entry: LockedAction = { ...kept, id: action.id, ...(action.folder !== undefined ? { folder: action.folder } : {}), [part]: clean };
    return this.with(server, applicationId, action.key, entry);
  }

  /** A copy without the entry of action `id`. */
  forgotten(server: string, applicationId: string, id: string): DeployLock {
    const key = this.keyOf(server, applicationId, id);
    return key === undefined ? this : this.without(server, applicationId, key);
  }

  without(server: string, applicationId: string, key: string): DeployLock {
    return this.withAll(server, [{ applicationId, key, entry: null }]);
  }

  /** The file's text: members sorted, so the same content is always the same bytes. */
  serialize(): string {
    return `${JSON.stringify({ version: LOCK_VERSION, servers: sortDeep(this.servers) }, null, 2)}\n`;
  }
}

/** Servers are named by their identity (`serverIdentity`), whatever the spelling of the base URL. */
export function serverKey(baseUrl: string): string {
  return serverIdentity(baseUrl);
}

/**
 * One action's entries under two spellings of one server: where they agree, that entry; a part they
 * disagree on has no base (which of the two is newer cannot be told, and no base is the side that
 * never replaces a change: the part is held until a pull or deploy records it again); entries of two
 * ids are none.
 */
function mergeSpellings(a: LockedAction, b: LockedAction): LockedAction | undefined {
  if (a.id !== b.id) return undefined;
  const part = (x: BaseVersion | undefined, y: BaseVersion | undefined): BaseVersion | undefined =>
    x === undefined
      ? y
      : y === undefined
        ? x
        : x.hash === y.hash && !!x.absent === !!y.absent
          ? { ...x, etag: x.etag === y.etag ? x.etag : undefined }
          : undefined;
  const metadata = part(a.metadata, b.metadata);
  const implementation = part(a.implementation, b.implementation);
  const folder = a.folder === b.folder ? a.folder : undefined;
  return { id: a.id, ...(folder !== undefined ? { folder } : {}), ...(metadata ? { metadata } : {}), ...(implementation ? { implementation } : {}) };
}

function withoutFolder(entry: LockedAction): LockedAction {
  if (entry.folder === undefined) return entry;
  const { folder: _folder, ...rest } = entry;
  return rest;
}

/** A folder's name as the lock may hold one: one path segment, never a way out of its application's folder. */
function isFolderName(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '.' && value !== '..' && value.length <= 255 && !/[/\\\0]/.test(value);
}

function readLocked(value: unknown): LockedAction | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || value.id === '') return undefined;
  const metadata = readPart(value.metadata);
  const implementation = readPart(value.implementation);
  const folder = isFolderName(value.folder) ? value.folder : undefined;
  return { id: value.id, ...(folder !== undefined ? { folder } : {}), ...(metadata ? { metadata } : {}), ...(implementation ? { implementation } : {}) };
}

function readPart(value: unknown): BaseVersion | undefined {
  if (!isRecord(value) || typeof value.hash !== 'string') return undefined;
  return {
    etag: typeof value.etag === 'string' && isEntityTag(value.etag) ? value.etag : undefined,
    hash: value.hash,
    ...(value.absent === true ? { absent: true } : {}),
  };
}

/**
 * An entity tag as HTTP writes one (RFC 9110: optionally `W/`, then a quoted string of visible
 * characters without `"`). The lock is a file anyone can edit and it goes into an `If-Match` header: a
 * tag that is not one (a CR or LF in it would start another header) is dropped, and the part is then
 * decided by reading the server, as without a tag.
 */
export function isEntityTag(value: string): boolean {
  return value.length <= 1024 && /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/.test(value);
}

function clone(servers: Servers): Servers {
  return JSON.parse(JSON.stringify(servers)) as Servers;
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => [k, sortDeep(value[k])]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
