/**
 * What travels over the REST interface besides the metadata: paths, the list entry, events, the
 * problem body and the extensions the sandbox offers. The sandbox produces exactly these shapes; the
 * client reads them tolerantly, because a real server may choose differently where the spec is silent.
 */
import type { ActionMetadata, Environment } from './metadata';

export const paths = {
  /** Spec §4 #1 and #5. */
  applicationActions: (applicationId: string) => `/api/application/${enc(applicationId)}/actions`,
  /** Spec §4 #2 and #4; GET here is an extension. */
  action: (actionId: string) => `/api/actions/${enc(actionId)}`,
  /** The Location header of a create, as the spec shows it (singular "action"). */
  createdLocation: (actionId: string) => `/api/action/${enc(actionId)}`,
  /** Spec §4 #3; GET here is an extension. */
  implementation: (actionId: string) => `/api/actions/${enc(actionId)}/implementation`,
  /** Spec §4 #6. */
  events: (actionId: string, environmentId: string) => `/api/actions/${enc(actionId)}/environments/${enc(environmentId)}/events`,
  /** Extension: the capability document. */
  index: () => '/api',
} as const;

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

/** The run extension lives beside an environment's events list: same path with `/runs` for `/events`. */
export function runsUrlFromEventsUrl(eventsUrl: string): string | undefined {
  const match = /\/events(?=$|[?#])/.exec(eventsUrl);
  return match ? eventsUrl.slice(0, match.index) + '/runs' : undefined;
}

export const MEDIA_TYPES = {
  json: 'application/json',
  list: 'application/vnd.restful+json',
  typescript: 'application/typescript',
  problem: 'application/problem+json',
} as const;

/** Spec §2.4. */
export interface ActionListEntry {
  key: string;
  name: string;
  description: string;
  id: string;
  eventsUrls: Record<Environment, string>;
  /** Extension (docs/api.md): each part's current `ETag`, as its GET sends it; `null` for an action without code. */
  etags?: { metadata: string; implementation: string | null };
}

/** Extension: GET of one action (spec metadata plus what the list entry adds). */
export interface ActionResource extends ActionMetadata {
  id: string;
  eventsUrls: Record<Environment, string>;
  hasImplementation?: boolean;
  updatedAt?: string;
}

/** The sandbox's log entry (spec §6 leaves it open): one `console.*` call. `time` in ms since the epoch. */
export interface LogEntry {
  time: number;
  level: 'debug' | 'info' | 'log' | 'warn' | 'error';
  message: string;
}

/** Spec §6. Times in milliseconds: `startTime` since the epoch, `duration` elapsed. */
export interface ActionEvent {
  id: string;
  name: 'success' | 'failure';
  data: {
    timings: { duration: number; startTime: number };
    logs: LogEntry[];
    /** What main returned (success). */
    result?: unknown;
    /** Why the run failed (failure). */
    error?: { name?: string; message: string; stack?: string; code?: string };
    [extra: string]: unknown;
  };
}

/** RFC 9457 problem details with a stable machine code and, for validation, the failing fields. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: ProblemCode;
  errors?: { path: string; message: string }[];
}

export type ProblemCode =
  | 'unauthorized'
  | 'not-found'
  | 'method-not-allowed'
  | 'unsupported-media-type'
  | 'not-acceptable'
  | 'malformed-json'
  | 'payload-too-large'
  | 'validation-failed'
  | 'key-conflict'
  /** A count limit (such as actions per application) is reached. */
  | 'limit-reached'
  | 'invalid-code'
  | 'no-implementation'
  | 'invalid-inputs'
  | 'invalid-query'
  | 'too-many-requests'
  /** Extension: an If-Match named a version of the code or metadata that is no longer the current one. */
  | 'precondition-failed'
  | 'internal';

/** Extension: the capability document at GET /api. A server without it offers only the spec's operations. */
export interface CapabilityIndex {
  service: string;
  version: string;
  extensions: {
    /** GET /api/actions/{id} and GET /api/action/{id} return an ActionResource. */
    getAction?: boolean;
    /** GET /api/actions/{id}/implementation returns the code. */
    getImplementation?: boolean;
    /** POST {events URL with /runs for /events} with RunRequest runs main and records an event. */
    run?: boolean;
    /** The events list takes `limit` and `cursor` and sends `Link: <…>; rel="next"`. */
    eventsPaging?: { limitParam: string; cursorParam: string; maxLimit: number };
    /** The events list answers If-None-Match with 304 and, given `wait` seconds, holds the request until something changes. */
    eventsLongPoll?: { waitParam: string; maxWaitSeconds: number };
    /**
     * GET of an action and of its implementation sends `ETag`; PUT of either with `If-Match` answers
     * 412 `precondition-failed` (with the current `ETag`) when it changed since, so checking for a
     * colleague's change and writing are one step. `firstWrite`: a code PUT with `If-None-Match: *`
     * is written only while the action has no code, so a new action's first code is checked too.
     */
    conditionalWrites?: { header: 'If-Match'; resources: ('metadata' | 'implementation')[]; firstWrite?: 'If-None-Match' };
    /** GET /api/actions/{id}/versions lists the accepted writes of code and metadata, newest first; each can be read back. */
    versions?: { maxKeptPerKind: number };
  };
}

/** Extension: one accepted write of an action's code or metadata, as GET …/versions lists it. */
export interface ActionVersion {
  kind: 'implementation' | 'metadata';
  /** 1, 2, … per kind and action; the `ETag` the write answered with names the same version. */
  version: number;
  etag: string;
  /** ISO 8601. */
  createdAt: string;
  /** Length of the content in UTF-8 bytes. */
  size: number;
  /** The client that wrote it, as its User-Agent said (at most 200 characters; untrusted text). */
  client?: string;
}

export interface ActionVersionList {
  versions: ActionVersion[];
}

export interface RunRequest {
  /** In parameter order, or by parameter name. */
  inputs: unknown[] | Record<string, unknown>;
}

export interface RunResponse {
  event: ActionEvent;
}
