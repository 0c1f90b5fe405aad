/**
 * The local sandbox: a real implementation of the custom actions REST interface (docs/api.md) on
 * PGlite, or on a PostgreSQL server shared by several processes (docs/team-sandbox.md), with runs in
 * separate, confined processes (runner/pool.ts). Used by `npm run sandbox`, by the extension
 * (through dist/sandbox.js) and by tests.
 */
import { type AddressInfo } from 'node:net';
import { Changes } from './http/changes';
import { DEFAULT_CORS_ORIGINS } from './http/cors';
import { RateLimiter, SharedRateLimiter } from './http/rateLimit';
import { createSandboxServer, newLifecycle, type TlsFiles } from './http/server';
import { isLoopback, urlHost } from './network';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits';
import { ProcessPool } from './runner/pool';
import { sandboxBackend } from '../core/sandbox/backend';
import { openDatabase } from './store/database';
import { CHANGES_CHANNEL, ChangeListener, openPostgres } from './store/postgres';
import { type Database } from './store/sql';
import { Store } from './store/store';
import { seedDemo } from './demo/seed';

export { DEFAULT_LIMITS, type SandboxLimits } from './limits';
export { type TlsFiles } from './http/server';

export interface SandboxOptions {
  /** Port; 0 or absent picks a free one. */
  port?: number;
  /**
   * The address to listen on; absent: 127.0.0.1, this machine only. Anything else (0.0.0.0, ::, an
   * interface's address) makes the sandbox reachable from the network, which only a team's shared
   * sandbox asks for; without `tls` that is logged as a warning.
   */
  host?: string;
  /** Serve HTTPS with this certificate and key instead of HTTP. */
  tls?: TlsFiles;
  /** Data directory; absent keeps everything in memory (gone on close). Not with `databaseUrl`. */
  dataDir?: string;
  /**
   * A PostgreSQL server's connection string (postgres://user:password@host:port/database): the data
   * lives there instead of in PGlite, and any number of sandbox processes may share it.
   */
  databaseUrl?: string;
  /** Ensure the demo applications and their actions (and events) exist. */
  demo?: boolean;
  /** Applications to create or rename; each gets a freshly minted key. */
  applications?: { id: string; name: string }[];
  limits?: Partial<SandboxLimits>;
  /**
   * The origins a browser may call the sandbox from (http/cors.ts): absent, VS Code for the Web's
   * (DEFAULT_CORS_ORIGINS); empty, none.
   */
  corsOrigins?: readonly string[];
  /** Diagnostics (unexpected errors); stderr by default. */
  log?: (message: string) => void;
}

export interface SandboxApplicationKey {
  id: string;
  name: string;
  key: string;
}

export interface Sandbox {
  /** Base URL, such as http://127.0.0.1:41234 (no trailing slash); https when serving TLS. */
  url: string;
  /** The applications ensured at start (demo ones first), each with a new key. */
  applications: SandboxApplicationKey[];
  /** Creates an application, or mints another key for an existing one. */
  createApplication(id: string, name?: string): Promise<SandboxApplicationKey>;
  close(): Promise<void>;
}

