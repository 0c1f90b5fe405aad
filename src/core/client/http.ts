import { connectionProblem } from './connectionProblems';
import { ApiError, kindOfStatus, type ErrorKind, type FieldProblem, type Operation } from './errors';
import { strongEtag } from './etags';
import { redactKey } from './redact';
import { defaultTransport, TRANSPORT_ERROR, type Transport } from './transport';
import { onBaseOrigin } from './urls';
import { VersionConflictError } from './versionConflict';

export interface HttpOptions {
  /** Requests go to this URL's origin and no other. */
  readonly base: URL;
  readonly getKey: () => Promise<string | undefined>;
  readonly timeoutMs: number;
  /** How many times an idempotent request is tried again after a transient failure. */
  readonly retries: number;
  /**
   * `timeoutMs` bounds a request with all its tries together (the command line's `--timeout`: a wait
   * a person or a pipeline set), rather than each try (the editor's, whose retries ride out a blip).
   */
  readonly timeoutCoversRetries?: boolean;
  readonly userAgent: string;
  /** How requests are sent; the process's default (`setDefaultTransport`) when not given. */
  readonly transport?: Transport | undefined;
}

export interface HttpRequest {
  readonly operation: Operation;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: URL;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly signal?: AbortSignal | undefined;
  /** 304 is an answer, not an error, for conditional GETs. */
  readonly acceptNotModified?: boolean;
  /** Overrides the time-out, e.g. for a long poll. */
  readonly timeoutMs?: number;
  /** Error statuses that mean success when they answer a retry (404 for DELETE). */
  readonly successAfterRetry?: readonly number[];
  /** Called before each retry: an answer to a retry may then be about the earlier try (a conditional write). */
  readonly onRetry?: () => void;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly text: string;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);
const MAX_BODY = 64 * 1024 * 1024;
/** A try given less than this before the deadline is not worth sending. */
const MIN_TRY_MS = 100;

export class Http {
  constructor(private readonly options: HttpOptions) {}

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** Sends a request; idempotent ones are retried with backoff and jitter on transient failures. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const retries = IDEMPOTENT.has(request.method) ? this.options.retries : 0;
    const deadline = this.options.timeoutCoversRetries ? Date.now() + (request.timeoutMs ?? this.options.timeoutMs) : undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(deadline === undefined || attempt === 0 ? request : { ...request, timeoutMs: Math.max(1, deadline - Date.now()) });
      } catch (error) {
        // A retried DELETE whose first try went through (answer lost) finds nothing: that is done.
        if (attempt > 0 && error instanceof ApiError && error.status !== undefined && request.successAfterRetry?.includes(error.status)) {
          return { status: error.status, headers: {}, text: '' };
        }
        if (!(error instanceof ApiError) || !error.retryable || attempt >= retries) throw error;
        const wait = backoff(attempt, error.retryAfterMs);
        // No try that could not end before the deadline: the failure as it is now.
        if (deadline !== undefined && Date.now() + wait + MIN_TRY_MS > deadline) throw error;
        await sleep(wait, request);
        request.onRetry?.();
      }
    }
  }

  /** One try, no retry: for requests whose repetition must be decided by the caller (create). */
  async once(request: HttpRequest): Promise<HttpResponse> {
    if (request.signal?.aborted) throw cancelled(request);
    // Before the key is even read: a URL elsewhere gets nothing.
    const url = onBaseOrigin(this.options.base, request.url, request.operation);
    const key = await this.options.getKey();
    if (!key) throw new ApiError({ kind: 'auth', operation: request.operation, serverMessage: 'no key is stored for this application' });
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    // Outside the try: a process that set no transport is a programming error, not a network failure.
    const transport = this.options.transport ?? defaultTransport();
    let response;
    try {
      response = await transport.request({
        url,
        method: request.method,
        headers: {
          accept: 'application/json',
          'user-agent': this.options.userAgent,
          ...lowerCased(request.headers),
          authorization: `Bearer ${key}`,
        },
        body: request.body,
        signal,
        timeoutMs,
        maxBodyBytes: MAX_BODY,
      });
    } catch (error) {
      throw transportError(error, request, key);
    }
    const { status, headers, text } = response;
    if ((status >= 200 && status < 300) || (status === 304 && request.acceptNotModified)) return { status, headers, text };
    throw statusError(request.operation, status, headers, text, key);
  }
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

