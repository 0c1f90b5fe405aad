/**
 * How a request reaches a server: the one seam between the client's rules (`Http`: the base URL's
 * origin, the key, retries, what a status means) and the platform's way of sending bytes. Node sends
 * through undici's pools (`nodeTransport.ts`), a browser through `fetch` (`fetchTransport.ts`); each
 * face sets its default once, at start (`setDefaultTransport`).
 *
 * Every transport keeps the same rules: no redirect is ever followed (a 3xx comes back as a response,
 * or, where the platform hides it, as the error `REDIRECT`), a body over `maxBodyBytes` is an error,
 * and the request ends at `timeoutMs` or when `signal` aborts.
 */
export interface TransportRequest {
  readonly url: URL;
  readonly method: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Aborts on the caller's cancellation and on the time-out. */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

export interface TransportResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly text: string;
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Lets go of connections; a later request opens new ones. */
  close(): Promise<void>;
}

/**
 * The codes a transport's errors carry, besides the platform's own (`ECONNREFUSED`, `UND_ERR_…`):
 * the client maps them to what it tells the user (`Http`).
 */
export const TRANSPORT_ERROR = {
  timeout: 'TIMEOUT',
  aborted: 'ABORTED',
  bodyTooLarge: 'BODY_TOO_LARGE',
  /** The platform followed no redirect but hides where it pointed (a browser's opaque redirect). */
  redirect: 'REDIRECT',
  /** The request did not get through, for a reason the platform does not name (a browser's fetch). */
  network: 'NETWORK',
  /** A proxy setting is not the URL of a proxy (the message names the setting). */
  proxySetting: 'PROXY_SETTING',
  /** The proxy asked for credentials (407) that it was not given or did not accept. */
  proxyAuth: 'PROXY_AUTH',
  /** The proxy refused to open the tunnel to the server (its status in the message). */
  proxyRefused: 'PROXY_REFUSED',
} as const;

export class TransportError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

let current: Transport | undefined;

/** Set once per process by the face (the extension's entry, the command line, a test's hooks). */
export function setDefaultTransport(transport: Transport): void {
  current = transport;
}

export function defaultTransport(): Transport {
  if (!current) throw new Error('No HTTP transport is set: the program sets one at start (setDefaultTransport).');
  return current;
}

/** Closes the default transport's connections (on deactivation, at the end of a command). */
export async function closeDefaultTransport(): Promise<void> {
  await current?.close();
}
