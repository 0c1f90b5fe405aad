import { connectionProblemRetryable, isConnectionProblem } from './connectionProblems';

export type ErrorKind =
  | 'auth'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'validation'
  | 'too-large'
  | 'rate-limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'protocol';

export type Operation =
  | 'listActions'
  | 'createAction'
  | 'updateAction'
  | 'putImplementation'
  | 'deleteAction'
  | 'listEvents'
  | 'capabilities'
  | 'getAction'
  | 'getImplementation'
  | 'runAction'
  | 'listVersions'
  | 'getVersion';

const LABELS: Record<Operation, string> = {
  listActions: 'Listing the actions',
  createAction: 'Creating the action',
  updateAction: 'Updating the metadata',
  putImplementation: 'Pushing the implementation',
  deleteAction: 'Deleting the action',
  listEvents: 'Listing the events',
  capabilities: 'Reading the server capabilities',
  getAction: 'Reading the action',
  getImplementation: 'Reading the implementation',
  runAction: 'Running the action',
  listVersions: 'Listing the versions',
  getVersion: 'Reading the version',
};

const HINTS: Partial<Record<ErrorKind, string>> = {
  auth: 'Sign in again with a new key.',
  forbidden: 'The key does not allow this; check its scope.',
  'not-found': 'It may have been deleted, or the key belongs to another application.',
  conflict: 'An action with this key exists already in the application.',
  validation: 'Fix the fields the server names and save again.',
  'too-large': 'The server refused the size of the request.',
  'rate-limited': 'The server asks to slow down; it will be retried later.',
  network: 'Is the server running, and is the base URL in customactions.yaml right?',
  timeout: 'The server did not answer in time; try again, or raise customActions.requestTimeoutSeconds.',
  server: 'The server failed; try again later.',
  protocol: 'The server does not speak the interface as expected; is the base URL right?',
};

/**
 * Problem codes (docs/api.md) whose words are known here: a server's detail for them speaks to an API
 * user ("PUT it to …/implementation"), not to someone in the editor.
 */
const PROBLEMS = new Map<string, { readonly reason?: string; readonly hint: string }>([
  ['limit-reached', { hint: 'The application holds as many actions as the server allows; delete one first.' }],
  [
    'untrusted-certificate',
    {
      hint: "Add the certificate authority that signs the server's certificate (your company's) to the system's certificates, or name its PEM file in NODE_EXTRA_CA_CERTS.",
    },
  ],
  ['certificate-name', { hint: "Use the host name the server's certificate is made for in the base URL." }],
  ['certificate-dates', { hint: "The server's certificate must be renewed, or this machine's clock set right." }],
  ['proxy-setting', { hint: 'Fix http.proxy (or HTTPS_PROXY / HTTP_PROXY): http://host:port, or http://user:password@host:port.' }],
  ['proxy-auth', { hint: "Put the proxy's user name and password in http.proxy: http://user:password@host:port." }],
  ['proxy-refused', { hint: "The proxy may not allow this server: ask for it, or list the server's host in http.noProxy." }],
  [
    'no-implementation',
    { reason: 'the action has no code on the server yet', hint: 'Save its main.ts or run "Custom Actions: Push Implementation", then try again.' },
  ],
]);

/** A 409 means a taken key only where a key is written: create, or an update that says so. */
function conflictHint(operation: Operation, code: string | undefined): string | undefined {
  return operation === 'createAction' || code === 'key-conflict' ? HINTS.conflict : undefined;
}

export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/** Every failure of the client: what was being done, what the server said, and what may fix it. Never holds the key. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ErrorKind;
  readonly operation: Operation;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly fields: readonly FieldProblem[];
  readonly hint: string | undefined;
  readonly retryable: boolean;
  /** How long the server asked to wait (Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    kind: ErrorKind;
    operation: Operation;
    status?: number;
    code?: string;
    serverMessage?: string;
    fields?: readonly FieldProblem[];
    retryAfterMs?: number;
    hint?: string;
  }) {
    const problem = init.code === undefined ? undefined : PROBLEMS.get(init.code);
    const reason = problem?.reason ?? init.serverMessage ?? defaultReason(init.kind, init.status);
    const fields = init.fields?.length ? ` (${init.fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ')})` : '';
    // No `cause`: a transport error may carry the request, and with it the Authorization header.
    super(`${LABELS[init.operation]} failed${init.status ? ` (HTTP ${init.status})` : ''}: ${reason}${fields}`);
    this.kind = init.kind;
    this.operation = init.operation;
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.fields = init.fields ?? [];
    // A 409 is not always a taken key: a full application and a run of an action without code answer it too.
    this.hint = init.hint ?? problem?.hint ?? (init.kind === 'conflict' ? conflictHint(init.operation, init.code) : HINTS[init.kind]);
    this.retryAfterMs = init.retryAfterMs;
    // 501 says the server will never do it, so asking again is pointless; so is a connection problem a person must mend.
    const mendable = isConnectionProblem(init.code) && !connectionProblemRetryable(init.code);
    this.retryable = (['network', 'timeout', 'rate-limited'].includes(init.kind) && !mendable) || (init.kind === 'server' && init.status !== 501);
  }
}

/**
 * The server handed back a URL (an events URL, a Location, a next page) on another origin than the
 * base URL's: the key is sent to the base URL's origin only, so the URL was refused before anything
 * was sent to it. Not retried: the same answer would point to the same place.
 */
export class ForeignOriginError extends ApiError {
  /** Where the server pointed: an origin, or the scheme of a URL that has none. */
  readonly target: string;
  readonly baseOrigin: string;

  constructor(operation: Operation, target: URL, base: URL) {
    const where = /^https?:$/.test(target.protocol) ? target.origin : `a ${target.protocol} URL`;
    super({
      kind: 'protocol',
      operation,
      serverMessage: `the server pointed to ${where}, another origin than the base URL's (${base.origin}); nothing was sent there`,
      hint: 'The key only ever goes to the base URL in customactions.yaml. If the server moved, change the base URL; otherwise the server names the wrong address for itself.',
    });
    this.target = where;
    this.baseOrigin = base.origin;
  }
}

export function kindOfStatus(status: number): ErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not-found';
  // 412: a conditional write found the version it was based on replaced (docs/client.md).
  if (status === 409 || status === 412) return 'conflict';
  if (status === 413) return 'too-large';
  if (status === 429) return 'rate-limited';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  // The request was not understood as sent (method, media type, redirect): a mismatch, not bad input.
  if (status === 405 || status === 406 || status === 415 || (status >= 300 && status < 400)) return 'protocol';
  return 'validation';
}

function defaultReason(kind: ErrorKind, status: number | undefined): string {
  switch (kind) {
    case 'network':
      return 'the server could not be reached';
    case 'timeout':
      return 'no answer in time';
    case 'cancelled':
      return 'cancelled';
    case 'protocol':
      return 'the server answered with something unexpected';
    default:
      return status ? `the server answered ${status}` : 'unknown error';
  }
}