function transportError(error: unknown, request: HttpRequest, key: string): ApiError {
  // DOMExceptions carry a numeric code; a transport's errors a string one (transport.ts).
  const rawCode = (error as { code?: unknown }).code;
  const code = typeof rawCode === 'string' ? rawCode : '';
  let kind: ErrorKind = 'network';
  if (request.signal?.aborted) kind = 'cancelled';
  // The caller did not cancel, so what aborted the request was its time-out.
  else if (code === TRANSPORT_ERROR.timeout || code === TRANSPORT_ERROR.aborted || code.includes('TIMEOUT')) kind = 'timeout';
  else if (code === TRANSPORT_ERROR.bodyTooLarge || code === TRANSPORT_ERROR.redirect) kind = 'protocol';
  const message = error instanceof Error ? redactKey(error.message, key) : undefined;
  const problem = kind === 'network' ? connectionProblem(code, message) : undefined;
  if (problem) return new ApiError({ kind, operation: request.operation, code: problem.problem, serverMessage: problem.reason });
  if (code === TRANSPORT_ERROR.redirect)
    return new ApiError({ kind, operation: request.operation, serverMessage: 'the server answered with a redirect, which is not followed' });
  const detail = kind === 'network' ? `${code || 'connection failed'}${message && !message.includes(code) ? ` (${message})` : ''}` : undefined;
  return new ApiError({ kind, operation: request.operation, serverMessage: detail });
}

/** Reads what a server says about a failure, in any of the forms servers use: problem JSON, other JSON, text, nothing. */
export function statusError(operation: Operation, status: number, headers: Record<string, string | undefined>, text: string, key?: string): ApiError {
  let serverMessage: string | undefined;
  let code: string | undefined;
  let fields: FieldProblem[] = [];
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const body = JSON.parse(trimmed) as Record<string, unknown>;
      serverMessage = firstString(
        body.detail,
        body.message,
        body.error_description,
        body.title,
        typeof body.error === 'string' ? body.error : (body.error as Record<string, unknown> | undefined)?.message,
      );
      code = firstString(body.code, typeof body.error === 'string' ? undefined : (body.error as Record<string, unknown> | undefined)?.code);
      fields = readFields(body.errors ?? body['invalid-params'] ?? body.fields);
    } catch {
      serverMessage = trimmed.slice(0, 300);
    }
  } else if (trimmed && !trimmed.startsWith('<')) {
    serverMessage = trimmed.slice(0, 300);
  }
  if (serverMessage === undefined && status >= 300 && status < 400 && headers.location) serverMessage = `redirected to ${headers.location}`;
  const retryAfterMs = parseRetryAfter(headers['retry-after']);
  const init = {
    kind: kindOfStatus(status),
    operation,
    status,
    ...(code === undefined ? {} : { code: redactKey(code, key) }),
    ...(serverMessage === undefined ? {} : { serverMessage: redactKey(serverMessage, key) }),
    fields: fields.map((f) => ({ path: redactKey(f.path, key), message: redactKey(f.message, key) })),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
  // A refused conditional write names the version that holds now, for the next write to be based on.
  return status === 412 ? new VersionConflictError({ ...init, currentEtag: strongEtag(headers.etag) }) : new ApiError(init);
}

function readFields(raw: unknown): FieldProblem[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item): FieldProblem[] => {
    if (typeof item === 'string') return [{ path: '', message: item }];
    if (typeof item !== 'object' || item === null) return [];
    const r = item as Record<string, unknown>;
    const path = firstString(r.path, r.pointer, r.field, r.name) ?? '';
    const message = firstString(r.message, r.reason, r.detail) ?? 'invalid';
    return [{ path, message }];
  });
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim()) return v.trim();
  return undefined;
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff with full jitter, capped; a server's Retry-After wins (up to 30 s). */
export function backoff(attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, 30_000);
  const ceiling = Math.min(5_000, 250 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function cancelled(request: HttpRequest): ApiError {
  return new ApiError({ kind: 'cancelled', operation: request.operation });
}

/** Waits before a retry; cancelling ends the wait at once, with the cancellation. */
function sleep(ms: number, request: HttpRequest): Promise<void> {
  const signal = request.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(request));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(cancelled(request));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
