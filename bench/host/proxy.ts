import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface Exchange {
  readonly method: string;
  readonly path: string;
  /** performance.now() when the request arrived and when the server's answer was complete. */
  readonly arrived: number;
  answered: number | undefined;
  status: number | undefined;
  /** The body of a PUT, once it arrived whole: what a push carried. */
  body?: string;
}

/**
 * Forwards to the sandbox and records every exchange with its times, and how many requests were in
 * flight at most. The extension and the bare requests it is compared with go through the same proxy.
 */
export class TimingProxy {
  readonly exchanges: Exchange[] = [];
  inflight = 0;
  maxInflight = 0;
  /** Answers served by the proxy itself, by path (with its query): a list the sandbox would take a minute to fill. */
  readonly fixed = new Map<string, { contentType: string; body: string }>();
  private server: Server | undefined;
  /** Who waits for an answer (`answered`), told as each exchange is answered rather than polling the list. */
  private readonly waiters = new Set<{ readonly matches: (x: Exchange) => boolean; readonly resolve: (x: Exchange) => void }>();

  constructor(private readonly target: URL) {}

  /**
   * The first exchange `matches` accepts once it is answered: one already answered (the newest first),
   * else the next to be. A bench waiting this way costs the proxy nothing while the request is in flight,
   * where a poll of the list every few milliseconds would run on the thread that forwards the answer.
   */
  answered(matches: (x: Exchange) => boolean): Promise<Exchange> {
    for (let i = this.exchanges.length - 1; i >= 0; i--) {
      const x = this.exchanges[i]!;
      if (x.answered !== undefined && matches(x)) return Promise.resolve(x);
    }
    return new Promise((resolve) => this.waiters.add({ matches, resolve }));
  }

  private settled(exchange: Exchange): void {
    for (const waiter of this.waiters)
      if (waiter.matches(exchange)) {
        this.waiters.delete(waiter);
        waiter.resolve(exchange);
      }
  }

  reset(): void {
    this.exchanges.length = 0;
    this.maxInflight = this.inflight;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const exchange: Exchange = { method: req.method ?? '', path: req.url ?? '', arrived: performance.now(), answered: undefined, status: undefined };
      this.exchanges.push(exchange);
      if (req.method === 'PUT') {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => (exchange.body = Buffer.concat(chunks).toString('utf8')));
      }
      this.inflight++;
      this.maxInflight = Math.max(this.maxInflight, this.inflight);
      const fixed = req.method === 'GET' ? this.fixed.get(exchange.path) : undefined;
      if (fixed) {
        req.resume();
        exchange.status = 200;
        res.writeHead(200, { 'content-type': fixed.contentType, 'content-length': Buffer.byteLength(fixed.body) });
        res.end(fixed.body, () => {
          exchange.answered = performance.now();
          this.inflight--;
          this.settled(exchange);
        });
        return;
      }
      const done = () => {
        if (exchange.answered !== undefined) return;
        exchange.answered = performance.now();
        this.inflight--;
        this.settled(exchange);
      };
      const upstream = request(
        { host: this.target.hostname, port: this.target.port, path: exchange.path, method: req.method, headers: { ...req.headers, host: this.target.host } },
        (answer) => {
          exchange.status = answer.statusCode;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', done);
        },
      );
      upstream.on('error', () => (done(), res.destroy()));
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
