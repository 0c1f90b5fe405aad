import { type ActionMetadata, type Environment, ENVIRONMENTS, MEDIA_TYPES, paths, runsUrlFromEventsUrl } from '../schema';
import { ApiError, type Operation } from './errors';
import { Http } from './http';
import { normalizeEvent, type NormalizedEvent } from './normalizeEvent';

export interface ClientOptions {
  readonly baseUrl: string;
  /** Read on every request, so a key entered meanwhile takes effect at once. */
  readonly getKey: () => Promise<string | undefined>;
  readonly timeoutMs?: number;
  readonly retries?: number;
  readonly userAgent?: string;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** An entry of the list (spec §2.4) with its events URLs resolved to absolute URLs. */
export interface ListedAction {
  readonly id: string;
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly eventsUrls: Partial<Record<Environment, string>>;
}

export interface CreatedAction {
  readonly id: string;
  readonly location: string | undefined;
  /** True when an ambiguous failure was resolved by finding the action in the list. */
  readonly recovered: boolean;
}

export interface EventsQuery extends CallOptions {
  readonly etag?: string;
  readonly lastModified?: string;
  readonly limit?: number;
  readonly cursor?: string;
  /** Seconds to hold the request open for news, on servers that advertise it. */
  readonly wait?: number;
}

export interface EventsPage {
  readonly events: NormalizedEvent[];
  readonly notModified: boolean;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** The next (older) page, from a `Link: <…>; rel="next"` header. */
  readonly nextUrl: string | undefined;
}

export interface Capabilities {
  readonly getAction: boolean;
  readonly getImplementation: boolean;
  readonly run: boolean;
  readonly eventsPaging: { readonly limitParam: string; readonly cursorParam: string; readonly maxLimit: number } | undefined;
  readonly eventsLongPoll: { readonly waitParam: string; readonly maxWaitSeconds: number } | undefined;
}

export const NO_CAPABILITIES: Capabilities = { getAction: false, getImplementation: false, run: false, eventsPaging: undefined, eventsLongPoll: undefined };

export type CustomActionsClient = ReturnType<typeof createClient>;

/** The six operations of the spec, and the extras a server may offer. */
export function createClient(options: ClientOptions) {
  const base = new URL(options.baseUrl.replace(/\/*$/, '/'));
  const http = new Http({
    getKey: options.getKey,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    userAgent: options.userAgent ?? 'custom-actions-vscode',
  });
  const url = (path: string) => new URL(path.replace(/^\//, ''), base);
  const json = { 'content-type': MEDIA_TYPES.json };
  let capabilities: Promise<Capabilities> | undefined;

  async function listActions(applicationId: string, o: CallOptions = {}): Promise<ListedAction[]> {
    const response = await http.send({ operation: 'listActions', method: 'GET', url: url(paths.applicationActions(applicationId)), signal: o.signal });
    const body = parseJson('listActions', response.text);
    const items = Array.isArray(body) ? body : unwrapList(body);
    if (!items) throw protocol('listActions', 'the list is not a JSON array');
    return items.flatMap((item) => {
      const entry = readListEntry(item, base);
      return entry ? [entry] : [];
    });
  }

  async function createOnce(applicationId: string, body: string, signal: AbortSignal | undefined): Promise<CreatedAction> {
    const response = await http.once({ operation: 'createAction', method: 'POST', url: url(paths.applicationActions(applicationId)), headers: json, body, signal });
    const location = response.headers.location;
    const fromBody = readId(tryJson(response.text));
    const id = (location && idFromLocation(location)) ?? fromBody;
    if (!id) throw protocol('createAction', 'the server created the action but named no id (no Location header)');
    return { id, location, recovered: false };
  }

  async function findByKey(applicationId: string, key: string, signal?: AbortSignal): Promise<string | undefined> {
    return (await listActions(applicationId, { signal })).find((a) => a.key === key)?.id;
  }

  /**
   * Never a blind retry: after a failure that may have created the action anyway (no answer, or a
   * 5xx), the list is searched for the key first; only if it is not there is the POST sent again.
   */
  async function createAction(applicationId: string, metadata: ActionMetadata, o: CallOptions = {}): Promise<CreatedAction> {
    const body = JSON.stringify(metadata);
    try {
      return await createOnce(applicationId, body, o.signal);
    } catch (error) {
      if (!isAmbiguous(error)) throw error;
      const found = await findByKey(applicationId, metadata.key, o.signal);
      if (found) return { id: found, location: undefined, recovered: true };
      try {
        return await createOnce(applicationId, body, o.signal);
      } catch (second) {
        if (second instanceof ApiError && (second.kind === 'conflict' || isAmbiguous(second))) {
          const later = await findByKey(applicationId, metadata.key, o.signal);
          if (later) return { id: later, location: undefined, recovered: true };
        }
        throw second;
      }
    }
  }

  async function updateAction(actionId: string, metadata: ActionMetadata, o: CallOptions = {}): Promise<void> {
    await http.send({ operation: 'updateAction', method: 'PUT', url: url(paths.action(actionId)), headers: json, body: JSON.stringify(metadata), signal: o.signal });
  }

  async function putImplementation(actionId: string, source: string, o: CallOptions = {}): Promise<void> {
    await http.send({
      operation: 'putImplementation',
      method: 'PUT',
      url: url(paths.implementation(actionId)),
      headers: { 'content-type': MEDIA_TYPES.typescript },
      body: source,
      signal: o.signal,
    });
  }

  async function deleteAction(actionId: string, o: CallOptions = {}): Promise<void> {
    await http.send({ operation: 'deleteAction', method: 'DELETE', url: url(paths.action(actionId)), headers: json, signal: o.signal });
  }

  async function listEvents(eventsUrl: string, q: EventsQuery = {}): Promise<EventsPage> {
    const target = new URL(eventsUrl, base);
    const caps = q.limit !== undefined || q.cursor !== undefined || q.wait !== undefined ? await getCapabilities(q) : NO_CAPABILITIES;
    if (caps.eventsPaging && q.limit !== undefined) target.searchParams.set(caps.eventsPaging.limitParam, String(Math.min(q.limit, caps.eventsPaging.maxLimit)));
    if (caps.eventsPaging && q.cursor !== undefined) target.searchParams.set(caps.eventsPaging.cursorParam, q.cursor);
    const wait = caps.eventsLongPoll && q.wait ? Math.min(q.wait, caps.eventsLongPoll.maxWaitSeconds) : undefined;
    if (wait && caps.eventsLongPoll) target.searchParams.set(caps.eventsLongPoll.waitParam, String(wait));
    const headers: Record<string, string> = {};
    if (q.etag) headers['if-none-match'] = q.etag;
    if (q.lastModified) headers['if-modified-since'] = q.lastModified;
    const response = await http.send({
      operation: 'listEvents',
      method: 'GET',
      url: target,
      headers,
      signal: q.signal,
      acceptNotModified: true,
      ...(wait ? { timeoutMs: (wait + 15) * 1000 } : {}),
    });
    const page = { etag: response.headers.etag ?? q.etag, lastModified: response.headers['last-modified'] ?? q.lastModified, nextUrl: nextLink(response.headers.link, target) };
    if (response.status === 304) return { events: [], notModified: true, ...page };
    const body = parseJson('listEvents', response.text);
    const items = Array.isArray(body) ? body : unwrapList(body);
    if (!items) throw protocol('listEvents', 'the events list is not a JSON array');
    return { events: items.map(normalizeEvent), notModified: false, ...page };
  }

  /** The server's extras, from its capability document; a server without one offers none. */
  function getCapabilities(o: CallOptions = {}): Promise<Capabilities> {
    capabilities ??= http
      .send({ operation: 'capabilities', method: 'GET', url: url(paths.index()), signal: o.signal })
      .then((r) => readCapabilities(tryJson(r.text)))
      .catch((error: unknown) => {
        capabilities = undefined;
        if (error instanceof ApiError && ['not-found', 'validation', 'forbidden', 'protocol'].includes(error.kind)) return NO_CAPABILITIES;
        throw error;
      });
    return capabilities;
  }

  async function getAction(actionId: string, o: CallOptions = {}): Promise<Record<string, unknown>> {
    const response = await http.send({ operation: 'getAction', method: 'GET', url: url(paths.action(actionId)), signal: o.signal });
    const body = parseJson('getAction', response.text);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw protocol('getAction', 'the action is not a JSON object');
    return body as Record<string, unknown>;
  }

  async function getImplementation(actionId: string, o: CallOptions = {}): Promise<string | undefined> {
    try {
      const response = await http.send({
        operation: 'getImplementation',
        method: 'GET',
        url: url(paths.implementation(actionId)),
        headers: { accept: `${MEDIA_TYPES.typescript}, text/plain;q=0.9` },
        signal: o.signal,
      });
      return response.text;
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'not-found') return undefined;
      throw error;
    }
  }

  async function runAction(eventsUrl: string, inputs: unknown[] | Record<string, unknown>, o: CallOptions = {}): Promise<NormalizedEvent> {
    const runs = runsUrlFromEventsUrl(new URL(eventsUrl, base).toString());
    if (!runs) throw protocol('runAction', 'the events URL does not end in /events');
    const response = await http.once({ operation: 'runAction', method: 'POST', url: new URL(runs), headers: json, body: JSON.stringify({ inputs }), signal: o.signal, timeoutMs: 120_000 });
    const body = parseJson('runAction', response.text) as { event?: unknown };
    return normalizeEvent(body.event ?? body);
  }

  return { baseUrl: base.toString(), listActions, createAction, updateAction, putImplementation, deleteAction, listEvents, capabilities: getCapabilities, getAction, getImplementation, runAction };
}

function isAmbiguous(error: unknown): boolean {
  return error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout' || (error.kind === 'server' && error.status !== 501));
}

function readListEntry(item: unknown, base: URL): ListedAction | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const e = item as Record<string, unknown>;
  const id = readId(e);
  if (!id || typeof e.key !== 'string') return undefined;
  const urls = (typeof e.eventsUrls === 'object' && e.eventsUrls !== null ? e.eventsUrls : {}) as Record<string, unknown>;
  const eventsUrls: Partial<Record<Environment, string>> = {};
  for (const env of ENVIRONMENTS) {
    const raw = urls[env] ?? urls[env.toLowerCase()];
    if (typeof raw === 'string' && raw) eventsUrls[env] = new URL(raw, base).toString();
  }
  return { id, key: e.key, name: typeof e.name === 'string' ? e.name : e.key, description: typeof e.description === 'string' ? e.description : '', eventsUrls };
}

function readId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' && id ? id : typeof id === 'number' ? String(id) : undefined;
}

