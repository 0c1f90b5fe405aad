import type * as Undici from 'undici';
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
}

/**
 * One connection pool per origin, shared by every client of that server. A plain Pool follows no
 * redirect (undici does only through its redirect interceptor, never composed here): a 3xx comes back
 * as a response, so the key cannot be bounced to another origin.
 */
export function createNodeTransport(options: NodeTransportOptions = {}): Transport {
  const pools = new Map<string, Undici.Pool>();
  const poolFor = (origin: string): Undici.Pool => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new (load().Pool)(origin, { connections: options.connections ?? 8, keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000, pipelining: 1 });
      pools.set(origin, pool);
    }
    return pool;
  };
  return {
    async request(request: TransportRequest): Promise<TransportResponse> {
      try {
        const response = await poolFor(request.url.origin).request({
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
        throw nodeError(error);
      }
    },
    async close(): Promise<void> {
      const all = [...pools.values()];
      pools.clear();
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
