import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import {
  type ActionResource,
  type ActionVersion,
  type ActionVersionList,
  formatPath,
  MEDIA_TYPES,
  paths,
  type RunResponse,
  validateMetadata,
} from '../../core/schema';
import { bearerToken } from '../keys';
import { compile } from '../runner/compile';
import { checkInputs } from '../runner/inputs';
import { toEvent } from '../runner/event';
import { type ActionRow, StoreConflict } from '../store/store';
import { etagOf, type VersionKind } from '../store/versions';
import { contentType, decodeText, readBody, readJson } from './body';
import { applyCors } from './cors';
import { capabilityIndex } from './capabilities';
import { changeKey } from './changes';
import { listEvents } from './events';
import { clientOf, expectedFrom } from './preconditions';
import { HttpProblem, notFound, sendProblem } from './problem';
import { sendEmpty, sendJson, sendJsonText } from './respond';
import { addressClient, keyClient } from './rateLimit';
import { type Lifecycle, type ServerContext } from './context';
import { type Match, route } from './router';

export { type Lifecycle, type ServerContext } from './context';

/** A certificate chain and its private key, PEM: the sandbox then speaks HTTPS itself. */
export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

export function newLifecycle(): Lifecycle {
  return { stopping: false, inflight: new Set() };
}

/** Media types accepted for the implementation: the spec's, and plain text for clients that know no better. */
export const CODE_MEDIA_TYPES = [MEDIA_TYPES.typescript, 'text/typescript', 'application/x-typescript', 'text/plain'];

