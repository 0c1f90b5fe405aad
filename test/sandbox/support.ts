import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox';
import { Changes } from '../../src/sandbox/http/changes';
import { actionMetadata, twoNumbers } from '../support/metadata';
import { testDatabaseUrl } from './backend';

export const ROOT = path.join(__dirname, '..', '..');

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/**
 * A sandbox with one or more applications and a request helper bound to a key. In the PostgreSQL
 * run (backend.ts) it keeps its data in a new database of the run's cluster, unless the test gives
 * it a data directory or a database of its own.
 */
export async function withSandbox(options: SandboxOptions = {}): Promise<Sandbox & { request: Requester }> {
  const databaseUrl = options.dataDir === undefined && options.databaseUrl === undefined ? await testDatabaseUrl() : undefined;
  const sandbox = await startSandbox({
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    applications: [
      { id: 'app-a', name: 'App A' },
      { id: 'app-b', name: 'App B' },
    ],
    log: () => undefined,
    ...options,
  });
  return Object.assign(sandbox, { request: requester(sandbox.url) });
}

/** Long polls held by the sandboxes of this process, from `watchLongPolls()` until `dispose()`. */
export interface LongPolls {
  /** How many wait now for a change (a request that has passed its checks and is held). */
  readonly held: number;
  dispose(): void;
}

/**
 * Counts the long polls the sandboxes started in this process hold, as they begin and end waiting:
 * a test sends what should wake one once it is held, which no pause can promise on a busy machine.
 */
export function watchLongPolls(): LongPolls {
  const original = Object.getOwnPropertyDescriptor(Changes.prototype, 'wait')!;
  const wait = Changes.prototype.wait;
  let held = 0;
  Changes.prototype.wait = function (this: Changes, ...args: Parameters<Changes['wait']>) {
    held++;
    return wait.apply(this, args).finally(() => held--);
  };
  return {
    get held() {
      return held;
    },
    dispose: () => Object.defineProperty(Changes.prototype, 'wait', original),
  };
}

export type Requester = (
  method: string,
  path: string,
  init?: { key?: string | null; json?: unknown; body?: string | Buffer; type?: string; headers?: Record<string, string> },
) => Promise<Reply>;

export function requester(base: string): Requester {
  return async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key) headers.Authorization = `Bearer ${init.key}`;
    let body: string | Buffer | undefined = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['Content-Type'] = 'application/json';
    }
    if (init.type) headers['Content-Type'] = init.type;
    const response = await fetch(base + path, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}

export function metadata(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { key, ...rest } = actionMetadata({ key: 'add', name: 'Add', description: 'Adds two numbers.', parameters: twoNumbers(), result: { type: 'number' } });
  // `key` first, as the server gives it back: some tests compare what they sent and what they read as JSON text.
  return { key, ...rest, ...overrides };
}

const openapi = parse(readFileSync(path.join(ROOT, 'docs', 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(openapi, 'openapi');

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Checks a reply against docs/openapi.yaml: the status is documented, and a body matches its schema. */
export function assertMatchesSpec(method: string, template: string, reply: Reply): void {
  const operation = openapi.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`docs/openapi.yaml has no ${method} ${template}`);
  let response = operation.responses[String(reply.status)] as { $ref?: string; content?: Record<string, unknown> } | undefined;
  if (!response) throw new Error(`docs/openapi.yaml does not document ${reply.status} for ${method} ${template}`);
  let base = `openapi#/${pointer('paths', template, method.toLowerCase(), 'responses', String(reply.status))}`;
  if (response.$ref) {
    const name = response.$ref.split('/').pop()!;
    base = `openapi#/components/responses/${name}`;
    response = (openapi as unknown as { components: { responses: Record<string, { content?: Record<string, unknown> }> } }).components.responses[name];
  }
  const type = (reply.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response?.content) {
    if (reply.text !== '') throw new Error(`${method} ${template} ${reply.status} should have no body`);
    return;
  }
  if (!(type in response.content)) throw new Error(`${method} ${template} ${reply.status}: content type ${type} is not documented`);
  const body = type === 'application/typescript' ? reply.text : reply.json;
  const ref = `${base}/${pointer('content', type, 'schema')}`;
  const validate = compiled.get(ref) ?? ajv.compile({ $ref: ref });
  compiled.set(ref, validate);
  if (!validate(body))
    throw new Error(`${method} ${template} ${reply.status} does not match docs/openapi.yaml: ${ajv.errorsText(validate.errors)}\n${reply.text.slice(0, 500)}`);
}
