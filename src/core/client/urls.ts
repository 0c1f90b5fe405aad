/**
 * Where requests go. The spec gives every path relative to the base URL, and servers hand back
 * Location headers and events URLs either relative or absolute; these helpers settle both, and
 * `onBaseOrigin` keeps every one of them on the base URL's origin.
 */
import { ForeignOriginError, type Operation } from './errors';

/** The base URL with exactly one trailing slash, so relative paths resolve beneath it. */
export function normalizeBase(baseUrl: string): URL {
  return new URL(baseUrl.replace(/\/*$/, '/'));
}

/** A path of the spec (`/api/…`) beneath the base URL, keeping any prefix the base has (`https://host/prefix/`). */
export function apiUrl(base: URL, path: string): URL {
  return new URL(path.replace(/^\/+/, ''), base);
}

/**
 * The one origin check: a URL is used only on the base URL's origin (scheme, host and port), so the
 * key never reaches another server, nor the same one over plain http when the base says https.
 * Every request passes it (`Http`), and so does every URL the server hands back that is read
 * without a request (a Location, a next link). Redirects are never followed (`pools.ts`).
 */
export function onBaseOrigin(base: URL, url: URL, operation: Operation): URL {
  if (url.protocol === base.protocol && url.host === base.host && /^https?:$/.test(url.protocol)) return url;
  throw new ForeignOriginError(operation, url, base);
}

/**
 * A URL the server handed out (an events URL, a next link), taken as is when absolute. A
 * root-relative one is read as the spec reads paths, relative to the base URL: a base with a path
 * prefix gets it prepended unless the server already included it.
 */
export function resolveServerUrl(base: URL, url: string): URL {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return new URL(url);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.startsWith('/') && prefix && !url.startsWith(`${prefix}/`)) return new URL(prefix + url, base);
  return new URL(url, base);
}

/** `/api/action/<id>`, `/api/actions/<id>`, absolute or relative, with or without a trailing slash or query. */
export function idFromLocation(location: string): string | undefined {
  let path: string;
  try {
    path = new URL(location, 'http://placeholder').pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The `rel="next"` target of an RFC 8288 Link header, resolved against the request URL. */
export function nextLink(header: string | undefined, from: URL): URL | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    if (match?.[1] && /rel="?([^"]*\s)?next(\s[^"]*)?"?(;|$)/i.test((match[2] ?? '').trim())) {
      try {
        return new URL(match[1], from);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
