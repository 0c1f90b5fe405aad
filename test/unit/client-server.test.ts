/**
 * Tiny HTTP servers for the client tests: each test says how the server answers (including ways a
 * server may misbehave) and reads back what the client sent. Kept in a `.test.ts` file of its own, with
 * a test of the recorder, so the client tests share one harness.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { closeAllPools, createClient, type ClientOptions } from '../../src/core/client';

export const KEY = 'key-7f3a9c2e1d4b8a6f';

export interface Recorded {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** 0 for the first request this server saw. */
  readonly index: number;
}

export type Handler = (req: Recorded, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface TestServer {
  readonly url: string;
  readonly requests: Recorded[];
  /** The requests for one method and path, e.g. `count('POST', '/api/application/app/actions')`. */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

const open = new Set<TestServer>();

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const u = new URL(raw.url ?? '/', 'http://x');
      const rec: Recorded = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        path: u.pathname,
        query: u.searchParams,
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        index: requests.length,
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res, raw)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const test: TestServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (method, path) => requests.filter((r) => r.method === method && r.path === path).length,
    close: async () => {
      open.delete(test);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  open.add(test);
  return test;
}

/** Closes what a test left open; called from each suite's afterEach. */
export async function closeServers(): Promise<void> {
  await closeAllPools();
  await Promise.all([...open].map((s) => s.close()));
}

export function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type = body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' };
  res.writeHead(status, { ...type, ...headers });
  res.end(text);
}

/** Drops the connection without an answer, as a crashing server or a proxy would. */
export function reset(res: ServerResponse): void {
  res.socket?.destroy();
}

export function client(server: TestServer, options: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl: server.url, getKey: () => Promise.resolve(KEY), timeoutMs: 5_000, ...options });
}

/** Runs `fn` expecting it to fail, and returns what it threw. */
export async function rejection(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected a failure');
}

export function entry(id: string, key: string, eventsBase = `/api/actions/${id}/environments`) {
  return { id, key, name: key, description: '', eventsUrls: { Test: `${eventsBase}/test/events`, Live: `${eventsBase}/live/events` } };
}

describe('client test server', () => {
  afterEach(closeServers);

  it('records method, path, query, headers and body', async () => {
    const server = await startServer((_req, res) => send(res, 200, []));
    await client(server).listActions('app 1');
    const [req] = server.requests;
    assert.equal(req?.method, 'GET');
    assert.equal(req?.path, '/api/application/app%201/actions');
    assert.equal(req?.headers.authorization, `Bearer ${KEY}`);
  });
});
