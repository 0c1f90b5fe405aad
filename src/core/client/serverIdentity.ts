import { LOCAL_SANDBOX } from '../schema';

/**
 * Which server a base URL names, as everything that remembers a server keys on it: the deploy lock
 * (`customactions.lock.json`), the extension's scoped records (history, last inputs) and its keys.
 * Two spellings of one server must be one server, or a lock written as `http://127.0.0.1:4000` sees
 * every action as "changed on the server" when the project says `http://localhost:4000/`.
 *
 * The rule, once, here:
 * - the scheme and host in lower case (URL does that), the default port dropped (`:443` of https,
 *   `:80` of http), user and password dropped (never part of a key, never written into a file);
 * - the path with its dot segments resolved, repeated slashes as one and exactly one trailing slash
 *   (`https://host/prefix`, `https://host/prefix/` and `https://host//prefix/./` are one server); its
 *   letters keep their case, since paths are case-sensitive; query and fragment dropped;
 * - the loopback names `localhost`, `127.0.0.1` and `[::1]` are one host, written `localhost`: a base
 *   URL on them names a server of the machine the command runs on, whichever spelling reaches it (the
 *   sandbox listens on 127.0.0.1, and `localhost` resolves to it). Other 127.x.x.x addresses stay
 *   apart (a second server may listen there), and a loopback entry of a committed lock names each
 *   machine's own server, as the spelling did before;
 * - `local-sandbox`, the project's name for the editor's own sandbox, and any text that is not an
 *   http(s) URL (a hand-edited lock), are kept as written, trimmed, so they stay entries of their own
 *   rather than failing a read.
 *
 * Every identity ends with exactly one slash, as the lock named servers before (`local-sandbox/`), so
 * the locks already committed keep their text.
 */
export function serverIdentity(baseUrl: string): string {
  const text = baseUrl.trim();
  const asWritten = `${text.replace(/\/+$/, '')}/`;
  if (text.replace(/\/+$/, '') === LOCAL_SANDBOX) return asWritten;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return asWritten;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return asWritten;
  const host = LOOPBACK.has(url.hostname) ? 'localhost' : url.hostname;
  const port = url.port ? `:${url.port}` : '';
  const path = `${url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '')}/`;
  return `${url.protocol}//${host}${port}${path}`;
}

/** Whether two base URLs name one server (`serverIdentity`). */
export function sameServer(a: string, b: string): boolean {
  return serverIdentity(a) === serverIdentity(b);
}

/** The loopback spellings that are one host; URL has already lower-cased them and bracketed IPv6. */
const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
