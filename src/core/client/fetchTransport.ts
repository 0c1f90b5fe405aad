import { TRANSPORT_ERROR, TransportError, type Transport, type TransportRequest, type TransportResponse } from './transport';

/** `RequestInit` with `cache`, which browsers read and Node's types leave out. */
export type FetchInit = RequestInit & { readonly cache?: 'no-store' };
export type FetchFunction = (url: string, init: FetchInit) => Promise<Response>;

/** How the fetch transport sends; `fetch` is the platform's unless a test hands another. */
export interface FetchTransportOptions {
  readonly fetch?: FetchFunction;
}

/**
 * Requests by `fetch`, for VS Code for the Web (a browser's worker, where undici cannot run).
 * `redirect: 'manual'`: a browser then answers a redirect with an opaque response (status 0, no
 * headers), which is refused as `REDIRECT`, so the key is never sent on; `credentials: 'omit'`: the
 * browser's cookies for the server are none of the client's business (the key is the credential);
 * `cache: 'no-store'`: version tags and events must be the server's, not a cache's.
 */
export function createFetchTransport(options: FetchTransportOptions = {}): Transport {
  const send: FetchFunction = options.fetch ?? ((url, init) => fetch(url, init));
  return {
    async request(request: TransportRequest): Promise<TransportResponse> {
      let response: Response;
      try {
        response = await send(request.url.href, {
          method: request.method,
          headers: browserHeaders(request.headers),
          ...(request.body === undefined ? {} : { body: request.body }),
          signal: request.signal,
          redirect: 'manual',
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch (error) {
        throw fetchError(error, request.signal);
      }
      if (response.type === 'opaqueredirect' || response.status === 0) {
        void response.body?.cancel().catch(() => undefined);
        throw new TransportError(TRANSPORT_ERROR.redirect, 'the server answered with a redirect, which is not followed');
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
      try {
        return { status: response.status, headers, text: await readText(response, request.maxBodyBytes) };
      } catch (error) {
        throw fetchError(error, request.signal);
      }
    },
    // fetch keeps no pool of its own to close.
    close: () => Promise.resolve(),
  };
}

/**
 * A browser sets its own User-Agent (Chromium ignores one given; in others it would be one more
 * header for the server's CORS preflight to allow), so it is left to the browser.
 */
function browserHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'user-agent') out[name] = value;
  return out;
}

async function readText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw new TransportError(TRANSPORT_ERROR.bodyTooLarge, 'response body too large');
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  // A BOM is kept, as the Node transport keeps it: the text is the server's bytes.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw new TransportError(TRANSPORT_ERROR.bodyTooLarge, 'response body too large');
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * fetch rejects with the signal's reason when it aborts (a `TimeoutError` from `AbortSignal.timeout`,
 * an `AbortError`), and with a bare `TypeError` when the request did not get through: a browser
 * does not say why (Node's fetch names a cause, kept when it has a code).
 */
function fetchError(error: unknown, signal: AbortSignal): unknown {
  if (error instanceof TransportError) return error;
  const name = (error as { name?: unknown }).name;
  const message = error instanceof Error ? error.message : String(error);
  const reasonName = (signal.reason as { name?: unknown } | undefined)?.name;
  if (name === 'TimeoutError' || (signal.aborted && reasonName === 'TimeoutError')) return new TransportError(TRANSPORT_ERROR.timeout, message);
  if (name === 'AbortError' || signal.aborted) return new TransportError(TRANSPORT_ERROR.aborted, message);
  const causeCode = (error as { cause?: { code?: unknown } }).cause?.code;
  return new TransportError(typeof causeCode === 'string' ? causeCode : TRANSPORT_ERROR.network, message);
}
