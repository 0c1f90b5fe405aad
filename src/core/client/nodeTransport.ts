import type * as Tls from 'node:tls';
import type * as Undici from 'undici';
import { hasProxy, ProxySettingError, proxyFor, type ProxySettings, shownProxy } from './proxy';
import { TRANSPORT_ERROR, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport';

type UndiciModule = typeof Undici;

let undici: UndiciModule | undefined;

/**
 * undici is required here, on the first request, not at the top of the module: the extension's
 * activation bundle stays small and loads undici's own chunk only when something is fetched.
 */
function load(): UndiciModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  undici ??= require('undici') as UndiciModule;
  return undici;
}

/** How the Node transport connects; one object, so options (a proxy, more CAs) can join it. */
export interface NodeTransportOptions {
  /** Connections per origin. */
  readonly connections?: number;
  readonly keepAliveTimeoutMs?: number;
  /**
   * The proxies and the hosts that bypass them (proxy.ts); `names` are the settings they came from,
   * for messages (`HTTPS_PROXY`, `http.proxy`). None: every request goes directly.
   */
  readonly proxy?: (ProxySettings & { readonly names?: { readonly http: string; readonly https: string } }) | undefined;
  /**
   * The certificate authorities to trust, in place of Node's default store. Left out, Node's own
   * applies: its bundled authorities plus NODE_EXTRA_CA_CERTS, which Node reads at start (the command
   * line). The extension passes the system's, as VS Code's own requests trust them.
   */
  readonly ca?: readonly string[] | undefined;
  /** Whether a server's certificate is verified on a request through a proxy (http.proxyStrictSSL); true unless false. */
  readonly proxyStrictSSL?: boolean | undefined;
}

/**
 * One connection pool per origin, shared by every client of that server; through a proxy, one agent
 * per proxy. Neither follows a redirect (undici does only through its redirect interceptor, never
 * composed here): a 3xx comes back as a response, so the key cannot be bounced to another origin.
 *
 * Through a proxy, every request, http as well as https, goes in a tunnel (CONNECT host:port) to the
 * base URL's origin: the proxy relays bytes and is never asked for a resource, so the Authorization
 * header is a request to that origin, not to the proxy (over plain http it is still readable on the
 * way, as every plain http request is). The proxy's own credentials come only from its URL
 * (`http://user:password@proxy:3128`); undici refuses a request that carries a Proxy-Authorization
 * header of its own, and none is made here.
 */
export function createNodeTransport(options: NodeTransportOptions = {}): Transport {
  const connections = options.connections ?? 8;
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 10_000;
  // One context for every connection: given as `ca`, each TLS connection would parse every authority again.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:tls only when authorities are given: not at every start of the command line
  const tls = options.ca ? { secureContext: (require('node:tls') as typeof Tls).createSecureContext({ ca: [...options.ca] }) } : undefined;
  const proxy = options.proxy && hasProxy(options.proxy) ? options.proxy : undefined;
  const pools = new Map<string, Undici.Pool>();
  const agents = new Map<string, Undici.ProxyAgent>();
  const poolFor = (origin: string): Undici.Pool => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new (load().Pool)(origin, { connections, keepAliveTimeout, pipelining: 1, ...(tls ? { connect: tls } : {}) });
      pools.set(origin, pool);
    }
    return pool;
  };
  const agentFor = (proxyUrl: URL): Undici.ProxyAgent => {
    let agent = agents.get(proxyUrl.href);
    if (!agent) {
      const verify = options.proxyStrictSSL === false ? { rejectUnauthorized: false } : {};
      agent = new (load().ProxyAgent)({
        uri: proxyUrl.href,
        proxyTunnel: true,
        connections,
        keepAliveTimeout,
        pipelining: 1,
        requestTls: { ...tls, ...verify },
        proxyTls: { ...tls, ...verify },
      });
      agents.set(proxyUrl.href, agent);
    }
    return agent;
  };
  /** The proxy of this request, or undefined; a proxy setting that is no URL fails the request, naming it. */
  const proxyOf = (url: URL): URL | undefined => {
    if (!proxy) return undefined;
    try {
      return proxyFor(url, proxy, proxy.names);
    } catch (error) {
      if (error instanceof ProxySettingError) throw new TransportError(TRANSPORT_ERROR.proxySetting, error.message);
      throw error;
    }
  };
  return {
    async request(request: TransportRequest): Promise<TransportResponse> {
      const through = proxyOf(request.url);
      try {
        const dispatcher = through ? agentFor(through) : poolFor(request.url.origin);
        const response = await dispatcher.request({
          // An agent routes by it; a pool has its own.
          ...(through ? { origin: request.url.origin } : {}),
          path: request.url.pathname + request.url.search,
          method: request.method as Undici.Dispatcher.HttpMethod,
          headers: request.headers,
          body: request.body,
          signal: request.signal,
          headersTimeout: request.timeoutMs,
          bodyTimeout: request.timeoutMs,
        });
        const headers = flattenHeaders(response.headers);
        const text = await readText(response.body, request.maxBodyBytes);
        return { status: response.statusCode, headers, text };
      } catch (error) {
        throw through ? proxiedError(error, through, request.url) : nodeError(error);
      }
    },
    async close(): Promise<void> {
      const all: Undici.Dispatcher[] = [...pools.values(), ...agents.values()];
      pools.clear();
      agents.clear();
      await Promise.allSettled(all.map((p) => p.close()));
    },
  };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

async function readText(body: Undici.Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  // A BOM is kept, as it was when bodies were read as Buffers: the text is the server's bytes.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      body.destroy();
      throw new TransportError(TRANSPORT_ERROR.bodyTooLarge, 'response body too large');
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * A failure through a proxy, naming the proxy (never its credentials): the proxy's refusal of the
 * tunnel is its own code (undici reports it as an abort, which would read as a time-out), and a
 * connection that failed is the proxy's, since the proxy is what this process connects to.
 */
function proxiedError(error: unknown, proxyUrl: URL, target: URL): unknown {
  const message = error instanceof Error ? error.message : String(error);
  const refused = /Proxy response \((\d+)\) !== 200|Proxy Authentication Required \((\d+)\)/.exec(message);
  const proxy = shownProxy(proxyUrl);
  if (refused) {
    const status = Number(refused[1] ?? refused[2]);
    const code = status === 407 ? TRANSPORT_ERROR.proxyAuth : TRANSPORT_ERROR.proxyRefused;
    return new TransportError(code, `the proxy ${proxy} refused the tunnel to ${target.host} (HTTP ${status})`);
  }
  const mapped = nodeError(error);
  if (mapped instanceof TransportError && (mapped.code === TRANSPORT_ERROR.timeout || mapped.code === TRANSPORT_ERROR.aborted)) return mapped;
  if (mapped instanceof TransportError) return new TransportError(mapped.code, `${mapped.message}, through the proxy ${proxy}`);
  return mapped;
}

/** undici's errors in the transport's codes; a platform code (ECONNREFUSED) is kept as it is. */
function nodeError(error: unknown): unknown {
  if (error instanceof TransportError) return error;
  const rawCode = (error as { code?: unknown }).code;
  const code = typeof rawCode === 'string' ? rawCode : '';
  const name = (error as { name?: unknown }).name;
  const message = error instanceof Error ? error.message : String(error);
  if (code.includes('TIMEOUT') || name === 'TimeoutError') return new TransportError(TRANSPORT_ERROR.timeout, message);
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED') return new TransportError(TRANSPORT_ERROR.aborted, message);
  return new TransportError(code || TRANSPORT_ERROR.network, message);
}
