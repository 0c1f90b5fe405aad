import { randomBytes, randomUUID } from 'node:crypto';
import { type ActionEvent, type ActionListEntry, type ActionMetadata, type Environment } from '../../core/schema';
import { hashKey, mintKey, sameHash } from '../keys';
import { StoreConflict } from './conflict';
import { analyze } from './database';
import { type Database, type Queryable, sqlState, UNIQUE_VIOLATION } from './sql';
import { checkExpected, ETAG_PREFIX, etagOf, type Expected, recordVersion, type VersionKind } from './versions';

export { StoreConflict } from './conflict';

export interface ApplicationRow {
  id: string;
  name: string;
  environments: Record<Environment, string>;
}

export interface ActionRow {
  id: string;
  applicationId: string;
  key: string;
  metadata: ActionMetadata;
  hasImplementation: boolean;
  /** Counted from 1 by every accepted write of the metadata; the `ETag` of the action resource. */
  metadataVersion: number;
  /** Counted from 1 by every accepted write of the code; 0 while there is none. The `ETag` of the implementation. */
  codeVersion: number;
  createdAt: number;
  updatedAt: number;
}

/** One kept version of an action's code or metadata, without its content. */
export interface VersionRow {
  kind: VersionKind;
  version: number;
  size: number;
  client: string | undefined;
  createdAt: number;
}

export interface EnvironmentRow {
  id: string;
  applicationId: string;
  name: Environment;
}

export interface EventsVersion {
  /** Sequence number of the newest event (0 when there is none): it changes whenever the list does. */
  newest: number;
  /** When the list last changed, ms since the epoch. */
  modifiedAt: number;
}

export interface StoreOptions {
  /** Rows written (events recorded, actions created, changed or deleted) after which the planner's statistics are gathered again. */
  analyzeEvery?: number;
  /** Where a failed gathering of statistics is reported; it never fails a request. */
  log?: (message: string) => void;
  /**
   * The channel (Postgres NOTIFY) a recorded event or a deleted action is announced on, in the
   * transaction that writes it, so long polls held by other processes on the same database wake.
   * Absent for PGlite: one process is all there is.
   */
  notifyChannel?: string;
}

const ANALYZE_EVERY = 1_000;
/** The gathering waits this long after the write that called for it, so the request that wrote finishes its own queries first. */
const ANALYZE_DELAY_MS = 100;

/**
 * Every read and write of the sandbox's data, on PGlite or on a PostgreSQL server (sql.ts). Each
 * change runs in one transaction, and nothing that matters is kept in this object, so any number of
 * processes can share one server. PGlite resolves a query only once it has been written to the data
 * directory, and a server only once it has committed, so an answer means the change is kept.
 */
/** A key named that names no key, or more than one: the caller's mistake, not the database's. */
export class KeyNameError extends Error {
  override name = 'KeyNameError';
}

export class Store {
  private readonly analyzeEvery: number;
  private readonly log: (message: string) => void;
  private writes = 0;
  private analysisTimer: NodeJS.Timeout | undefined;
  private analysis: Promise<void> | undefined;
  private closing = false;
  private readonly notifyChannel: string | undefined;

  constructor(
    private readonly db: Database,
    options: StoreOptions = {},
  ) {
    this.analyzeEvery = options.analyzeEvery ?? ANALYZE_EVERY;
    this.log = options.log ?? (() => undefined);
    this.notifyChannel = options.notifyChannel;
  }