export function createSandboxServer(ctx: ServerContext, tls?: TlsFiles): Server {
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const lifecycle = ctx.lifecycle;
    if (!lifecycle) return void handle(ctx, req, res);
    if (lifecycle.stopping) res.shouldKeepAlive = false;
    const handled = handle(ctx, req, res).finally(() => lifecycle.inflight.delete(handled));
    lifecycle.inflight.add(handled);
  };
  // An https.Server is an http.Server to everything that uses it here (timeouts, closing connections).
  const server: Server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, listener) : createServer(listener);
  // Long polls last up to maxWaitSeconds; the default request timeout must not cut them.
  server.requestTimeout = (ctx.limits.maxWaitSeconds + 30) * 1000;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    // First: every answer after this, errors included, carries the CORS headers of an allowed origin.
    if (applyCors(ctx.corsOrigins ?? [], req, res)) return;
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    let match: Match;
    try {
      match = route(req.method ?? 'GET', url.pathname);
    } catch (error) {
      await limitRate(ctx, req, addressClient(req.socket.remoteAddress));
      throw error;
    }
    // A load balancer asks often and holds no key: the health check is not counted against a rate.
    if (match.name === 'health') return await health(ctx, res);
    if (match.name === 'index') {
      await limitRate(ctx, req, addressClient(req.socket.remoteAddress));
      return sendJson(res, 200, capabilityIndex(ctx.limits));
    }
    const applicationId = await authenticate(ctx, req);
    await dispatch(ctx, req, res, url, match, applicationId);
  } catch (error) {
    if (error instanceof HttpProblem) return sendProblem(res, error);
    ctx.log(`unexpected error on ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    sendProblem(res, new HttpProblem(500, 'internal', 'the sandbox failed to answer; its log has the details'));
  }
}

/**
 * For a load balancer, without a key: 200 while this process can serve (its database answers), 503
 * when the database does not or the process is stopping. The body tells which, and nothing else:
 * the database's own error could name hosts, and anyone may ask.
 */
async function health(ctx: ServerContext, res: ServerResponse): Promise<void> {
  if (ctx.lifecycle?.stopping) return sendJson(res, 503, { status: 'stopping', database: 'unknown' });
  const up = await ctx.store.healthy();
  sendJson(res, up ? 200 : 503, { status: up ? 'ok' : 'unavailable', database: up ? 'ok' : 'unreachable' });
}

async function authenticate(ctx: ServerContext, req: IncomingMessage): Promise<string> {
  const header = req.headers.authorization;
  const token = bearerToken(header);
  const applicationId = token ? await ctx.store.applicationOfKey(token) : undefined;
  if (applicationId) {
    await limitRate(ctx, req, keyClient(token!));
    return applicationId;
  }
  await limitRate(ctx, req, addressClient(req.socket.remoteAddress));
  // Answer before the body arrives; the connection closes so an unread body does not linger.
  req.resume();
  throw new HttpProblem(401, 'unauthorized', header ? 'the API key is not known' : 'send Authorization: Bearer <key>', undefined, {
    'WWW-Authenticate': header ? 'Bearer realm="custom-actions", error="invalid_token"' : 'Bearer realm="custom-actions"',
  });
}

/** Refuses the request with 429 when its client has used up its allowance (ctx.rateLimiter). */
async function limitRate(ctx: ServerContext, req: IncomingMessage, client: string): Promise<void> {
  const waitSeconds = await ctx.rateLimiter?.take(client);
  if (waitSeconds === undefined) return;
  req.resume();
  throw new HttpProblem(
    429,
    'too-many-requests',
    `more than ${ctx.limits.requestsPerMinute} requests a minute from this client; try again in ${waitSeconds} s`,
    undefined,
    { 'Retry-After': String(waitSeconds) },
  );
}

async function dispatch(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL, match: Match, applicationId: string): Promise<void> {
  const { store, limits } = ctx;
  const p = match.params;
  switch (match.name) {
    case 'listActions': {
      await ownApplication(ctx, p.applicationId!, applicationId);
      const app = (await store.application(applicationId))!;
      const list = await store.listActionsJson(applicationId, (id) => eventsUrls(id, app.environments));
      return sendJsonText(res, 200, list, { 'Content-Type': `${MEDIA_TYPES.list}; charset=utf-8` });
    }
    case 'createAction': {
      await ownApplication(ctx, p.applicationId!, applicationId);
      const metadata = checkMetadata(await readJson(req, limits.jsonBodyBytes));
      const row = await conflicts('metadata', () => store.createAction(applicationId, metadata, limits.actionsPerApplication, clientOf(req)));
      return sendJson(res, 201, await resource(ctx, row), { Location: paths.createdLocation(row.id), ETag: etagOf('metadata', row.metadataVersion) });
    }
    case 'getAction': {
      const row = await ownAction(ctx, p.actionId!, applicationId);
      return sendJson(res, 200, await resource(ctx, row), { ETag: etagOf('metadata', row.metadataVersion) });
    }
    case 'updateAction': {
      await ownAction(ctx, p.actionId!, applicationId);
      const metadata = checkMetadata(await readJson(req, limits.jsonBodyBytes));
      const row = await conflicts('metadata', () => store.updateAction(p.actionId!, metadata, expectedFrom(req, 'metadata'), clientOf(req)));
      return sendJson(res, 200, await resource(ctx, row), { ETag: etagOf('metadata', row.metadataVersion) });
    }
    case 'deleteAction': {
      await ownAction(ctx, p.actionId!, applicationId);
      if (!(await store.deleteAction(p.actionId!))) throw notFound('no such action');
      ctx.changes.notifyPrefix(changeKey(p.actionId!, ''));
      return sendEmpty(res, 204);
    }
    case 'getImplementation': {
      const row = await ownAction(ctx, p.actionId!, applicationId);
      const code = await store.implementation(p.actionId!);
      if (code == null) throw new HttpProblem(404, 'no-implementation', 'the action has no code yet; PUT it to …/implementation');
      return sendCode(res, code, { ETag: etagOf('implementation', row.codeVersion) });
    }
    case 'putImplementation': {
      await ownAction(ctx, p.actionId!, applicationId);
      const { type, charset } = contentType(req);
      if (!CODE_MEDIA_TYPES.includes(type)) {
        throw new HttpProblem(415, 'unsupported-media-type', `send the code as ${MEDIA_TYPES.typescript}${type ? `, not ${type}` : ''}`);
      }
      const code = decodeText(await readBody(req, limits.codeBytes), charset);
      const compiled = compile(code);
      if (!compiled.ok) {
        const where =
          compiled.error.line === undefined
            ? CODE_FILENAME_LABEL
            : `${CODE_FILENAME_LABEL}:${compiled.error.line}${compiled.error.column ? `:${compiled.error.column}` : ''}`;
        throw new HttpProblem(400, 'invalid-code', `the code does not parse: ${compiled.error.message} (${where})`, [
          { path: compiled.error.line === undefined ? '' : `line ${compiled.error.line}`, message: compiled.error.message },
        ]);
      }
      const version = await conflicts('implementation', () => store.setImplementation(p.actionId!, code, expectedFrom(req, 'implementation'), clientOf(req)));
      if (version === undefined) throw notFound('no such action');
      return sendEmpty(res, 204, { ETag: etagOf('implementation', version) });
    }
    case 'listVersions': {
      await ownAction(ctx, p.actionId!, applicationId);
      const versions: ActionVersion[] = (await store.versions(p.actionId!)).map((v) => ({
        kind: v.kind,
        version: v.version,
        etag: etagOf(v.kind, v.version),
        createdAt: new Date(v.createdAt).toISOString(),
        size: v.size,
        ...(v.client === undefined ? {} : { client: v.client }),
      }));
      return sendJson(res, 200, { versions } satisfies ActionVersionList);
    }
    case 'getVersion': {
      await ownAction(ctx, p.actionId!, applicationId);
      const kind = p.versionKind as VersionKind;
      const content = await store.versionContent(p.actionId!, kind, Number(p.version));
      if (content === undefined) throw notFound(`no ${kind} version ${p.version} is kept for this action`);
      const headers = { ETag: etagOf(kind, Number(p.version)) };
      return kind === 'implementation' ? sendCode(res, content, headers) : sendJsonText(res, 200, content, headers);
    }
    case 'listEvents': {
      const action = await ownAction(ctx, p.actionId!, applicationId);
      const env = await store.environment(p.environmentId!);
      if (!env || env.applicationId !== action.applicationId) throw notFound('no such environment for this action');
      return listEvents(ctx, req, res, url, action, env.id);
    }
    case 'runAction':
      return runAction(ctx, req, res, p.actionId!, p.environmentId!, applicationId);
    case 'index':
      return sendJson(res, 200, capabilityIndex(limits));
    case 'health':
      return health(ctx, res);
  }
}

const CODE_FILENAME_LABEL = 'main.ts';

async function runAction(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  actionId: string,
  environmentId: string,
  applicationId: string,
): Promise<void> {
  const action = await ownAction(ctx, actionId, applicationId);
  const env = await ctx.store.environment(environmentId);
  if (!env || env.applicationId !== action.applicationId) throw notFound('no such environment for this action');
  const body = await readJson(req, ctx.limits.jsonBodyBytes);
  const inputs = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { inputs?: unknown }).inputs : undefined;
  if (inputs === undefined)
    throw new HttpProblem(400, 'invalid-inputs', 'send {"inputs": [...]} or {"inputs": {"name": value}}', [{ path: 'inputs', message: 'required' }]);
  const checked = checkInputs(action.metadata, inputs);
  if (!checked.ok) throw new HttpProblem(400, 'invalid-inputs', 'the inputs do not match the parameters', checked.problems);
  const code = await ctx.store.implementation(actionId);
  if (code == null) throw new HttpProblem(409, 'no-implementation', 'the action has no code yet; PUT it to …/implementation first');
  const outcome = await ctx.runner.run(code, checked.values, action.applicationId);
  const event = toEvent(outcome, action.metadata, checked.values);
  if (!(await ctx.store.recordEvent(actionId, env.id, event, ctx.limits.eventsPerEnvironment))) throw notFound('the action was deleted during the run');
  ctx.changes.notify(changeKey(actionId, env.id));
  const response: RunResponse = { event };
  sendJson(res, 200, response);
}

function checkMetadata(body: unknown) {
  const checked = validateMetadata(body);
  if (!checked.ok) {
    const errors = checked.problems.map((p) => ({ path: formatPath(p.path), message: p.message }));
    throw new HttpProblem(
      400,
      'validation-failed',
      `the metadata has ${errors.length} problem(s): ${errors
        .slice(0, 3)
        .map((e) => (e.path ? `${e.path}: ${e.message}` : e.message))
        .join('; ')}`,
      errors,
    );
  }
  // The server's own fields cannot be smuggled in through extra metadata fields.
  const {
    id: _id,
    eventsUrls: _urls,
    hasImplementation: _has,
    updatedAt: _updated,
    ...metadata
  } = checked.value as typeof checked.value & Record<string, unknown>;
  return metadata as typeof checked.value;
}

function sendCode(res: ServerResponse, code: string, headers: Record<string, string>): void {
  res.writeHead(200, {
    'Content-Type': `${MEDIA_TYPES.typescript}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(code),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(code);
}

async function conflicts<T>(kind: VersionKind, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof StoreConflict)) throw error;
    if (error.reason === 'not-found') throw notFound(error.message);
    if (error.reason === 'precondition-failed') {
      // The current tag, so a client can fetch what changed and retry against it.
      const headers: Record<string, string> = error.currentVersion ? { ETag: etagOf(kind, error.currentVersion) } : {};
      throw new HttpProblem(412, 'precondition-failed', error.message, undefined, headers);
    }
    throw new HttpProblem(409, error.reason, error.message, error.reason === 'key-conflict' ? [{ path: 'key', message: error.message }] : undefined);
  }
}

/** Another application's resources answer 404, exactly like missing ones: a key reveals nothing beyond its application. */
async function ownApplication(ctx: ServerContext, requested: string, applicationId: string): Promise<void> {
  if (requested !== applicationId || !(await ctx.store.application(applicationId))) throw notFound(`no application "${requested}" for this key`);
}

async function ownAction(ctx: ServerContext, actionId: string, applicationId: string): Promise<ActionRow> {
  const action = await ctx.store.action(actionId);
  if (!action || action.applicationId !== applicationId) throw notFound(`no action "${actionId}" for this key`);
  return action;
}

function eventsUrls(actionId: string, environments: { Test: string; Live: string }) {
  return { Test: paths.events(actionId, environments.Test), Live: paths.events(actionId, environments.Live) };
}

async function resource(ctx: ServerContext, row: ActionRow): Promise<ActionResource> {
  const app = await ctx.store.application(row.applicationId);
  if (!app) throw notFound('no such application');
  return {
    ...row.metadata,
    id: row.id,
    eventsUrls: eventsUrls(row.id, app.environments),
    hasImplementation: row.hasImplementation,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
