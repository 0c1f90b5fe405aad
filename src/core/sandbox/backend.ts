/**
 * Which store a sandbox opens: the one rule of the sandbox's server (`sandbox.js`), its `admin`
 * commands and the command line's `sandbox start`. A PostgreSQL server (`--database-url`, else
 * `CUSTOM_ACTIONS_DATABASE_URL`), a PGlite data directory (`--data`), or memory. A data directory
 * together with a database server, whether the server came by flag or by the variable, is a
 * contradiction and an error that says how to resolve it: a sandbox that quietly took one of the two
 * would keep a team's keys or actions where nobody looks for them.
 */

export type SandboxBackend =
  | { readonly kind: 'postgres'; readonly url: string; readonly from: '--database-url' | 'CUSTOM_ACTIONS_DATABASE_URL' }
  | { readonly kind: 'directory'; readonly dir: string }
  | { readonly kind: 'memory' };

export const DATABASE_URL_VARIABLE = 'CUSTOM_ACTIONS_DATABASE_URL';

export function sandboxBackend(
  flags: { readonly databaseUrl?: string | undefined; readonly data?: string | undefined },
  env: { readonly [name: string]: string | undefined },
): { readonly ok: true; readonly backend: SandboxBackend } | { readonly ok: false; readonly reason: string } {
  const fromEnv = env[DATABASE_URL_VARIABLE] || undefined;
  if (flags.data !== undefined && flags.databaseUrl !== undefined) return { ok: false, reason: '--data and --database-url exclude each other: give one' };
  if (flags.data !== undefined && fromEnv !== undefined)
    return {
      ok: false,
      reason: `--data names a data directory but ${DATABASE_URL_VARIABLE} names a database server: unset ${DATABASE_URL_VARIABLE} to use the directory, or drop --data`,
    };
  if (flags.databaseUrl !== undefined) return { ok: true, backend: { kind: 'postgres', url: flags.databaseUrl, from: '--database-url' } };
  if (fromEnv !== undefined) return { ok: true, backend: { kind: 'postgres', url: fromEnv, from: DATABASE_URL_VARIABLE } };
  if (flags.data !== undefined) return { ok: true, backend: { kind: 'directory', dir: flags.data } };
  return { ok: true, backend: { kind: 'memory' } };
}
