import { type Agent, request } from 'node:http';
import { connect } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A request through node:http rather than fetch: fetch refuses odd methods, normalizes paths and
 * resolves `..`, which is exactly what the hostile suites need to send as is.
 */
export function send(
  base: string,
  agent: Agent,
  r: { method: string; path: string; headers: Record<string, string>; body?: Buffer },
  timeoutMs = 30_000,
): Promise<RawReply> {
  const url = new URL(base);
  // node:http frames no body of GET, DELETE, OPTIONS or TRACE: it sends the bytes without a length on
  // a connection it keeps alive, and the server reads them as the start of the next request there.
  const framed = Object.keys(r.headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h));
  const headers = r.body !== undefined && !framed ? { ...r.headers, 'Content-Length': String(r.body.length) } : r.headers;
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${r.method} ${r.path.slice(0, 100)}`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** Bytes straight onto a socket, for requests no HTTP client would send; resolves with the status line's code (0 if none). */
export function sendRaw(base: string, bytes: Buffer, timeoutMs = 10_000): Promise<number> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    const done = () => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1] ?? 0));
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
      if (/^HTTP\/1\.[01] \d{3}/.test(received)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.end(bytes);
  });
}

/** Runs `tasks` with at most `limit` at once. */
export async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}
