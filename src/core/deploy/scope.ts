/**
 * What the extension remembers of a server (deploy bases, history, last inputs) belongs to that server
 * and that application: the same ids on another server name other actions, whose code must never be
 * offered or sent there. A scope is the server's identity (`serverIdentity`: every spelling of one
 * server's base URL is one server; `local-sandbox` for the local sandbox) and the application's id.
 */
import { serverIdentity } from '../client/serverIdentity';

export interface Scope {
  /** The project's base URL (any spelling: it is compared by `serverIdentity`). */
  readonly server: string;
  readonly appId: string;
}

/** The server as a scope names it: its identity (`serverIdentity`). */
export function normalizeOrigin(baseUrl: string): string {
  return serverIdentity(baseUrl);
}

/**
 * The key of a record of `id` in `scope`. NUL cannot occur in a URL or an id read from a server's
 * JSON as the project names it, so two scopes never share a key.
 */
export function scopedKey(scope: Scope, id: string): string {
  return `${normalizeOrigin(scope.server)}\u0000${scope.appId}\u0000${id}`;
}

/**
 * The record of `id` in `scope` among records keyed by `scopedKey`: under the key of the server's
 * identity, else under a key written before servers had one identity (another spelling of the same
 * server, such as `http://127.0.0.1:4000` without its slash), which is read, never offered elsewhere.
 */
export function scopedRecord<T>(records: Readonly<Record<string, T>>, scope: Scope, id: string): T | undefined {
  const key = scopedKey(scope, id);
  if (Object.prototype.hasOwnProperty.call(records, key)) return records[key];
  const server = normalizeOrigin(scope.server);
  for (const [stored, value] of Object.entries(records)) {
    const [storedServer, appId, storedId] = stored.split('\u0000');
    if (storedServer !== undefined && appId === scope.appId && storedId === id && normalizeOrigin(storedServer) === server) return value;
  }
  return undefined;
}
