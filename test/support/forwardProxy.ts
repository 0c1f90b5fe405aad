import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/** What a forwarding proxy was asked: a tunnel (CONNECT host:port) or a request in absolute form. */
export interface ProxySaw {
  readonly method: string;
  /** `host:port` of a CONNECT; the absolute URL of a forwarded request. */
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  /** What the proxy answered: 200 for a tunnel it opened. */
  readonly status: number;
}

export interface ForwardProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly saw: readonly ProxySaw[];
  /** Every byte the client sent through a tunnel, as text: what a proxy could read of it. */
  tunnelled(): string;
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /**
   * The names this proxy resolves, to a loopback port's host: a name only the proxy knows, so a
   * request that reaches it by that name went through the proxy. Any other host is refused (502).
   */
  readonly hosts: Readonly<Record<string, string>>;
  /** `user:password` the proxy asks of every request (407 without it). */
  readonly credentials?: string;
}

/**
 * A small forwarding proxy such as a company runs, written on node:http: CONNECT opens a TCP tunnel
 * (what https takes, and what the command line takes for http too), an absolute-form request is
 * forwarded. It records what it was asked, with the headers, so tests can say what a proxy saw.
 */
export async function startForwardProxy(options: ForwardProxyOptions): Promise<ForwardProxy> {
  const saw: ProxySaw[] = [];
  const tunnelBytes: Buffer[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;
  const resolve = (host: string) => options.hosts[host.toLowerCase()];
  const allowed = (headers: IncomingHttpHeaders) => !expected || headers['proxy-authorization'] === expected;

  const server: Server = createServer((req, res) => {
    let target: URL | undefined;
    try {
      target = new URL(req.url ?? '');
    } catch {
      target = undefined;
    }
    const address = target && resolve(target.hostname);
    const status = !allowed(req.headers) ? 407 : !target || !address || target.protocol !== 'http:' ? 502 : 0;
    saw.push({ method: req.method ?? '', target: req.url ?? '', headers: { ...req.headers }, status: status || 200 });
    if (status) {
      res.writeHead(status, status === 407 ? { 'proxy-authenticate': 'Basic realm="proxy"' } : {}).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request({ host: address, port: target!.port || 80, method: req.method, path: target!.pathname + target!.search, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const [host = '', port = ''] = splitHostPort(req.url ?? '');
    const address = resolve(host);
    const status = !allowed(req.headers) ? 407 : !address || !/^\d+$/.test(port) ? 502 : 200;
    saw.push({ method: 'CONNECT', target: req.url ?? '', headers: { ...req.headers }, status });
    if (status !== 200) {
      client.end(`HTTP/1.1 ${status} ${status === 407 ? 'Proxy Authentication Required' : 'Bad Gateway'}\r\n\r\n`);
      return;
    }
    const upstream = connect(Number(port), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.on('data', (chunk: Buffer) => tunnelBytes.push(chunk));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    saw,
    tunnelled: () => Buffer.concat(tunnelBytes).toString('latin1'),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function splitHostPort(authority: string): [string, string] {
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (bracketed) return [bracketed[1]!, bracketed[2]!];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, ''] : [authority.slice(0, at), authority.slice(at + 1)];
}