export const MAX_APPLICATION_ID_LENGTH = 200;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  // The runner's spare process starts while the database opens: the first run need not wait for it.
  const runner = new ProcessPool(limits);
  // The caller has applied the rule to its flags and environment; the options are held to it too.
  const chosen = sandboxBackend({ databaseUrl: options.databaseUrl, data: options.dataDir }, {});
  if (!chosen.ok) {
    await runner.close();
    throw new Error(`a sandbox keeps its data either in a data directory or on a database server, not both (${chosen.reason})`);
  }
  const changes = new Changes();
  let database: Database;
  let listener: ChangeListener | undefined;
  try {
    if (options.databaseUrl === undefined) {
      database = await openDatabase(options.dataDir);
    } else {
      database = await openPostgres(options.databaseUrl, log);
      // Long polls held here wake when another process records an event; after a lost connection,
      // all of them wake (one may have been missed) and read the list again.
      listener = new ChangeListener(
        options.databaseUrl,
        (payload) => (payload.endsWith('\n') ? changes.notifyPrefix(payload) : changes.notify(payload)),
        () => changes.notifyAll(),
        log,
      );
      await listener.start().catch(async (error: unknown) => {
        await database.close().catch(() => undefined);
        throw error;
      });
    }
  } catch (error) {
    await runner.close();
    throw error;
  }
  // A server gathers its planner statistics itself (autovacuum); PGlite has none, so the store does.
  const store = new Store(database, {
    log,
    ...(listener ? { notifyChannel: CHANGES_CHANNEL, analyzeEvery: Number.POSITIVE_INFINITY } : {}),
  });
  // On PostgreSQL the processes of a team share the buckets, so the limit holds for all of them together.
  const rateLimiter =
    limits.requestsPerMinute <= 0
      ? undefined
      : listener
        ? new SharedRateLimiter(limits.requestsPerMinute, database)
        : new RateLimiter(limits.requestsPerMinute);
  const host = options.host ?? '127.0.0.1';
  const lifecycle = newLifecycle();
  const corsOrigins = options.corsOrigins ?? DEFAULT_CORS_ORIGINS;
  const server = createSandboxServer({ store, runner, limits, changes, log, lifecycle, corsOrigins, ...(rateLimiter ? { rateLimiter } : {}) }, options.tls);
  const closeAll = async () => {
    changes.notifyAll();
    await listener?.close();
    await runner.close();
    await store.close();
  };
  try {
    const createApplication = async (id: string, name?: string): Promise<SandboxApplicationKey> => {
      checkApplicationId(id);
      const app = await store.ensureApplication(id, name?.trim() || undefined);
      return { id: app.id, name: app.name, key: app.key };
    };
    const applications: SandboxApplicationKey[] = [];
    if (options.demo) applications.push(...(await seedDemo(store, runner, limits)));
    for (const app of options.applications ?? []) {
      const created = await createApplication(app.id, app.name);
      const index = applications.findIndex((a) => a.id === created.id);
      if (index >= 0) applications[index] = created;
      else applications.push(created);
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    if (!isLoopback(host) && !options.tls) {
      log(
        `sandbox: listening on ${host} without TLS: keys, code and events cross the network in clear text. Give --tls-cert and --tls-key, or put a TLS proxy in front.`,
      );
    }
    let closing: Promise<void> | undefined;
    return {
      url: `${options.tls ? 'https' : 'http'}://${urlHost(host)}:${port}`,
      applications,
      createApplication,
      close: () =>
        (closing ??= (async () => {
          // No new connections; long polls answer now; a run in flight finishes (its runner
          // stops it at runTimeoutMs) and so does every write, before the database is let go.
          lifecycle.stopping = true;
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          changes.notifyAll();
          server.closeIdleConnections();
          const grace = limits.runTimeoutMs + 2_000;
          const force = setTimeout(() => server.closeAllConnections(), grace);
          await settled(lifecycle.inflight, grace + 5_000);
          server.closeIdleConnections();
          await closed;
          clearTimeout(force);
          await closeAll();
        })()),
    };
  } catch (error) {
    server.close();
    await closeAll().catch(() => undefined);
    throw error;
  }
}

/** Waits until every request in flight has been handled (also those that start meanwhile), or `ms` pass. */
async function settled(inflight: Set<Promise<void>>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (inflight.size > 0 && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...inflight]), new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
    clearTimeout(timer);
  }
}

export function checkApplicationId(id: string): void {
  if (id.trim() !== id || id.length === 0 || id.length > MAX_APPLICATION_ID_LENGTH || [...id].some((c) => c.charCodeAt(0) < 0x20)) {
    throw new Error(
      `an application id must be 1 to ${MAX_APPLICATION_ID_LENGTH} characters without surrounding spaces or control characters: ${JSON.stringify(id)}`,
    );
  }
}
