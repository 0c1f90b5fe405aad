/**
 * What the extension remembers of a server (deploy bases, history, last inputs) belongs to that server
 * and that application: the same ids on another server name other actions, whose code must never be
 * offered or sent there. A scope is the server's base URL as the project names it (trailing slashes
 * dropped; `local-sandbox` for the local sandbox) and the application's id.
 */

export interface Scope {
  /** The project's base URL, normalized (`normalizeOrigin`). */
  readonly server: string;
  readonly appId: string;
}

/** The base URL as a scope names it: trimmed, without trailing slashes (as keys are stored). */
export function normalizeOrigin(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/**
 * The key of a record of `id` in `scope`. NUL cannot occur in a URL or an id read from a server's
 * JSON as the project names it, so two scopes never share a key.
 */
export function scopedKey(scope: Scope, id: string): string {
  return `${normalizeOrigin(scope.server)}\u0000${scope.appId}\u0000${id}`;
}
