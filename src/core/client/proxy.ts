/**
 * Which proxy, if any, a request to a URL goes through: the one rule of the command line (from
 * HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and of the extension (from VS Code's http.proxy and http.noProxy).
 *
 * A proxy is a hop, not a destination: the transport opens a tunnel through it (CONNECT) to the base
 * URL's origin, and the key goes inside the tunnel to that origin only (nodeTransport.ts). Nothing
 * here reads the key, and no header is made from it for the proxy.
 */

export interface ProxySettings {
  /** The proxy of `http:` URLs (HTTP_PROXY). */
  readonly httpProxy?: string | undefined;
  /** The proxy of `https:` URLs (HTTPS_PROXY). */
  readonly httpsProxy?: string | undefined;
  /** Hosts reached directly (NO_PROXY's entries, http.noProxy). */
  readonly noProxy?: readonly string[] | undefined;
}

/**
 * The settings of the environment, as curl and undici read them: the lower-case name first, then the
 * upper-case one. An empty value is no proxy.
 */
export function proxySettingsFromEnv(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  const read = (name: string) => nonEmpty(env[name.toLowerCase()]) ?? nonEmpty(env[name.toUpperCase()]);
  return { httpProxy: read('http_proxy'), httpsProxy: read('https_proxy'), noProxy: splitNoProxy(read('no_proxy') ?? '') };
}

/** NO_PROXY's text: entries separated by commas or white space. */
export function splitNoProxy(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** Whether any proxy is configured at all (so a process without one loads no proxy code). */
export function hasProxy(settings: ProxySettings): boolean {
  return settings.httpProxy !== undefined || settings.httpsProxy !== undefined;
}

export class ProxySettingError extends Error {
  constructor(
    /** Where it came from: `HTTPS_PROXY`, `http.proxy`. */
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProxySettingError';
  }
}

/**
 * The proxy for a request to `url`, or undefined to go directly: this machine (loopback) always goes
 * directly, as no proxy can reach it for us; then NO_PROXY; then the proxy of the URL's scheme.
 * Throws a ProxySettingError, naming `names` of the setting and never its credentials, when the
 * proxy's URL is not one.
 */
export function proxyFor(url: URL, settings: ProxySettings, names: { http: string; https: string } = ENV_NAMES): URL | undefined {
  const secure = url.protocol === 'https:';
  const configured = secure ? settings.httpsProxy : settings.httpProxy;
  if (configured === undefined || isLoopbackHost(url.hostname)) return undefined;
  if (bypassesProxy(url, settings.noProxy ?? [])) return undefined;
  return parseProxyUrl(configured, secure ? names.https : names.http);
}

const ENV_NAMES = { http: 'HTTP_PROXY', https: 'HTTPS_PROXY' };

/** A proxy's URL: `http://` is assumed when no scheme is given (`proxy.example.com:3128`), as curl does. */
export function parseProxyUrl(value: string, setting: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new ProxySettingError(setting, `${setting} is not a URL of a proxy (http://host:port).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProxySettingError(setting, `${setting} names a ${url.protocol.replace(/:$/, '')} proxy; only http:// and https:// proxies are supported.`);
  if (url.pathname !== '/' || url.search || url.hash)
    throw new ProxySettingError(setting, `${setting} must be a proxy's origin (http://host:port), with no path.`);
  return url;
}

/** A proxy as it may be shown: its origin, never the user name and password it may carry. */
export function shownProxy(url: URL): string {
  return url.origin;
}

/**
 * NO_PROXY's rule: `*` is every host; `example.com`, `.example.com` and `*.example.com` are that
 * domain and every name below it; an entry may end in `:port` to match that port only; an IP
 * address matches itself, and an IPv4 block `10.0.0.0/8` its addresses. Case and a final dot are
 * ignored.
 */
export function bypassesProxy(url: URL, noProxy: readonly string[]): boolean {
  const host = normalizeHost(url.hostname);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') return true;
    const { name, entryPort } = splitEntry(entry);
    if (entryPort !== undefined && entryPort !== port) return false;
    if (name.includes('/')) return inIpv4Block(host, name);
    const domain = normalizeHost(name.replace(/^\*?\./, ''));
    if (!domain) return false;
    return host === domain || (!isIpLiteral(domain) && host.endsWith(`.${domain}`));
  });
}

/** `localhost`, a name below it, 127.0.0.0/8 and ::1: this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = normalizeHost(hostname);
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

function splitEntry(entry: string): { name: string; entryPort?: string } {
  // [v6]:port, v4:port, name:port; a bare IPv6 address has several colons and no port.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1]!, ...(bracketed[2] ? { entryPort: bracketed[2] } : {}) };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { name: withPort[1]!, entryPort: withPort[2]! };
  return { name: entry };
}

function normalizeHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

function isIpLiteral(host: string): boolean {
  return host.includes(':') || ipv4(host) !== undefined;
}

function ipv4(text: string): number | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!parts) return undefined;
  const bytes = parts.slice(1).map(Number);
  if (bytes.some((b) => b > 255)) return undefined;
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

function inIpv4Block(host: string, block: string): boolean {
  const [base, bitsText] = block.split('/');
  const address = ipv4(host);
  const network = ipv4(base ?? '');
  const bits = Number(bitsText);
  if (address === undefined || network === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (address & mask) === (network & mask);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
