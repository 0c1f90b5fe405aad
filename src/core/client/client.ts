import { codeHash, metadataHash } from '../contentHash';
import { type ActionMetadata, type Environment, MEDIA_TYPES, paths, runsUrlFromEventsUrl } from '../schema';
import { type Capabilities, NO_CAPABILITIES, readCapabilities } from './capabilities';
import { ApiError, type Operation } from './errors';
import { strongEtag } from './etags';
import { Http, type HttpRequest, type HttpResponse } from './http';
import { normalizeEvent, type NormalizedEvent } from './normalizeEvent';
import { type ListedAction, parseJson, protocol, readId, readList, readListEntry, readResource, record, type RemoteAction, tryJson } from './readers';
import { apiUrl, idFromLocation, nextLink, normalizeBase, onBaseOrigin, resolveServerUrl } from './urls';
import { type Transport } from './transport';
import { VersionConflictError, type VersionedResource } from './versionConflict';
import { readVersionList, readVersionMetadata, type VersionContent, type VersionEntry, type VersionKind, versionNumber } from './versions';

export interface ClientOptions {
  readonly baseUrl: string;
  /** Read on every request, so a key entered meanwhile takes effect at once. */
  readonly getKey: () => Promise<string | undefined>;
  /** Per request (each try); a long poll adds its wait to it. */
  readonly timeoutMs?: number;
  /** How many times an idempotent request is sent again after a transient failure. */
  readonly retries?: number;
  /** `timeoutMs` bounds a request with its retries together, not each try (`HttpOptions`). */
  readonly timeoutCoversRetries?: boolean;
  readonly userAgent?: string;
  /** How requests are sent (a test's own); the process's default transport when not given. */
  readonly transport?: Transport;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface WriteOptions extends CallOptions {
  /**
   * The version the write is based on: an `etag` this server returned for the same part of the same
   * action. A server that offers conditional writes (`capabilities().conditionalWrites`) then writes
   * only if that is still its version, and otherwise the write fails with a VersionConflictError; one
   * that does not ignores it and writes anyway.
   */
  readonly ifMatch?: string;
  /**
   * `'*'`: write only if the part does not exist yet (a new action's first code). Only a server that
   * offers it (`conditionalWrites.firstImplementation`) checks it; it is ignored when `ifMatch` is given.
   */
  readonly ifNoneMatch?: '*';
}

/** What a write of code or metadata left on the server. */
export interface WriteResult {
  /** The version the server now holds, when it tags versions: the base of the next conditional write. */
  readonly etag: string | undefined;
  /**
   * The server refused the conditional write (412) but holds exactly what was sent, so nothing was
   * lost: an earlier try went through and its answer did not arrive, or someone wrote the same.
   */
  readonly alreadyHeld: boolean;
}

/** An action's resource with the version of its metadata. */
export interface VersionedAction {
  readonly action: RemoteAction;
  /** The metadata's version tag, when the server sends one (for `updateAction(…, { ifMatch })`). */
  readonly etag: string | undefined;
}

/** An action's code with its version. */
export interface VersionedImplementation {
  /** Undefined when the action has no code yet. */
  readonly code: string | undefined;
  /** The code's version tag, when the server sends one (for `putImplementation(…, { ifMatch })`). */
  readonly etag: string | undefined;
}

export interface CreatedAction {
  readonly id: string;
  /** The Location header as sent, when there was one. */
  readonly location: string | undefined;
  /** The created action, when the server sent it back in the body. */
  readonly resource: RemoteAction | undefined;
  /** True when an ambiguous failure was resolved by finding the action in the list. */
  readonly recovered: boolean;
  /** The metadata's first version tag, when the server sent one (not after a recovery). */
  readonly etag: string | undefined;
}

export interface EventsQuery extends CallOptions {
  /** The ETag of the previous answer: an unchanged list then comes back as `notModified`. */
  readonly etag?: string;
  readonly lastModified?: string;
  /** Sent only to servers that advertise paging; others return what they return. */
  readonly limit?: number;
  readonly cursor?: string;
  /** Seconds to hold the request open for news, on servers that advertise long polling. */
  readonly wait?: number;
}

export interface EventsPage {
  readonly events: NormalizedEvent[];
  readonly notModified: boolean;
  readonly etag: string | undefined;
  readonly lastModified: string | undefined;
  /** The cursor of the next page, for `listEvents(url, { cursor })`. */
  readonly nextCursor: string | undefined;
  /** The next page as a URL, from a `Link: <…>; rel="next"` header (usable as the events URL). */
  readonly nextUrl: string | undefined;
}

export type RunInputs = unknown[] | Record<string, unknown>;

export type CustomActionsClient = ReturnType<typeof createClient>;

/** Names servers use for a page cursor in a next link or a list wrapper, after the advertised one. */
const CURSOR_NAMES = ['cursor', 'after', 'page_token', 'pageToken', 'next'];
/** How long a run may take on the server before the client gives up on the answer. */
const RUN_TIMEOUT_MS = 120_000;

/** The six operations of the spec, and the extras a server may offer, for one application's key. */
export function createClient(options: ClientOptions) {
  const base = normalizeBase(options.baseUrl);
  const http = new Http({
    base,
    getKey: options.getKey,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 3,
    ...(options.timeoutCoversRetries ? { timeoutCoversRetries: true } : {}),
    userAgent: options.userAgent ?? 'custom-actions-vscode',
    transport: options.transport,
  });
  const url = (path: string) => apiUrl(base, path);
  const sendsJson = { 'content-type': MEDIA_TYPES.json };
  let known: Capabilities | undefined;
  let pendingCapabilities: Promise<Capabilities> | undefined;

  async function listActions(applicationId: string, o: CallOptions = {}): Promise<ListedAction[]> {
    const response = await http.send({ operation: 'listActions', method: 'GET', url: url(paths.applicationActions(applicationId)), signal: o.signal });
    return readList('listActions', response.text).flatMap((item) => {
      const entry = readListEntry(item, base);
      return entry ? [entry] : [];
    });
  }

  async function postCreate(applicationId: string, metadata: ActionMetadata, signal: AbortSignal | undefined): Promise<CreatedAction> {
    const response = await http.once({
      operation: 'createAction',
      method: 'POST',
      url: url(paths.applicationActions(applicationId)),
      headers: sendsJson,
      body: JSON.stringify(metadata),
      signal,
    });
    const location = response.headers['content-location'] && !response.headers.location ? undefined : response.headers.location;
    if (location) checkLocation(location);
    const body = tryJson(response.text);
    const idFromHeader = location ? idFromLocation(location) : undefined;
    const id = idFromHeader ?? readId(body) ?? readId(record(body).action ?? record(body).data);
    if (!id) throw new CreatedWithoutId();
    return { id, location, resource: readResource(body, base, id), recovered: false, etag: strongEtag(response.headers.etag) };
  }

  /** A create's Location is only read for its id, but one elsewhere is refused all the same; one that does not parse names no origin. */
  function checkLocation(location: string): void {
    let url: URL;
    try {
      url = resolveServerUrl(base, location);
    } catch {
      return;
    }
    onBaseOrigin(base, url, 'createAction');
  }

  /** The action with this key in the list, or undefined; a failing list counts as "don't know". */
  async function findByKey(applicationId: string, key: string, signal: AbortSignal | undefined): Promise<string | null | undefined> {
    try {
      return (await listActions(applicationId, { signal })).find((a) => a.key === key)?.id ?? null;
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'cancelled') throw error;
      return undefined;
    }
  }