  /** Whether the database answers a query within `ms`: what the health endpoint reports. */
  async healthy(ms = 2_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([this.db.query('SELECT 1').then(() => true), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Announces a change of an action's events to the other processes; part of the transaction `tx`, so sent only if it commits. */
  private async announce(tx: Queryable, actionId: string, environmentId: string): Promise<void> {
    if (this.notifyChannel !== undefined) await tx.query('SELECT pg_notify($1, $2)', [this.notifyChannel, changePayload(actionId, environmentId)]);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.analysisTimer);
    await this.analysis;
    await this.db.close();
  }

  /**
   * Counts written rows; every `analyzeEvery` of them the statistics are gathered again (PGlite has no
   * autovacuum to do it), off the request path: after a short delay, one statement, and a failure is
   * only logged. A request that arrives meanwhile waits for it, as for any other query.
   */
  private wrote(): void {
    this.writes++;
    if (this.writes < this.analyzeEvery || this.analysisTimer !== undefined || this.analysis !== undefined || this.closing) return;
    this.analysisTimer = setTimeout(() => {
      this.analysisTimer = undefined;
      this.writes = 0;
      this.analysis = analyze(this.db)
        .catch((error: unknown) => {
          if (!this.closing)
            this.log(
              `sandbox: gathering planner statistics failed (queries still work, maybe slower): ${error instanceof Error ? error.message : String(error)}`,
            );
        })
        .finally(() => {
          this.analysis = undefined;
        });
    }, ANALYZE_DELAY_MS);
    this.analysisTimer.unref();
  }

  /** Every row of every table in a fixed order, JSON as stored: tests compare two dumps to prove a request left no trace. */
  async dump(): Promise<Record<string, unknown[]>> {
    const tables = { applications: 'id', environments: 'id', api_keys: 'hash', actions: 'id', events: 'seq' };
    const dump: Record<string, unknown[]> = {};
    for (const [table, order] of Object.entries(tables)) {
      // json columns as text, so the comparison sees what is stored, key order included.
      const columns = table === 'actions' ? '*, metadata::text AS metadata' : table === 'events' ? '*, data::text AS data' : '*';
      dump[table] = (await this.db.query(`SELECT ${columns} FROM ${table} ORDER BY ${order}`)).rows;
    }
    return dump;
  }

  /** Creates the application if needed (renaming it when a name is given) and mints a new key; older keys stay valid. */
  async ensureApplication(id: string, name: string | undefined): Promise<ApplicationRow & { key: string }> {
    const key = mintKey();
    const now = Date.now();
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO applications (id, name, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET name = COALESCE($4, applications.name)`,
        [id, name ?? id, now, name ?? null],
      );
      for (const env of ['Test', 'Live'] as const) {
        await tx.query('INSERT INTO environments (id, application_id, name) VALUES ($1, $2, $3) ON CONFLICT (application_id, name) DO NOTHING', [
          `${env.toLowerCase()}_${randomBytes(12).toString('base64url')}`,
          id,
          env,
        ]);
      }
      await tx.query('INSERT INTO api_keys (hash, application_id, created_at) VALUES ($1, $2, $3)', [hashKey(key), id, now]);
    });
    const app = await this.application(id);
    if (!app) throw new Error(`application ${id} vanished while it was created`);
    return { ...app, key };
  }

  async application(id: string, q: Queryable = this.db): Promise<ApplicationRow | undefined> {
    const apps = await q.query<{ id: string; name: string }>('SELECT id, name FROM applications WHERE id = $1', [id]);
    const app = apps.rows[0];
    if (!app) return undefined;
    const envs = await q.query<{ id: string; name: Environment }>('SELECT id, name FROM environments WHERE application_id = $1', [id]);
    const environments = { Test: '', Live: '' };
    for (const env of envs.rows) environments[env.name] = env.id;
    return { id: app.id, name: app.name, environments };
  }

  /** The applications, oldest first, with how many keys each has. */
  async listApplications(): Promise<{ id: string; name: string; keys: number }[]> {
    const result = await this.db.query<{ id: string; name: string; keys: number }>(
      `SELECT a.id, a.name, (SELECT count(*)::int FROM api_keys k WHERE k.application_id = a.id) AS keys
       FROM applications a ORDER BY a.created_at, a.id`,
    );
    return result.rows;
  }

  /** Mints another key for an existing application; undefined when there is no such application. The key is shown once: only its hash is kept. */
  async issueKey(applicationId: string): Promise<{ key: string; keyId: string } | undefined> {
    const key = mintKey();
    const hash = hashKey(key);
    const inserted = await this.db.query('INSERT INTO api_keys (hash, application_id, created_at) SELECT $1, id, $3 FROM applications WHERE id = $2', [
      hash,
      applicationId,
      Date.now(),
    ]);
    return (inserted.affectedRows ?? 0) > 0 ? { key, keyId: keyIdOf(hash) } : undefined;
  }

  /** The keys of an application by their ids (the start of their hash, which tells nothing of the key), oldest first. */
  async listKeys(applicationId: string): Promise<{ keyId: string; createdAt: number }[]> {
    const result = await this.db.query<{ hash: string; created_at: number }>(
      'SELECT hash, created_at FROM api_keys WHERE application_id = $1 ORDER BY created_at, hash',
      [applicationId],
    );
    return result.rows.map((r) => ({ keyId: keyIdOf(r.hash), createdAt: r.created_at }));
  }

  /**
   * Revokes a key, named by its id or given whole. Nothing caches keys (every request looks its key
   * up), so the next request with it is refused on every process. Throws when the id names no key
   * or more than one.
   */
  async revokeKey(keyOrId: string): Promise<{ applicationId: string; keyId: string }> {
    const exact = keyOrId.startsWith('ca_sk_');
    const id = keyOrId.toLowerCase();
    if (!exact && !/^[0-9a-f]{8,64}$/.test(id)) throw new KeyNameError('name the key by its id (8 or more hex digits, from list-keys) or give the key itself');
    return this.db.transaction(async (tx) => {
      const found = exact
        ? await tx.query<{ hash: string; application_id: string }>('SELECT hash, application_id FROM api_keys WHERE hash = $1', [hashKey(keyOrId)])
        : await tx.query<{ hash: string; application_id: string }>('SELECT hash, application_id FROM api_keys WHERE starts_with(hash, $1)', [id]);
      if (found.rows.length === 0) throw new KeyNameError('no such key');
      if (found.rows.length > 1) throw new KeyNameError(`the id ${id} names ${found.rows.length} keys; give more of it`);
      const row = found.rows[0]!;
      await tx.query('DELETE FROM api_keys WHERE hash = $1', [row.hash]);
      return { applicationId: row.application_id, keyId: keyIdOf(row.hash) };
    });
  }

  /** The application a key belongs to, or undefined. */
  async applicationOfKey(key: string): Promise<string | undefined> {
    const hash = hashKey(key);
    const found = await this.db.query<{ hash: string; application_id: string }>('SELECT hash, application_id FROM api_keys WHERE hash = $1', [hash]);
    const row = found.rows[0];
    return row && sameHash(row.hash, hash) ? row.application_id : undefined;
  }

  async listActions(applicationId: string): Promise<ActionRow[]> {
    const result = await this.db.query<RawAction>(`${SELECT_ACTION} WHERE application_id = $1 ORDER BY created_at, id`, [applicationId]);
    return result.rows.map(toAction);
  }

  /**
   * The list of operation 5 as JSON text: `ActionListEntry[]` with each part's version tag, oldest first, exactly the bytes
   * `JSON.stringify` gives for the entries. Postgres builds it from the fields the list carries and
   * hands over one text value, so no action's whole metadata is read into JavaScript (5,000 actions:
   * about 30 ms instead of 75), and reads `name` and `description` from `list_fields`, which it keeps
   * on every write (schema 4), so none is parsed either.
   *
   * `name` and `description` are the JSON text of those values as stored (the metadata is stored as
   * `JSON.stringify` wrote it, and `json ->` returns a value's text as is), the key is quoted by
   * `to_json`, and the id goes in as it is: the store mints ids as UUIDs, which neither JSON nor a URL
   * path escapes. The events URLs come from `eventsUrls` with a placeholder for the id. Postgres cannot
   * extract a field from JSON that holds `\u0000` anywhere (it fails the whole statement), so metadata
   * with any `\u` escape has no `list_fields` and the whole list is built in JavaScript instead, as it
   * is for a missing field or URLs without exactly one place for the id each.
   */
  async listActionsJson(applicationId: string, eventsUrls: (actionId: string) => Record<Environment, string>): Promise<string> {
    const urls = JSON.stringify(eventsUrls(ID_PLACEHOLDER)).split(ID_PLACEHOLDER);
    if (urls.length === 3) {
      const result = await this.db.query<{ fallback: boolean | null; list: string }>(
        `SELECT bool_or(entry IS NULL) AS fallback, '[' || coalesce(string_agg(entry, ',' ORDER BY created_at, id), '') || ']' AS list
         FROM (
           SELECT created_at, id, CASE WHEN list_fields IS NOT NULL THEN
             '{"key":' || to_json(key)::text || list_fields
             || ',"id":"' || id || '","eventsUrls":' || $2 || id || $3 || id || $4
             || ',"etags":{"metadata":"\\"' || $5 || '-' || metadata_version || '\\"","implementation":'
             || CASE WHEN implementation IS NULL THEN 'null' ELSE '"\\"' || $6 || '-' || code_version || '\\""' END || '}}'
           END AS entry
           FROM actions WHERE application_id = $1
           OFFSET 0 -- keeps the subquery whole: inlined, each entry would be built twice, once per aggregate
         ) entries`,
        [applicationId, ...urls, ETAG_PREFIX.metadata, ETAG_PREFIX.implementation],
      );
      const row = result.rows[0];
      if (row && !row.fallback) return row.list;
    }
    const entries: ActionListEntry[] = (await this.listActions(applicationId)).map((a) => ({
      key: a.key,
      name: a.metadata.name,
      description: a.metadata.description,
      id: a.id,
      eventsUrls: eventsUrls(a.id),
      etags: { metadata: etagOf('metadata', a.metadataVersion), implementation: a.hasImplementation ? etagOf('implementation', a.codeVersion) : null },
    }));
    return JSON.stringify(entries);
  }

  /** `lock` holds the row until the transaction `q` ends, so a check of its versions and the write after it are one step. */
  async action(id: string, q: Queryable = this.db, lock = false): Promise<ActionRow | undefined> {
    const result = await q.query<RawAction>(`${SELECT_ACTION} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    const row = result.rows[0];
    return row ? toAction(row) : undefined;
  }

  async createAction(applicationId: string, metadata: ActionMetadata, maxActions: number, client?: string): Promise<ActionRow> {
    const id = randomUUID();
    const now = Date.now();
    const created = await keyConflicts(metadata.key, () =>
      this.db.transaction(async (tx) => {
        // Creates in one application take turns (across processes too), so none counts past the limit.
        await tx.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [applicationId]);
        const count = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM actions WHERE application_id = $1', [applicationId]);
        if ((count.rows[0]?.n ?? 0) >= maxActions) throw new StoreConflict('limit-reached', `an application holds at most ${maxActions} actions`);
        await this.assertKeyFree(tx, applicationId, metadata.key, undefined);
        await tx.query('INSERT INTO actions (id, application_id, key, metadata, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)', [
          id,
          applicationId,
          metadata.key,
          JSON.stringify(metadata),
          now,
        ]);
        await recordVersion(tx, id, 'metadata', 1, JSON.stringify(metadata), client);
        return (await this.action(id, tx))!;
      }),
    );
    this.wrote();
    return created;
  }

  /** Replaces the metadata; with `expected`, only if its version is still that one (else `precondition-failed`). */
  async updateAction(id: string, metadata: ActionMetadata, expected?: Expected, client?: string): Promise<ActionRow> {
    const updated = await keyConflicts(metadata.key, () =>
      this.db.transaction(async (tx) => {
        const current = await this.action(id, tx, true);
        if (!current) throw new StoreConflict('not-found', 'no such action');
        checkExpected('metadata', current.metadataVersion, expected);
        await this.assertKeyFree(tx, current.applicationId, metadata.key, id);
        const text = JSON.stringify(metadata);
        const version = current.metadataVersion + 1;
        await tx.query('UPDATE actions SET key = $2, metadata = $3, metadata_version = $4, updated_at = $5 WHERE id = $1', [
          id,
          metadata.key,
          text,
          version,
          Date.now(),
        ]);
        await recordVersion(tx, id, 'metadata', version, text, client);
        return (await this.action(id, tx))!;
      }),
    );
    this.wrote();
    return updated;
  }

  /**
   * Replaces the code; with `expected`, only if its version is still that one (else
   * `precondition-failed`). Returns the new version, or undefined when the action does not exist (any more).
   */
  async setImplementation(id: string, code: string, expected?: Expected, client?: string): Promise<number | undefined> {
    return this.db.transaction(async (tx) => {
      const current = await this.action(id, tx, true);
      if (!current) return undefined;
      checkExpected('implementation', current.codeVersion, expected);
      const version = current.codeVersion + 1;
      await tx.query('UPDATE actions SET implementation = $2, code_version = $3, updated_at = $4 WHERE id = $1', [id, code, version, Date.now()]);
      await recordVersion(tx, id, 'implementation', version, code, client);
      return version;
    });
  }

  /** The kept versions of an action's code and metadata, newest first. */
  async versions(actionId: string): Promise<VersionRow[]> {
    const result = await this.db.query<{ kind: VersionKind; version: number; size: number; client: string | null; created_at: number }>(
      `SELECT kind, version, octet_length(content) AS size, client, created_at FROM action_versions
       WHERE action_id = $1 ORDER BY created_at DESC, version DESC, kind`,
      [actionId],
    );
    return result.rows.map((r) => ({ kind: r.kind, version: r.version, size: r.size, client: r.client ?? undefined, createdAt: r.created_at }));
  }

  /** The content of one kept version, or undefined when it is not (or no longer) kept. */
  async versionContent(actionId: string, kind: VersionKind, version: number): Promise<string | undefined> {
    const result = await this.db.query<{ content: string }>('SELECT content FROM action_versions WHERE action_id = $1 AND kind = $2 AND version = $3', [
      actionId,
      kind,
      version,
    ]);
    return result.rows[0]?.content;
  }

  async implementation(id: string): Promise<string | null | undefined> {
    const result = await this.db.query<{ implementation: string | null }>('SELECT implementation FROM actions WHERE id = $1', [id]);
    return result.rows[0]?.implementation;
  }

  /** Deletes the action and its events; returns false when it did not exist. */
  async deleteAction(id: string): Promise<boolean> {
    const result = await this.db.transaction(async (tx) => {
      const deleted = await tx.query('DELETE FROM actions WHERE id = $1', [id]);
      if ((deleted.affectedRows ?? 0) > 0) await this.announce(tx, id, '');
      return deleted;
    });
    const deleted = (result.affectedRows ?? 0) > 0;
    if (deleted) this.wrote();
    return deleted;
  }

  async environment(id: string): Promise<EnvironmentRow | undefined> {
    const result = await this.db.query<{ id: string; application_id: string; name: Environment }>(
      'SELECT id, application_id, name FROM environments WHERE id = $1',
      [id],
    );
    const row = result.rows[0];
    return row ? { id: row.id, applicationId: row.application_id, name: row.name } : undefined;
  }

  /**
   * Records an event and drops the oldest of the environment beyond `keep`. Returns false when the
   * action is gone. The lock on the action's row makes the recordings of one action take turns, also
   * across processes: an event's sequence number is drawn only once the one before it has committed,
   * so a list read never sees a newer event while an older one is still to appear (the ETag of the
   * list, its newest number, would otherwise hide that older one).
   */
  async recordEvent(actionId: string, environmentId: string, event: ActionEvent, keep: number): Promise<boolean> {
    const recorded = await this.db.transaction(async (tx) => {
      const exists = await tx.query('SELECT 1 FROM actions WHERE id = $1 FOR UPDATE', [actionId]);
      if (exists.rows.length === 0) return false;
      await tx.query('INSERT INTO events (id, action_id, environment_id, name, data, recorded_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        event.id,
        actionId,
        environmentId,
        event.name,
        JSON.stringify(event.data),
        Date.now(),
      ]);
      await tx.query(
        `DELETE FROM events WHERE action_id = $1 AND environment_id = $2 AND seq <= (
           SELECT seq FROM events WHERE action_id = $1 AND environment_id = $2 ORDER BY seq DESC OFFSET $3 LIMIT 1)`,
        [actionId, environmentId, keep],
      );
      await this.announce(tx, actionId, environmentId);
      return true;
    });
    if (recorded) this.wrote();
    return recorded;
  }

  /** Newest first; `before` is the sequence number the previous page ended at. One more than `limit` is read to tell whether a next page exists. */
  async listEvents(
    actionId: string,
    environmentId: string,
    limit: number,
    before: number | undefined,
  ): Promise<{ events: ActionEvent[]; last: number; more: boolean }> {
    const result = await this.db.query<{ seq: number; id: string; name: ActionEvent['name']; data: ActionEvent['data'] }>(
      `SELECT seq, id, name, data FROM events WHERE action_id = $1 AND environment_id = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
       ORDER BY seq DESC LIMIT $4`,
      [actionId, environmentId, before ?? null, limit + 1],
    );
    const rows = result.rows.slice(0, limit);
    return {
      events: rows.map((r) => ({ id: r.id, name: r.name, data: r.data })),
      last: Number(rows[rows.length - 1]?.seq ?? 0),
      more: result.rows.length > limit,
    };
  }

  async eventsVersion(action: ActionRow, environmentId: string): Promise<EventsVersion> {
    const result = await this.db.query<{ seq: number | null; recorded_at: number | null }>(
      'SELECT seq, recorded_at FROM events WHERE action_id = $1 AND environment_id = $2 ORDER BY seq DESC LIMIT 1',
      [action.id, environmentId],
    );
    const row = result.rows[0];
    return { newest: Number(row?.seq ?? 0), modifiedAt: row?.recorded_at ?? action.createdAt };
  }

  private async assertKeyFree(tx: Queryable, applicationId: string, key: string, exceptId: string | undefined): Promise<void> {
    const taken = await tx.query<{ id: string }>('SELECT id FROM actions WHERE application_id = $1 AND key = $2', [applicationId, key]);
    const other = taken.rows[0];
    if (other && other.id !== exceptId) throw new StoreConflict('key-conflict', `the application already has an action with key "${key}" (id ${other.id})`);
  }
}

/** A key's id: the first 12 hex digits of its sha-256, enough to tell an application's keys apart and no help to guess the key. */
export function keyIdOf(hash: string): string {
  return hash.slice(0, 12);
}

/** What a NOTIFY on the changes channel carries: the action and the environment whose events changed (none: all of them, the action is gone). */
export function changePayload(actionId: string, environmentId: string): string {
  return `${actionId}\n${environmentId}`;
}

/**
 * Two processes can pass the key check of a create or rename at once; the unique index then refuses
 * the second, which becomes the same key conflict a single process reports.
 */
async function keyConflicts<T>(key: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (
      sqlState(error) === UNIQUE_VIOLATION &&
      /actions_application_id_key_key/.test(String((error as { constraint?: unknown }).constraint ?? (error as Error).message))
    ) {
      throw new StoreConflict('key-conflict', `the application already has an action with key "${key}"`);
    }
    throw error;
  }
}

interface RawAction {
  id: string;
  application_id: string;
  key: string;
  metadata: ActionMetadata;
  has_implementation: boolean;
  metadata_version: number;
  code_version: number;
  created_at: number;
  updated_at: number;
}

/** Stands for an action id in the events URLs the list builds in SQL: a UUID, so encoding leaves it alone, that the store never mints. */
const ID_PLACEHOLDER = '00000000-0000-0000-0000-000000000000';

const SELECT_ACTION =
  'SELECT id, application_id, key, metadata, implementation IS NOT NULL AS has_implementation, metadata_version, code_version, created_at, updated_at FROM actions';

function toAction(row: RawAction): ActionRow {
  return {
    id: row.id,
    applicationId: row.application_id,
    key: row.key,
    metadata: row.metadata,
    hasImplementation: row.has_implementation,
    metadataVersion: row.metadata_version,
    codeVersion: row.code_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
