/**
 * The local sandbox: a real implementation of the custom actions REST interface (docs/api.md) on
 * PGlite, with runs in separate, confined processes (runner/pool.ts). Used by `npm run sandbox`, by
 * the extension (through dist/sandbox.js) and by tests.
 */
import { type AddressInfo } from 'node:net';
import { Changes } from './http/changes';
import { createSandboxServer } from './http/server';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits';
import { ProcessPool } from './runner/pool';
import { openDatabase } from './store/database';
import { Store } from './store/store';
import { seedDemo } from './demo/seed';

export { DEFAULT_LIMITS, type SandboxLimits } from './limits';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 or absent picks a free one. */
  port?: number;
  /** Data directory; absent keeps everything in memory (gone on close). */
  dataDir?: string;
  /** Ensure the demo applications and their actions (and events) exist. */
  demo?: boolean;
  /** Applications to create or rename; each gets a freshly minted key. */
  applications?: { id: string; name: string }[];
  limits?: Partial<SandboxLimits>;
  /** Diagnostics (unexpected errors); stderr by default. */
  log?: (message: string) => void;
}

export interface SandboxApplicationKey {
  id: string;
  name: string;
  key: string;
}

export interface Sandbox {
  /** Base URL, such as http://127.0.0.1:41234 (no trailing slash). */
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
  let database;
  try {
    database = await openDatabase(options.dataDir);
  } catch (error) {
    await runner.close();
    throw error;
  }
  const store = new Store(database, { log });
  const changes = new Changes();
  const server = createSandboxServer({ store, runner, limits, changes, log });
  const closeAll = async () => {
    changes.notifyAll();
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
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    let closing: Promise<void> | undefined;
    return {
      url: `http://127.0.0.1:${port}`,
      applications,
      createApplication,
      close: () =>
        (closing ??= (async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          changes.notifyAll();
          server.closeIdleConnections();
          // Long polls were just woken; whatever is still open after a moment is cut.
          const force = setTimeout(() => server.closeAllConnections(), 2_000);
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

function checkApplicationId(id: string): void {
  if (id.trim() !== id || id.length === 0 || id.length > MAX_APPLICATION_ID_LENGTH || [...id].some((c) => c.charCodeAt(0) < 0x20)) {
    throw new Error(
      `an application id must be 1 to ${MAX_APPLICATION_ID_LENGTH} characters without surrounding spaces or control characters: ${JSON.stringify(id)}`,
    );
  }
}