  /**
   * Creates this client gave up on without learning whether they landed (application and key → the
   * hash of the metadata sent). A caller sends such a create again, and a key conflict in answer may
   * then be its own earlier create: see `createAction`.
   */
  const unsettledCreates = new Map<string, string>();

  /**
   * Never a blind retry: after a failure that may have created the action anyway (no answer, a time-out,
   * a 5xx, or a 2xx without an id), the list is searched for the key first; only when it is surely not
   * there is the POST sent once more, and a key conflict in answer to that means the first one landed.
   * When even that cannot be settled (the list unreadable), the create fails with its ambiguous error
   * and is remembered: a key conflict to the caller's next create of that key is then taken for the
   * earlier one only if the action the server holds for the key has exactly the metadata sent.
   */
  async function createAction(applicationId: string, metadata: ActionMetadata, o: CallOptions = {}): Promise<CreatedAction> {
    const slot = JSON.stringify([applicationId, metadata.key]);
    const sent = hashOrUndefined(() => metadataHash(metadata));
    const earlier = unsettledCreates.get(slot);
    try {
      const created = await createOrRecover(applicationId, metadata, o.signal);
      unsettledCreates.delete(slot);
      return created;
    } catch (error) {
      if (error instanceof OutcomeUnknown) {
        if (sent !== undefined) unsettledCreates.set(slot, sent);
        throw asError(error.error);
      }
      if (earlier === undefined || earlier !== sent || !(error instanceof ApiError && error.kind === 'conflict')) throw error;
      // A lookup that fails here throws its own error and the create stays unsettled: still unknown, not a conflict.
      const id = (await listActions(applicationId, { signal: o.signal })).find((a) => a.key === metadata.key)?.id;
      const own = id !== undefined && metadataHash((await getActionVersioned(id, { signal: o.signal })).action) === sent;
      unsettledCreates.delete(slot);
      if (own) return recovered(id);
      throw error;
    }
  }