/** `/api/action/<id>`, `/api/actions/<id>`, absolute or relative, with or without a trailing slash. */
export function idFromLocation(location: string): string | undefined {
  const path = new URL(location, 'http://placeholder').pathname.replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last ? decodeURIComponent(last) : undefined;
}

function unwrapList(body: unknown): unknown[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['items', 'actions', 'events', 'data', 'results']) if (Array.isArray(b[key])) return b[key] as unknown[];
  return undefined;
}

function nextLink(header: string | undefined, from: URL): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    if (match?.[1] && /rel="?next"?/i.test(match[2] ?? '')) return new URL(match[1], from).toString();
  }
  return undefined;
}

function readCapabilities(body: unknown): Capabilities {
  const ext = (typeof body === 'object' && body !== null ? (body as Record<string, unknown>).extensions : undefined) as Record<string, unknown> | undefined;
  if (!ext) return NO_CAPABILITIES;
  const paging = ext.eventsPaging as Record<string, unknown> | undefined;
  const poll = ext.eventsLongPoll as Record<string, unknown> | undefined;
  return {
    getAction: ext.getAction === true,
    getImplementation: ext.getImplementation === true,
    run: ext.run === true,
    eventsPaging:
      paging && typeof paging.limitParam === 'string' && typeof paging.cursorParam === 'string'
        ? { limitParam: paging.limitParam, cursorParam: paging.cursorParam, maxLimit: typeof paging.maxLimit === 'number' ? paging.maxLimit : 100 }
        : undefined,
    eventsLongPoll:
      poll && typeof poll.waitParam === 'string' ? { waitParam: poll.waitParam, maxWaitSeconds: typeof poll.maxWaitSeconds === 'number' ? poll.maxWaitSeconds : 20 } : undefined,
  };
}

function parseJson(operation: Operation, text: string): unknown {
  if (!text.trim()) throw protocol(operation, 'the body is empty');
  try {
    return JSON.parse(text);
  } catch {
    throw protocol(operation, 'the body is not JSON');
  }
}

function tryJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function protocol(operation: Operation, message: string): ApiError {
  return new ApiError({ kind: 'protocol', operation, serverMessage: message });
}
