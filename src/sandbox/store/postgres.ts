import pg from 'pg';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema';
import { type Database, type Queryable, type SqlResult } from './sql';

/** The channel a process announces a recorded event on, so long polls held by the others wake. */
export const CHANGES_CHANNEL = 'custom_actions_changes';

/** The listening connection's application_name, so an operator (or a test) can tell it in pg_stat_activity. */
export const LISTENER_NAME = 'custom-actions-sandbox-listener';

/** Connections each process may hold; a request holds one only while its queries run. */
const POOL_SIZE = 10;

/**
 * The sandbox's data on a PostgreSQL server, through a pool of connections. A transaction runs on a
 * single connection from BEGIN to COMMIT; the row locks it takes (SELECT … FOR UPDATE) are real
 * locks on the server, so a check of a version and the write after it are one step for every process
 * that shares the database.
 */
export class PostgresDatabase implements Database {
  readonly pool: pg.Pool;

  constructor(
    readonly connectionString: string,
    log: (message: string) => void,
  ) {
    this.pool = new pg.Pool({ connectionString, max: POOL_SIZE, connectionTimeoutMillis: 10_000, application_name: 'custom-actions-sandbox' });
    // An idle connection the server drops (a restart, a failover) is an error event here, not a crash.
    this.pool.on('error', (error) => log(`sandbox: a database connection failed: ${error.message}`));
  }

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    return toResult<T>(await this.pool.query(sql, params));
  }

  async exec(sql: string): Promise<unknown> {
    return this.pool.query(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const tx: Queryable = { query: async <R>(sql: string, params?: unknown[]) => toResult<R>(await client.query(sql, params)) };
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is dropped rather than handed to the next request.
      await client.query('ROLLBACK').catch((rollback: unknown) => (broken = rollback instanceof Error ? rollback : new Error(String(rollback))));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function toResult<T>(result: pg.QueryResult): SqlResult<T> {
  return { rows: result.rows as T[], affectedRows: result.rowCount ?? 0 };
}

/**
 * Connects and brings the schema up to date. Several processes may start at once on one database:
 * an advisory lock makes them migrate one after the other (CREATE TABLE IF NOT EXISTS is not safe
 * against itself running concurrently).
 */
export async function openPostgres(connectionString: string, log: (message: string) => void): Promise<PostgresDatabase> {
  const db = new PostgresDatabase(connectionString, log);
  try {
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('custom-actions-sandbox-schema'))");
      await tx.query(SCHEMA_SQL);
      const row = await tx.query<{ value: string }>("SELECT value FROM sandbox_meta WHERE name = 'schema_version'");
      const version = Number(row.rows[0]?.value);
      if (version > SCHEMA_VERSION) {
        throw new Error(`the database was written by a newer sandbox (schema ${version}; this one knows ${SCHEMA_VERSION})`);
      }
    });
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * Listens on CHANGES_CHANNEL on a connection of its own (a pooled one would be handed to others) and
 * reconnects when it is lost. While it was gone a notification may have been missed, so a reconnect
 * calls `onReconnect`, which wakes every long poll: each reads the list again and, when nothing
 * changed, answers 304 as at the end of its wait.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private failures = 0;

  constructor(
    private readonly connectionString: string,
    private readonly onChange: (payload: string) => void,
    private readonly onReconnect: () => void,
    private readonly log: (message: string) => void,
  ) {}

  /** Resolves once listening, so nothing recorded after the sandbox is ready goes unheard. */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 10_000, application_name: LISTENER_NAME });
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.log(`sandbox: the connection that hears other processes' events was lost (${why}); reconnecting`);
      this.schedule();
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('closed by the server'));
    client.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL && message.payload !== undefined) this.onChange(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      await client.end().catch(() => undefined);
      throw error;
    }
    this.failures = 0;
  }

  private schedule(): void {
    const delay = Math.min(5_000, 100 * 2 ** this.failures++);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed) return;
      this.connect().then(
        () => this.onReconnect(),
        (error: unknown) => {
          this.log(`sandbox: listening for other processes' events failed: ${error instanceof Error ? error.message : String(error)}`);
          if (!this.closed) this.schedule();
        },
      );
    }, delay);
    this.retry.unref();
  }

  /** The connection's server-side id, so a test can cut it as a failure would. */
  async backendPid(): Promise<number | undefined> {
    const result = await this.client?.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return result?.rows[0]?.pid;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