  async function createOrRecover(applicationId: string, metadata: ActionMetadata, signal: AbortSignal | undefined): Promise<CreatedAction> {
    let first: unknown;
    try {
      return await postCreate(applicationId, metadata, signal);
    } catch (error) {
      if (!isAmbiguous(error)) throw error;
      first = error;
    }
    const found = await findByKey(applicationId, metadata.key, signal);
    if (found) return recovered(found);
    if (found === undefined) throw new OutcomeUnknown(first);
    try {
      return await postCreate(applicationId, metadata, signal);
    } catch (second) {
      const conflict = second instanceof ApiError && second.kind === 'conflict';
      if (!(isAmbiguous(second) || conflict)) throw second;
      const later = await findByKey(applicationId, metadata.key, signal);
      if (later) return recovered(later);
      // Not in the list after a key conflict: the conflict is something else (a full application).
      if (later === null && conflict) throw second;
      throw new OutcomeUnknown(later === undefined && conflict ? first : second);
    }
  }

  /** Replaces the metadata; with `ifMatch`, only if it is still that version (see *Conditional writes*). */
  async function updateAction(actionId: string, metadata: ActionMetadata, o: WriteOptions = {}): Promise<WriteResult> {
    const request: HttpRequest = {
      operation: 'updateAction',
      method: 'PUT',
      url: url(paths.action(actionId)),
      headers: sendsJson,
      body: JSON.stringify(metadata),
      signal: o.signal,
    };
    return write(request, o, { resource: 'metadata', actionId, hash: () => metadataHash(metadata) });
  }

  /** Adds or replaces the code; with `ifMatch`, only if it is still that version. */
  async function putImplementation(actionId: string, source: string, o: WriteOptions = {}): Promise<WriteResult> {
    const request: HttpRequest = {
      operation: 'putImplementation',
      method: 'PUT',
      url: url(paths.implementation(actionId)),
      headers: { 'content-type': MEDIA_TYPES.typescript, accept: MEDIA_TYPES.json },
      body: source,
      signal: o.signal,
    };
    return write(request, o, { resource: 'implementation', actionId, hash: () => codeHash(source) });
  }

  /**
   * A PUT, conditional when `ifMatch` or `ifNoneMatch` is given. Retrying one after an ambiguous
   * failure is safe (the condition stops it from replacing anything written meanwhile), but if the
   * first try went through, the retry is refused against that very write. So a 412 is only believed
   * after reading what the server holds: exactly what was sent means the write is done
   * (`alreadyHeld`); anything else is a VersionConflictError. The write itself is never sent again
   * after a 412.
   */
  async function write(
    request: HttpRequest,
    o: WriteOptions,
    sent: { resource: VersionedResource; actionId: string; hash: () => string },
  ): Promise<WriteResult> {
    const ifMatch = o.ifMatch?.trim() || undefined;
    const condition: Record<string, string> | undefined = ifMatch ? { 'if-match': ifMatch } : o.ifNoneMatch === '*' ? { 'if-none-match': '*' } : undefined;
    if (!condition) {
      const response = await http.send(request);
      return { etag: strongEtag(response.headers.etag), alreadyHeld: false };
    }
    let retried = false;
    try {
      const response = await http.send({ ...request, headers: { ...request.headers, ...condition }, onRetry: () => (retried = true) });
      return { etag: strongEtag(response.headers.etag), alreadyHeld: false };
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
      const current = await currentVersion(sent.resource, sent.actionId, request.signal);
      if (current?.hash !== undefined && current.hash === hashOrUndefined(sent.hash)) return { etag: current.etag ?? error.currentEtag, alreadyHeld: true };
      throw new VersionConflictError({
        kind: 'conflict',
        operation: error.operation,
        ...(error.status === undefined ? {} : { status: error.status }),
        ...(error.code === undefined ? {} : { code: error.code }),
        ...(error.serverMessage === undefined ? {} : { serverMessage: error.serverMessage }),
        fields: error.fields,
        currentEtag: current?.etag ?? error.currentEtag,
        baseEtag: ifMatch,
        mayBeOwnWrite: retried && current === undefined,
      });
    }
  }

