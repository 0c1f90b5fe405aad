import type * as Undici from 'undici';

type UndiciModule = typeof Undici;

let undici: UndiciModule | undefined;
const pools = new Map<string, Undici.Pool>();

/**
 * undici is required here, on the first request, not at the top of the module: the extension's
 * activation bundle stays small and loads undici's own chunk only when something is fetched.
 */
function load(): UndiciModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  undici ??= require('undici') as UndiciModule;
  return undici;
}

/**
 * One connection pool per origin, shared by every client of that server. A plain Pool follows no
 * redirect (undici does only through its redirect interceptor, never composed here): a 3xx is an
 * error, so the key cannot be bounced to another origin.
 */
export function poolFor(origin: string): Undici.Pool {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new (load().Pool)(origin, { connections: 8, keepAliveTimeout: 10_000, pipelining: 1 });
    pools.set(origin, pool);
  }
  return pool;
}

export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.allSettled(all.map((p) => p.close()));
}
