import { type ServerResponse } from 'node:http';
import { MEDIA_TYPES, type ProblemCode, type ProblemDetails } from '../../core/schema';

const TITLES: Record<ProblemCode, string> = {
  unauthorized: 'Missing or unknown API key',
  'not-found': 'Not found',
  'method-not-allowed': 'Method not allowed',
  'unsupported-media-type': 'Unsupported media type',
  'not-acceptable': 'Not acceptable',
  'malformed-json': 'Malformed JSON',
  'payload-too-large': 'Payload too large',
  'validation-failed': 'Invalid metadata',
  'key-conflict': 'Key already used',
  'limit-reached': 'Limit reached',
  'invalid-code': 'Invalid code',
  'no-implementation': 'No implementation',
  'invalid-inputs': 'Invalid inputs',
  'invalid-query': 'Invalid query parameter',
  'too-many-requests': 'Too many requests',
  'precondition-failed': 'Changed since your version',
  internal: 'Internal error',
};

/** A request the sandbox refuses: thrown by handlers, answered as RFC 9457 problem details. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: { path: string; message: string }[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toBody(): ProblemDetails {
    return {
      type: problemType(this.code),
      title: TITLES[this.code],
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

/** The `type` URI of a code: relative, resolved against the sandbox's URL; docs/api.md lists them all. */
export function problemType(code: ProblemCode): string {
  return `/api/problems/${code}`;
}

export function sendProblem(res: ServerResponse, problem: HttpProblem): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(problem.toBody());
  res.writeHead(problem.status, {
    ...problem.headers,
    'Content-Type': MEDIA_TYPES.problem,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

export const notFound = (what: string) => new HttpProblem(404, 'not-found', what);