  /** What the server holds now, hashed as `base.ts` does; undefined when it cannot be read or compared. */
  async function currentVersion(
    resource: VersionedResource,
    actionId: string,
    signal: AbortSignal | undefined,
  ): Promise<{ etag: string | undefined; hash: string | undefined } | undefined> {
    const o = signal ? { signal } : {};
    try {
      if (resource === 'implementation') {
        const { code, etag } = await getImplementationVersioned(actionId, o);
        return { etag, hash: code === undefined ? undefined : codeHash(code) };
      }
      const { action, etag } = await getActionVersioned(actionId, o);
      return { etag, hash: metadataHash(action) };
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'cancelled') throw error;
      // Unreadable (no GET on this server, a failure, metadata too deep to hash): the 412 stands.
      return undefined;
    }
  }

  async function deleteAction(actionId: string, o: CallOptions = {}): Promise<void> {
    await http.send({
      operation: 'deleteAction',
      method: 'DELETE',
      url: url(paths.action(actionId)),
      headers: sendsJson,
      signal: o.signal,
      successAfterRetry: [404, 410],
    });
  }

  async function listEvents(eventsUrl: string, q: EventsQuery = {}): Promise<EventsPage> {
    const target = resolveServerUrl(base, eventsUrl);
    const wantsExtras = q.limit !== undefined || q.cursor !== undefined || (q.wait !== undefined && q.wait > 0);
    const caps = wantsExtras ? await capabilitiesOrNone(q.signal) : NO_CAPABILITIES;
    const paging = caps.eventsPaging;
    if (paging && q.limit !== undefined) target.searchParams.set(paging.limitParam, String(Math.max(1, Math.min(q.limit, paging.maxLimit))));
    if (paging && q.cursor !== undefined) target.searchParams.set(paging.cursorParam, q.cursor);
    const poll = caps.eventsLongPoll;
    const wait = poll && q.wait && q.wait > 0 ? Math.min(q.wait, poll.maxWaitSeconds) : undefined;
    if (poll && wait) target.searchParams.set(poll.waitParam, String(wait));
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
      ...(wait ? { timeoutMs: http.timeoutMs + wait * 1000 } : {}),
    });
    const etag = response.headers.etag ?? q.etag;
    const lastModified = response.headers['last-modified'] ?? q.lastModified;
    const next = nextLink(response.headers.link, target);
    if (next) onBaseOrigin(base, next, 'listEvents');
    if (response.status === 304) return { events: [], notModified: true, etag, lastModified, nextCursor: undefined, nextUrl: undefined };
    const items = readList('listEvents', response.text);
    const nextCursor = cursorOf(next, caps) ?? wrapperCursor(response);
    return { events: items.map(normalizeEvent), notModified: false, etag, lastModified, nextCursor, nextUrl: next?.toString() };
  }

  /**
   * The server's extras, from its capability document, asked once per client. A server that answers
   * GET /api with anything but success offers none (cached, except for answers that may change:
   * 408, 429, 5xx); a refused key and an unreachable server are errors, not an absence.
   */
  function capabilities(o: CallOptions = {}): Promise<Capabilities> {
    if (known) return Promise.resolve(known);
    pendingCapabilities ??= fetchCapabilities().finally(() => (pendingCapabilities = undefined));
    // The fetch is shared, so one caller's cancellation must not cancel it for the others.
    return untilAborted(pendingCapabilities, o.signal, 'capabilities');
  }

  async function fetchCapabilities(): Promise<Capabilities> {
    try {
      const response = await http.send({ operation: 'capabilities', method: 'GET', url: url(paths.index()) });
      known = readCapabilities(tryJson(response.text));
      return known;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === undefined || error.kind === 'auth') throw error;
      const mayChange = error.status === 408 || error.status === 429 || error.status >= 500;
      if (!mayChange) known = NO_CAPABILITIES;
      return NO_CAPABILITIES;
    }
  }

  /** For requests that merely benefit from the extras: without a document they go out plain. */
  async function capabilitiesOrNone(signal: AbortSignal | undefined): Promise<Capabilities> {
    try {
      return await capabilities({ ...(signal ? { signal } : {}) });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'cancelled') throw error;
      return NO_CAPABILITIES;
    }
  }

  /** Extension: the whole action, metadata included (the list has no parameters or result). */
  async function getAction(actionId: string, o: CallOptions = {}): Promise<RemoteAction> {
    return (await getActionVersioned(actionId, o)).action;
  }

  /** Extension: the whole action and the version of its metadata, when the server tags versions. */
  async function getActionVersioned(actionId: string, o: CallOptions = {}): Promise<VersionedAction> {
    const response = await http.send({ operation: 'getAction', method: 'GET', url: url(paths.action(actionId)), signal: o.signal });
    const resource = readResource(parseJson('getAction', response.text), base, actionId);
    if (!resource) throw protocol('getAction', 'the action is not a JSON object');
    return { action: resource, etag: strongEtag(response.headers.etag) };
  }

  /** Extension: the code, or undefined when the action has none yet. */
  async function getImplementation(actionId: string, o: CallOptions = {}): Promise<string | undefined> {
    return (await getImplementationVersioned(actionId, o)).code;
  }

  /** Extension: the code (undefined when there is none yet) and its version, when the server tags versions. */
  async function getImplementationVersioned(actionId: string, o: CallOptions = {}): Promise<VersionedImplementation> {
    let response: HttpResponse;
    try {
      response = await http.send({
        operation: 'getImplementation',
        method: 'GET',
        url: url(paths.implementation(actionId)),
        headers: { accept: `${MEDIA_TYPES.typescript}, text/plain;q=0.9, ${MEDIA_TYPES.json};q=0.5` },
        signal: o.signal,
      });
    } catch (error) {
      // A 404 for the action itself is an error; one for its code just means there is none yet.
      if (error instanceof ApiError && error.kind === 'not-found' && error.code !== 'not-found') return { code: undefined, etag: undefined };
      throw error;
    }
    if (response.status === 204) return { code: undefined, etag: undefined };
    return { code: codeOf(response), etag: strongEtag(response.headers.etag) };
  }

  /** Extension: the kept versions of the action's code and metadata, in the server's order (newest first). */
  async function listVersions(actionId: string, o: CallOptions = {}): Promise<VersionEntry[]> {
    const response = await http.send({ operation: 'listVersions', method: 'GET', url: url(`${paths.action(actionId)}/versions`), signal: o.signal });
    return readVersionList(response.text);
  }

  /** Extension: one kept version's content, as written. */
  async function getVersion(actionId: string, kind: VersionKind, version: number, o: CallOptions = {}): Promise<VersionContent> {
    const n = versionNumber(version);
    if (n === undefined) throw new RangeError(`a version is a whole number from 1, not ${String(version)}`);
    if (kind !== 'implementation' && kind !== 'metadata') throw new RangeError(`a version is of the implementation or the metadata, not ${String(kind)}`);
    const response = await http.send({
      operation: 'getVersion',
      method: 'GET',
      url: url(`${paths.action(actionId)}/versions/${kind}/${n}`),
      headers: { accept: kind === 'implementation' ? `${MEDIA_TYPES.typescript}, text/plain;q=0.9, ${MEDIA_TYPES.json};q=0.5` : MEDIA_TYPES.json },
      signal: o.signal,
    });
    const etag = strongEtag(response.headers.etag);
    return kind === 'implementation'
      ? { kind, version: n, etag, code: codeOf(response) }
      : { kind, version: n, etag, metadata: readVersionMetadata(response.text) };
  }

  /**
   * Extension: runs main in one environment and returns the event it recorded. Takes the events URL
   * of that environment (the environment may be named too, for the message), or the list entry's
   * `eventsUrls` and the environment to pick. Never retried: a run has effects.
   */
  function runAction(eventsUrl: string, inputs: RunInputs, o?: CallOptions): Promise<NormalizedEvent>;
  function runAction(
    eventsUrls: string | Partial<Record<Environment, string>>,
    environment: Environment,
    inputs: RunInputs,
    o?: CallOptions,
  ): Promise<NormalizedEvent>;
  async function runAction(
    urls: string | Partial<Record<Environment, string>>,
    second: Environment | RunInputs,
    third?: RunInputs | CallOptions,
    fourth?: CallOptions,
  ): Promise<NormalizedEvent> {
    const named = typeof second === 'string';
    const environment = named ? second : undefined;
    const inputs = (named ? third : second) as RunInputs;
    const o = (named ? fourth : (third as CallOptions | undefined)) ?? {};
    const eventsUrl = typeof urls === 'string' ? urls : environment ? urls[environment] : undefined;
    if (!eventsUrl) throw protocol('runAction', `the action has no events URL${environment ? ` for ${environment}` : ''}`);
    const runs = runsUrlFromEventsUrl(resolveServerUrl(base, eventsUrl).toString());
    if (!runs) throw protocol('runAction', 'the events URL does not end in /events');
    const response = await http.once({
      operation: 'runAction',
      method: 'POST',
      url: new URL(runs),
      headers: sendsJson,
      body: JSON.stringify({ inputs }),
      signal: o.signal,
      timeoutMs: Math.max(http.timeoutMs, RUN_TIMEOUT_MS),
    });
    const body = record(parseJson('runAction', response.text));
    return normalizeEvent(body.event ?? body);
  }

  return {
    baseUrl: base.toString(),
    listActions,
    createAction,
    updateAction,
    putImplementation,
    deleteAction,
    listEvents,
    capabilities,
    getAction,
    getActionVersioned,
    getImplementation,
    getImplementationVersioned,
    listVersions,
    getVersion,
    runAction,
  };
}

