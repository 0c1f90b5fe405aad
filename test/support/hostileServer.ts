/**
 * A server that tries to send the client elsewhere and feeds it events no one should trust, and a
 * counting listener on another origin that plays "elsewhere". The hostile-server suites
 * (test/unit/client-hostile.test.ts, test/unit/events-hostile.test.ts) point the client at the first
 * and assert that the second never hears from it. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface HeardRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
}

export interface Listener {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly requests: HeardRequest[];
  close(): Promise<void>;
}

/** The events list of the one action both servers know. */
export const EVENTS_OF = (environment: string) => `/api/actions/a1/environments/${environment}/events`;

async function listen(host: string, handle: (req: IncomingMessage, res: ServerResponse, heard: HeardRequest) => void): Promise<Listener> {
  const requests: HeardRequest[] = [];
  const server = createServer((req, res) => {
    const heard = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization };
    requests.push(heard);
    // The body is drained first, so a POST is answered as a real server would.
    req.resume();
    req.on('end', () => handle(req, res, heard));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/**
 * "Elsewhere": answers everything the way a willing server would (an events list, a run's event), so a
 * client that came here would succeed and the leak would go unnoticed but for the count.
 */
export function startForeignListener(host = '127.0.0.1'): Promise<Listener> {
  return listen(host, (req, res) => {
    if (req.method === 'POST') return json(res, 200, JSON.stringify({ event: goodEvent('from-elsewhere', 1) }));
    return json(res, 200, JSON.stringify([goodEvent('from-elsewhere', 1)]));
  });
}

export interface HostileServer extends Listener {
  /** The events list, oldest first, as JSON texts: any depth or size can be served. */
  readonly events: string[];
  /** When set, the events list answers this body instead (malformed JSON, say). */
  eventsBody: string | undefined;
}

/**
 * The base URL's server. What it does depends on the path, so one server holds every trick:
 *
 * - `GET /api/application/<trick>/actions` lists one action whose `eventsUrls` are, by trick:
 *   `foreign` absolute on the other origin, `scheme-relative` (`//host:port/…`), `backslash`
 *   (`/\host:port/…`), `same-origin` absolute on this server, `relative` as the spec shows them.
 * - `POST /api/application/<trick>/actions` answers 201 with a `Location` on the other origin
 *   (`foreign`) or on this one (`same-origin`).
 * - `GET /api/actions/a1` describes the action with events URLs on the other origin.
 * - `GET EVENTS_OF('list')` serves `events` (or `eventsBody`); `EVENTS_OF('next-elsewhere')` a page
 *   whose `Link: rel="next"` names the other origin; `EVENTS_OF('redirect')` a 302 and
 *   `EVENTS_OF('redirect-307')` a 307 to the other origin's events list (runs too).
 */
export async function startHostileServer(foreign: string): Promise<HostileServer> {
  const events: string[] = [];
  const state = { eventsBody: undefined as string | undefined };
  const listener = await listen('127.0.0.1', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const own = `http://127.0.0.1:${listener.port}`;
    const foreignHostPort = foreign.replace(/^https?:\/\//, '');
    const eventsUrlsFor: Record<string, (env: string) => string> = {
      foreign: (env) => foreign + EVENTS_OF(env),
      'scheme-relative': (env) => `//${foreignHostPort}${EVENTS_OF(env)}`,
      backslash: (env) => `/\\${foreignHostPort}${EVENTS_OF(env)}`,
      'same-origin': (env) => own + EVENTS_OF(env),
      relative: (env) => EVENTS_OF(env),
    };
    if (path === '/api') {
      return json(
        res,
        200,
        JSON.stringify({
          service: 'hostile',
          version: '0',
          extensions: { getAction: true, run: true, eventsPaging: { limitParam: 'limit', cursorParam: 'cursor', maxLimit: 100 } },
        }),
      );
    }
    const listing = /^\/api\/application\/([^/]+)\/actions$/.exec(path);
    if (listing) {
      const trick = decodeURIComponent(listing[1] ?? '');
      if (req.method === 'POST') {
        const location = trick === 'foreign' ? `${foreign}/api/action/a1` : `${own}/api/action/a1`;
        return json(res, 201, '', { location });
      }
      const urls = eventsUrlsFor[trick];
      if (!urls) return json(res, 404, '{"title":"no such trick"}');
      return json(res, 200, JSON.stringify([{ id: 'a1', key: 'add', name: 'Add', description: '', eventsUrls: { Test: urls('test'), Live: urls('live') } }]));
    }
    if (path === '/api/actions/a1') {
      return json(
        res,
        200,
        JSON.stringify({ id: 'a1', key: 'add', name: 'Add', eventsUrls: { Test: foreign + EVENTS_OF('test'), Live: foreign + EVENTS_OF('live') } }),
      );
    }
    if (path === EVENTS_OF('list')) {
      if (req.method === 'POST') return json(res, 404, '{"title":"runs are under /runs"}');
      return json(res, 200, state.eventsBody ?? `[${events.join(',')}]`);
    }
    if (path === EVENTS_OF('next-elsewhere')) {
      return json(res, 200, `[${goodEvent('first-page', 1)}]`, { link: `<${foreign}${EVENTS_OF('list')}?cursor=2>; rel="next"` });
    }
    const redirect = /^\/api\/actions\/a1\/environments\/(redirect(?:-307)?)\/(events|runs)$/.exec(path);
    if (redirect) {
      res.writeHead(redirect[1] === 'redirect' ? 302 : 307, { location: `${foreign}/api/actions/a1/environments/test/${redirect[2] ?? 'events'}` });
      return res.end();
    }
    if (path === '/api/actions/a1/environments/list/runs') return json(res, 200, JSON.stringify({ event: JSON.parse(goodEvent('run', 1)) as unknown }));
    return json(res, 404, '{"title":"Not Found"}');
  });
  return {
    ...listener,
    events,
    get eventsBody() {
      return state.eventsBody;
    },
    set eventsBody(body: string | undefined) {
      state.eventsBody = body;
    },
  };
}

const START = 1_700_000_000_000;

/** An ordinary event as JSON text, its start time `n` steps after a fixed moment. */
export function goodEvent(id: string, n: number): string {
  return JSON.stringify({
    id,
    name: 'success',
    data: { timings: { startTime: START + n * 10, duration: 5 }, logs: [{ time: START + n * 10, level: 'info', message: `log of ${id}` }] },
  });
}

/** An event without an id whose `data` nests `depth` levels deep: no recursive walk survives it. */
export function deepEvent(depth: number, n: number): string {
  return `{"name":"success","data":{"timings":{"startTime":${START + n * 10}},"logs":[],"result":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
}

/** An event with one log message of `chars` characters. */
export function oversizedEvent(id: string, chars: number, n: number): string {
  return `{"id":${JSON.stringify(id)},"name":"success","data":{"timings":{"startTime":${START + n * 10}},"logs":["${'x'.repeat(chars)}"]}}`;
}
