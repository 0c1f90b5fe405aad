/**
 * A purpose-built events server that misbehaves on request: it shuffles, overlaps pages, fails, refuses
 * the key, answers 304 and holds long polls. The watcher's guarantees are tested against it through
 * the real REST client.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface RawEvent {
  id: string;
  name: string;
  data: { timings: { startTime: number; duration: number }; logs: unknown[]; error?: unknown };
}

export interface Behaviour {
  /** Advertise and honour limit/cursor paging. */
  paging?: boolean;
  /** How many events consecutive pages share. */
  overlap?: number;
  /** Send ETag and answer If-None-Match with 304. */
  etag?: boolean;
  /** Advertise and honour `wait`. */
  longPoll?: boolean;
  /** Answer in a random order instead of newest first. */
  shuffle?: boolean;
}

export const EVENTS_PATH = '/api/actions/a1/environments/test-env/events';

export class EventsServer {
  readonly events: RawEvent[] = [];
  readonly log: { url: string; status: number; ifNoneMatch: string | undefined }[] = [];
  failNext = 0;
  refuseKey = false;
  private version = 0;
  private waiters: (() => void)[] = [];
  private server: Server | undefined;
  private seq = 0;

  constructor(public behaviour: Behaviour = {}) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const wake of this.waiters.splice(0)) wake();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Adds events; `startTime` defaults to now plus a counter, so they are distinct and ordered. */
  add(...events: Partial<RawEvent & { startTime: number; logs: unknown[] }>[]): RawEvent[] {
    const added = events.map((e) => {
      const n = ++this.seq;
      return {
        id: e.id ?? `ev-${n}`,
        name: e.name ?? 'success',
        data: {
          timings: { startTime: e.startTime ?? 1_700_000_000_000 + n * 10, duration: 12 },
          logs: e.logs ?? [{ time: 1_700_000_000_000 + n * 10 + 1, level: 'info', message: `log of ${n}` }],
        },
      };
    });
    this.events.push(...added);
    this.version++;
    for (const wake of this.waiters.splice(0)) wake();
    return added;
  }

  get listRequests(): number {
    return this.log.filter((r) => r.url.startsWith(EVENTS_PATH)).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    // Logged on arrival, so a held request counts while it is held.
    const entry = { url: url.pathname + url.search, status: 0, ifNoneMatch: req.headers['if-none-match'] };
    this.log.push(entry);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (this.refuseKey) return send(401, { title: 'Unauthorized', detail: 'the key is not valid' });
    if (url.pathname === '/api') {
      return send(200, {
        service: 'misbehaving',
        version: '0',
        extensions: {
          ...(this.behaviour.paging ? { eventsPaging: { limitParam: 'limit', cursorParam: 'cursor', maxLimit: 100 } } : {}),
          ...(this.behaviour.longPoll ? { eventsLongPoll: { waitParam: 'wait', maxWaitSeconds: 5 } } : {}),
        },
      });
    }
    if (url.pathname !== EVENTS_PATH) return send(404, { title: 'Not Found' });
    if (this.failNext > 0) {
      this.failNext--;
      return send(500, { title: 'Internal Server Error', detail: 'it broke' });
    }
    const etag = `"v${this.version}"`;
    const cursor = url.searchParams.get('cursor');
    const wait = Number(url.searchParams.get('wait') ?? 0);
    if (this.behaviour.etag && !cursor && req.headers['if-none-match'] === etag) {
      if (this.behaviour.longPoll && wait > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait * 1000);
          this.waiters.push(() => (clearTimeout(timer), resolve()));
        });
        if (`"v${this.version}"` === etag) return send(304, undefined, { etag });
      } else {
        return send(304, undefined, { etag });
      }
    }
    let list = [...this.events].sort((a, b) => b.data.timings.startTime - a.data.timings.startTime);
    const headers: Record<string, string> = this.behaviour.etag ? { etag: `"v${this.version}"` } : {};
    if (this.behaviour.paging) {
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 100));
      const offset = Number(cursor ?? 0);
      const page = list.slice(offset, offset + limit);
      const next = offset + limit - (this.behaviour.overlap ?? 0);
      if (offset + limit < list.length) headers.link = `<${EVENTS_PATH}?limit=${limit}&cursor=${next}>; rel="next"`;
      list = page;
    }
    if (this.behaviour.shuffle) list = shuffle(list);
    return send(200, list, headers);
  }
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