/** A 2xx to a create that names no id: the action exists, but which one must be found by key. */
class CreatedWithoutId extends ApiError {
  constructor() {
    super({ kind: 'protocol', operation: 'createAction', serverMessage: 'the server created the action but named no id (no Location header)' });
  }
}

/** A create given up on without knowing whether it landed; `error` is what the caller gets. */
class OutcomeUnknown extends Error {
  constructor(readonly error: unknown) {
    super('the create may or may not have landed');
  }
}

function isAmbiguous(error: unknown): boolean {
  if (error instanceof CreatedWithoutId) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'network') return !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(error.serverMessage ?? '');
  return error.kind === 'timeout' || (error.kind === 'server' && error.status !== 501);
}

function recovered(id: string): CreatedAction {
  return { id, location: undefined, resource: undefined, recovered: true, etag: undefined };
}

/** A content hash, or undefined for content too deep to hash (then nothing compares equal to it). */
function hashOrUndefined(hash: () => string): string | undefined {
  try {
    return hash();
  } catch {
    return undefined;
  }
}

/** Code as text, or from `source`/`code`/`implementation` of a JSON body. */
function codeOf(response: HttpResponse): string {
  if (/json/i.test(response.headers['content-type'] ?? '')) {
    const body = record(tryJson(response.text));
    const source = body.source ?? body.code ?? body.implementation;
    if (typeof source === 'string') return source;
  }
  return response.text;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function cursorOf(next: URL | undefined, caps: Capabilities): string | undefined {
  if (!next) return undefined;
  for (const name of [caps.eventsPaging?.cursorParam, ...CURSOR_NAMES]) {
    const value = name ? next.searchParams.get(name) : null;
    if (value) return value;
  }
  return undefined;
}

function wrapperCursor(response: HttpResponse): string | undefined {
  const body = record(tryJson(response.text));
  for (const name of ['nextCursor', 'next_cursor', 'cursor']) {
    const value = body[name];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, operation: Operation): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new ApiError({ kind: 'cancelled', operation }));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new ApiError({ kind: 'cancelled', operation }));
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(asError(error));
      },
    );
  });
}
