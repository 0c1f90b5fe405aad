import { Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { hashString, seededRandom } from './random';

/**
 * What can go wrong between the client and the server. "before" faults never reach the server;
 * "after" faults reach it, so the change is made and only the answer is lost: the ambiguous case a
 * client must not resolve by repeating a create.
 */
export type FaultKind = 'error-before' | 'error-after' | 'reset-before' | 'reset-after' | 'slow-body' | 'timeout';

export const FAULT_KINDS: readonly FaultKind[] = ['error-before', 'error-after', 'reset-before', 'reset-after', 'slow-body', 'timeout'];

export interface FaultProxyOptions {
  /** The server behind the proxy, such as http://127.0.0.1:41234. */
  target: string;
  /** Share of requests that get a fault, 0 to 1. */
  rate: number;
  seed: number;
  kinds?: readonly FaultKind[];
  /** How long a `timeout` fault holds the answer before dropping the connection (longer than the client waits). */
  holdMs?: number;
  /** Requests that are never faulted, such as the capability index. */
  spare?: (method: string, path: string) => boolean;
  /**
   * Changes an answer's body on its way back (a server that offers less than the one behind it);
   * undefined leaves it as it is.
   */
  rewrite?: (method: string, path: string, body: Buffer) => Buffer | undefined;
}

export interface FaultProxy {
  url: string;
  /** How many requests passed, and how many got each fault. */
  stats: Record<FaultKind | 'passed', number>;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy that injects faults into a seeded share of requests. The choice for a request
 * depends on the seed, its method and path and how many times that method and path were seen, not on
 * arrival order, so concurrent suites replay the same faults for the same request sequence.
 */
export async function startFaultProxy(o: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(o.target);
  const kinds = o.kinds ?? FAULT_KINDS;
  const holdMs = o.holdMs ?? 2_000;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const seen = new Map<string, number>();
  const stats = Object.fromEntries([...FAULT_KINDS, 'passed'].map((k) => [k, 0])) as FaultProxy['stats'];
  const held = new Set<NodeJS.Timeout>();
  const hold = (ms: number, then: () => void) => {
    const timer = setTimeout(() => {
      held.delete(timer);
      then();
    }, ms);
    held.add(timer);
  };

  const choose = (method: string, path: string): { kind: FaultKind | undefined; random: () => number } => {
    const id = `${method} ${path}`;
    const nth = (seen.get(id) ?? 0) + 1;
    seen.set(id, nth);
    const random = seededRandom(hashString(`${o.seed}|${id}|${nth}`));
    if (o.spare?.(method, path) || random() >= o.rate) return { kind: undefined, random };
    return { kind: kinds[Math.floor(random() * kinds.length)], random };
  };

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const { kind, random } = choose(req.method ?? 'GET', req.url ?? '/');
    stats[kind ?? 'passed']++;
    if (kind === 'reset-before') return void req.socket.destroy();
    if (kind === 'error-before') return problem(res, 500);
    let answer;
    try {
      answer = await forward(req, Buffer.concat(chunks));
    } catch {
      return problem(res, 502);
    }
    if (kind === 'reset-after') return void req.socket.destroy();
    if (kind === 'error-after') return problem(res, random() < 0.5 ? 500 : 503);
    if (kind === 'timeout') return hold(holdMs, () => req.socket.destroy());
    const rewritten = o.rewrite?.(req.method ?? 'GET', req.url ?? '/', answer.body);
    if (rewritten) answer = { ...answer, body: rewritten, headers: { ...answer.headers, 'content-length': String(rewritten.length) } };
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    delete headers['keep-alive'];
    if (kind !== 'slow-body' || answer.body.length === 0) {
      res.writeHead(answer.status, headers);
      return void res.end(answer.body);
    }
    // The headers at once, the body in two halves with a pause between: a slow network, not a lost answer.
    res.writeHead(answer.status, headers);
    const half = Math.ceil(answer.body.length / 2);
    res.write(answer.body.subarray(0, half));
    hold(50 + Math.floor(random() * 250), () => res.end(answer.body.subarray(half)));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: async () => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

function problem(res: ServerResponse, status: number): void {
  const body = JSON.stringify({ type: 'about:blank', title: 'Injected fault', status, code: 'internal' });
  res.writeHead(status, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
