import { type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * CORS, so the extension in VS Code for the Web (a browser's worker, requests by `fetch`) can reach
 * the sandbox. The origins a browser names are those VS Code for the Web runs extensions from:
 *
 * - vscode.dev and github.dev run the worker extension host in an iframe on its own origin,
 *   `https://<hash>.vscode-cdn.net` (VS Code's `webEndpointUrlTemplate`), so that is what a request sends;
 * - code-server (and VS Code's own `serve-web`) has no such template: the iframe is on the page's own
 *   origin, which for a sandbox on this machine is a loopback one (`http://127.0.0.1:8080`).
 *
 * The default allows exactly those; `loopback` stands for http(s) on localhost, 127.0.0.1 and [::1]
 * at any port. A page of another origin gets no CORS header, so its browser hands it nothing. No
 * cookie is involved (the key is sent as `Authorization`), so credentials are never allowed.
 */
export const DEFAULT_CORS_ORIGINS: readonly string[] = [
  'https://vscode.dev',
  'https://insiders.vscode.dev',
  'https://github.dev',
  'https://*.vscode-cdn.net',
  'loopback',
];

/** What the client sends beyond the CORS-safelisted headers, and the methods it uses. */
const ALLOWED_METHODS = 'GET, POST, PUT, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, Accept';
/** What the client reads of an answer beyond the safelisted headers. */
const EXPOSED_HEADERS = 'ETag, Location, Retry-After, Link, Last-Modified';
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether `origin` (a request's `Origin` header) is one of `allowed` (DEFAULT_CORS_ORIGINS' forms). */
export function corsAllows(allowed: readonly string[], origin: string | undefined): boolean {
  if (!origin || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // An Origin is scheme, host and port, nothing else.
  if (url.origin !== origin) return false;
  return allowed.some((pattern) => {
    if (pattern === '*') return true;
    if (pattern === 'loopback') return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
    const wildcard = /^(https?):\/\/\*\.([^/*]+)$/.exec(pattern);
    if (wildcard) {
      // One label below the domain: `https://*.vscode-cdn.net` is `https://v--abc.vscode-cdn.net`, not the domain itself.
      const [, scheme, domain] = wildcard;
      const host = url.host;
      return url.protocol === `${scheme}:` && host.endsWith(`.${domain}`) && !host.slice(0, -domain!.length - 1).includes('.');
    }
    return pattern === origin;
  });
}

/**
 * Sets the CORS headers of an allowed origin on `res` (they stay through writeHead, on errors too, so
 * a 401 or a 412 reaches the extension), and answers a preflight. True when the request was a
 * preflight and is answered.
 */
export function applyCors(allowed: readonly string[], req: IncomingMessage, res: ServerResponse): boolean {
  if (allowed.length === 0) return false;
  const origin = req.headers.origin;
  // The answer depends on the Origin: a cache must not hand one origin's answer to another.
  res.setHeader('Vary', 'Origin');
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  if (!corsAllows(allowed, origin)) {
    if (!preflight) return false;
    // No CORS header: the browser refuses the request it asked about.
    res.writeHead(403, { 'Content-Length': 0 });
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Allow-Origin', origin!);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (!preflight) return false;
  const headers: Record<string, string | number> = {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
    'Content-Length': 0,
  };
  // Private Network Access: a page on a public origin (vscode.dev) asks before it calls a server on
  // this machine or its network, and goes on only when the server says yes.
  if (req.headers['access-control-request-private-network'] === 'true') headers['Access-Control-Allow-Private-Network'] = 'true';
  res.writeHead(204, headers);
  res.end();
  return true;
}

/** The origins of `--cors-origins` (comma- or space-separated; `none` for no CORS at all). */
export function parseCorsOrigins(text: string): string[] {
  const items = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 1 && items[0] === 'none') return [];
  for (const item of items) {
    if (item === 'loopback' || item === '*') continue;
    const pattern = /^(https?):\/\/(\*\.)?([^/*\s]+)$/.exec(item);
    if (!pattern || (!pattern[2] && !URL.canParse(item)) || (!pattern[2] && new URL(item).origin !== item))
      throw new Error(`--cors-origins: "${item}" is not an origin (scheme://host[:port]), https://*.domain, loopback, * or none`);
  }
  return items;
}
