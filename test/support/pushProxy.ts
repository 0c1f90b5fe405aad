import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * Forwards to the sandbox and records every request; can slow down or refuse the pushes of code,
 * the way a busy or failing server would.
 */
export class PushProxy {
  readonly requests: { method: string; path: string }[] = [];
  /** While set, pushes of code wait for it: a server that has not answered yet, for as long as the test needs. */
  private held: Promise<void> | undefined;
  failures: { status: number; body: string }[] = [];
  /** While set, every read of an action list times out (408, as a gateway would say). */
  failLists = false;
  /** While set, the lists lose their version tags (`etags`): a server without that extension. */
  untaggedLists = false;
  private inflight = new Map<string, number>();
  maxInflight = 0;
  private server: Server | undefined;

  constructor(private readonly target: URL) {}

  /** Holds every push of code from now until the function returned is called (afterEach calls it too). */
  holdPushes(): () => void {
    let release: () => void = () => undefined;
    this.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  implementationPuts(id: string): number {
    return this.requests.filter((r) => r.method === 'PUT' && r.path === `/api/actions/${id}/implementation`).length;
  }

  metadataPuts(id: string): number {
    return this.requests.filter((r) => r.method === 'PUT' && r.path === `/api/actions/${id}`).length;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '';
      this.requests.push({ method: req.method ?? '', path });
      const isPush = req.method === 'PUT' && path.endsWith('/implementation');
      const isList = req.method === 'GET' && /^\/api\/application\/[^/]+\/actions(\?|$)/.test(path);
      const failure = isPush
        ? this.failures.shift()
        : isList && this.failLists
          ? { status: 408, body: JSON.stringify({ title: 'Request Timeout', status: 408, detail: 'the list took too long' }) }
          : undefined;
      if (failure) {
        req.resume();
        res.writeHead(failure.status, { 'content-type': 'application/problem+json' });
        res.end(failure.body);
        return;
      }
      // Counted per method and path: the test reads the implementation back (a GET of the same path)
      // while the last push is under way, and that read is not a second push in flight.
      const slot = `${req.method ?? ''} ${path}`;
      const forward = () => {
        const count = (this.inflight.get(slot) ?? 0) + 1;
        this.inflight.set(slot, count);
        if (isPush) this.maxInflight = Math.max(this.maxInflight, count);
        const upstream = request(
          { host: this.target.hostname, port: this.target.port, path, method: req.method, headers: { ...req.headers, host: this.target.host } },
          (answer) => {
            if (isList && this.untaggedLists && answer.statusCode === 200) return untagged(answer, res);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        // 'close' fires once whatever happens to the answer (ended, aborted, destroyed), so a request
        // that went wrong can never stay counted as in flight.
        res.once('close', () => this.inflight.set(slot, (this.inflight.get(slot) ?? 1) - 1));
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      };
      if (isPush && this.held) void this.held.then(forward);
      else forward();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** A list answer without its entries' `etags`, as a server without that extension sends it. */
function untagged(answer: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.on('end', () => {
    const entries = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>[];
    const body = JSON.stringify(entries.map(({ etags: _etags, ...entry }) => entry));
    res.writeHead(200, { 'content-type': answer.headers['content-type'] ?? 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}
