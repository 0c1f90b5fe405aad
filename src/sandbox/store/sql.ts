/**
 * The little of a SQL database the store uses. PGlite satisfies it as it is; a PostgreSQL server
 * satisfies it through `PostgresDatabase` (postgres.ts), a thin layer over a `pg.Pool`. Both speak
 * the same SQL, so the store, the schema and its migrations are written once.
 */
export interface SqlResult<T> {
  rows: T[];
  /** Rows an INSERT, UPDATE or DELETE touched. */
  affectedRows?: number;
}

export interface Queryable {
  /** One statement; `params` bind to `$1`, `$2`…. */
  query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>>;
}

export interface Database extends Queryable {
  /** Several statements without parameters (the schema). */
  exec(sql: string): Promise<unknown>;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The SQLSTATE of a unique violation: two processes inserted the same key at once. */
export const UNIQUE_VIOLATION = '23505';

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
