import { type Pick } from './random';

/** One generated request. `mutates` names what a 2xx would change, so a test can tell allowed changes from leaks. */
export interface HostileRequest {
  category: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Targets {
  /** The application of `key`, and another one. */
  appId: string;
  otherAppId: string;
  key: string;
  otherKey: string;
  /** Actions of appId that no request may change. */
  protectedIds: string[];
  /** An action of otherAppId. */
  foreignId: string;
  /** The Test environment of appId. */
  envId: string;
  /** The Test environment of otherAppId. */
  foreignEnvId: string;
  /** Limits, so bodies can be made just over them. */
  jsonBodyBytes: number;
  codeBytes: number;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECT_', 'get', 'X'];

const UNICODE = [
  '\u0000',
  '\u0001',
  '\u007f',
  '\u00a0',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\uffff',
  '\ufffd',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  'e\u0301',
  '\u0130',
  'ß',
  'ﬀ',
  '\u{10ffff}',
  '𝔘𝔫𝔦',
  'ǅ',
  '\u0085',
  '\r\n',
  '\t',
];

const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE actions; --",
  '"; DELETE FROM api_keys; --',
  '$1',
  '%',
  '_',
  '\\',
  '\\x00',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e400',
  'api',
  'actions',
  'application',
  '*',
  '?',
  '#',
  '..',
  '.',
  '~',
  'CON',
  'PRN',
  'COM1',
  '/etc/passwd',
  'C:\\Windows',
];

const TRAVERSALS = [
  '..',
  '../..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e',
  '..%2f..%2fapi',
  '%2F',
  '%252e%252e',
  '..%5c..',
  '%c0%ae%c0%ae',
  '.%00.',
  '%00',
  '%ff',
  '%e2%80%ae',
  '%ED%A0%80',
  '%',
  '%zz',
  '%2',
];

/** Metadata that a valid request would carry. */
export function validMetadata(key: string): Record<string, unknown> {
  return {
    key,
    name: 'Fuzzed',
    description: 'Made by the fuzz suite.',
    developerEmail: 'fuzz@example.com',
    parameters: [
      { name: 'a', type: 'number', description: 'a' },
      { name: 'c', type: { type: 'single-choice', choices: [{ id: 'x', label: 'X' }] }, description: 'c' },
    ],
    result: { type: { type: 'object', properties: { total: { type: 'number' } } }, description: 'r' },
  };
}

/** Percent-encoding that, unlike encodeURIComponent, also sends lone surrogates (as the invalid UTF-8 bytes ED A0 80 and kin). */
function encode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out += `%ED%${(0xa0 + ((code >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (code & 0x3f)).toString(16).toUpperCase()}`;
    else out += encodeURIComponent(char);
  }
  return out;
}

function nested(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

function randomString(p: Pick, max: number): string {
  const length = p.int(max);
  let s = '';
  for (let i = 0; i < length; i++) s += p.chance(0.3) ? p.one(UNICODE) : String.fromCharCode(32 + p.int(95));
  return s;
}

function hostileId(p: Pick): string {
  switch (p.int(6)) {
    case 0:
      return encode(p.one(INJECTIONS));
    case 1:
      return p.one(TRAVERSALS);
    case 2:
      return encode(randomString(p, 12));
    case 3:
      return 'x'.repeat(1 + p.int(20_000));
    case 4:
      return '00000000-0000-0000-0000-000000000000';
    default:
      return encode(p.one(UNICODE));
  }
}

/** Ways metadata can be wrong; each returns a body that must be refused. */
const BREAK_METADATA: ((m: Record<string, unknown>, p: Pick) => unknown)[] = [
  (m, p) => {
    const copy = { ...m };
    delete copy[p.one(['key', 'name', 'description', 'developerEmail', 'parameters', 'result'])];
    return copy;
  },
  (m, p) => ({ ...m, [p.one(['key', 'name', 'description', 'developerEmail', 'parameters', 'result'])]: p.one([null, 1, true, {}, -0, 1e308]) }),
  (m, p) => ({ ...m, key: p.one(['1abc', 'a b', '', 'é', 'a'.repeat(65), '-x', 'a\u0000', ...INJECTIONS.filter((s) => !/^[A-Za-z][A-Za-z0-9_-]*$/.test(s))]) }),
  (m, p) => ({ ...m, developerEmail: p.one(['no-at', '@x.y', 'a@', 'a b@c.d', `${'a'.repeat(300)}@x.com`, 'a@b', '\u0000@x.com']) }),
  (m, p) => ({ ...m, name: p.one(['', ' ', 'n'.repeat(121 + p.int(200_000))]) }),
  (m) => ({ ...m, description: 'd'.repeat(4001) }),
  (m, p) => ({ ...m, parameters: [{ name: p.one(['1a', 'a b', 'class', '', 'ä', 'x'.repeat(65)]), type: 'number' }] }),
  (m, p) => ({
    ...m,
    parameters: [
      {
        name: 'a',
        type: p.one([
          'string',
          'int',
          '',
          null,
          1,
          { type: 'single-choice' },
          { type: 'single-choice', choices: [] },
          { type: 'collection' },
          { type: 'collection', items: 'object' },
          { type: 'object', properties: {} },
          {
            type: 'multiple-select',
            choices: [
              { id: 'a', label: 'A' },
              { id: 'a', label: 'B' },
            ],
          },
        ]),
      },
    ],
  }),
  (m) => ({
    ...m,
    parameters: [
      { name: 'a', type: 'number' },
      { name: 'a', type: 'text' },
    ],
  }),
  (m, p) => ({ ...m, parameters: Array.from({ length: 51 + p.int(500) }, (_, i) => ({ name: `p${i}`, type: 'number' })) }),
  (m, p) => ({
    ...m,
    result: p.one([
      {},
      { type: 'objekt' },
      { type: { type: 'object', properties: { 'has space': { type: 'text' } } } },
      { type: { type: 'object', properties: [] } },
      { type: { type: 'collection', items: 'nothing' } },
      'number',
    ]),
  }),
  (m, p) => ({ ...m, parameters: JSON.parse(nested(200 + p.int(3000), '[', ']')) as unknown }),
  (m, p) => {
    let type: unknown = 'text';
    for (let i = 0; i < 100 + p.int(2000); i++) type = { type: 'object', properties: { x: { type } } };
    return { ...m, result: { type } };
  },
  (m) => JSON.parse(`{"__proto__": {"polluted": true}, "key": ${JSON.stringify(m.key)}}`) as unknown,
  (m) => ({
    ...m,
    parameters: [
      { name: 'constructor', type: 'number' },
      { name: '__proto__', type: 'number' },
    ],
    result: 7,
  }),
  () => p0(['null', '[]', '0', '"metadata"', 'true', '{}']),
];

function p0(values: string[]): unknown {
  return JSON.parse(values[Math.floor(values.length / 2)]!);
}

const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '{"key":',
  '{"key": "a",}',
  "{'key': 'a'}",
  '{"key": NaN}',
  '{"a": 1} trailing',
  '[1, 2',
  '"unterminated',
  '\ufeff{}',
  '{"a": "\\ud800"}',
  '{"a": "\\u0000"}',
  '{"a": 1e999999}',
  '{"a": -}',
  '{"a": 0x10}',
  '{"a": undefined}',
  '//comment\n{}',
  '{"a"\u0000: 1}',
];

const CODE_THAT_DOES_NOT_PARSE = [
  'export function main( {',
  'export const main = () => {',
  'return 1 +',
  'export function main() { return </div> }',
  '@@@',
  'import x from;',
  'export function main() { let let = 1; }',
  'class {',
  'export function main() { return `unterminated }',
  '\u0000\u0001',
  'export default function main(): number { return "a" as }',
  'export function main() { yield 1 }',
  'enum {',
  'export function main() { return 1 }}}',
];

const CONTENT_TYPES = [
  undefined,
  '',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonx',
  'json',
  '*/*',
  'application/typescript; charset=ebcdic',
  'application/problem+json',
  'APPLICATION/JSON',
  'application/json;;;',
  'text/typescript; charset="utf-8"',
  'application/octet-stream',
];

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/**
 * A hostile request of a random category. Requests that could succeed and change data only touch the
 * `scratch` ids a test passes, or create new actions (the test tracks both).
 */
export function hostileRequest(p: Pick, t: Targets, scratchId: string, n: number): HostileRequest {
  const auth = (): Record<string, string> => {
    const roll = p.int(20);
    if (roll === 0) return {};
    if (roll === 1) return { Authorization: `Bearer ${t.otherKey}` };
    if (roll === 2)
      return {
        Authorization: p.one([
          'Bearer',
          'Bearer ',
          'Basic dXNlcjpwYXNz',
          `Bearer ${t.key}x`,
          `Bearer ${t.key.slice(0, -1)}`,
          `bearer  ${'A'.repeat(8000)}`,
          `Bearer ${t.key} ${t.key}`,
          'Bearer ca_sk_\u00ff',
        ]),
      };
    return { Authorization: `Bearer ${t.key}` };
  };
  const actionId = () => (p.chance(0.5) ? p.one(t.protectedIds) : p.chance(0.5) ? t.foreignId : hostileId(p));
  const category = p.int(12);
  switch (category) {
    case 0: {
      // Malformed JSON to every route that reads JSON.
      const path = p.one([
        `/api/application/${t.appId}/actions`,
        `/api/actions/${p.one(t.protectedIds)}`,
        `/api/actions/${p.one(t.protectedIds)}/environments/${t.envId}/runs`,
      ]);
      const raw = p.chance(0.15) ? Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) : Buffer.from(p.one(MALFORMED_JSON), 'utf8');
      return {
        category: 'malformed-json',
        method: path.endsWith('/actions') || path.endsWith('/runs') ? 'POST' : 'PUT',
        path,
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: raw,
      };
    }
    case 1: {
      const depth = 1_000 + p.int(200_000);
      const body = p.chance(0.5) ? nested(depth, '[', ']') : nested(depth, '{"a":', '}');
      const path = p.chance(0.5) ? `/api/application/${t.appId}/actions` : `/api/actions/${p.one(t.protectedIds)}/environments/${t.envId}/runs`;
      return {
        category: 'deep-json',
        method: 'POST',
        path,
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: Buffer.from(p.chance(0.5) ? `{"inputs": ${body}}` : body),
      };
    }
    case 2: {
      const type = p.one(CONTENT_TYPES);
      const code = p.chance(0.5);
      const headers: Record<string, string> = { ...auth() };
      if (type !== undefined) headers['Content-Type'] = type;
      const path = code
        ? `/api/actions/${p.one(t.protectedIds)}/implementation`
        : p.chance(0.5)
          ? `/api/application/${t.appId}/actions`
          : `/api/actions/${p.one(t.protectedIds)}`;
      const body = code ? json(validMetadata('wrongType')) : Buffer.from('export const main = () => 1;');
      return { category: 'content-type', method: path.endsWith('/actions') ? 'POST' : 'PUT', path, headers, body };
    }
    case 3: {
      // Bodies just over the limits, declared or streamed.
      const code = p.chance(0.5);
      const size = (code ? t.codeBytes : t.jsonBodyBytes) + 1 + p.int(4096);
      const body = code ? Buffer.alloc(size, 'a') : Buffer.from(`{"key": "${'k'.repeat(size)}"}`);
      return {
        category: 'huge-body',
        method: code ? 'PUT' : 'POST',
        path: code ? `/api/actions/${p.one(t.protectedIds)}/implementation` : `/api/application/${t.appId}/actions`,
        headers: { ...auth(), 'Content-Type': code ? 'application/typescript' : 'application/json' },
        body,
      };
    }
    case 4: {
      const breaker = p.one(BREAK_METADATA);
      const body = breaker(validMetadata(`fz${n}`), p);
      const update = p.chance(0.6);
      return {
        category: 'invalid-metadata',
        method: update ? 'PUT' : 'POST',
        path: update ? `/api/actions/${p.one(t.protectedIds)}` : `/api/application/${t.appId}/actions`,
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: json(body),
      };
    }
    case 5: {
      const id = actionId();
      const path = p.one([
        `/api/actions/${id}`,
        `/api/action/${id}`,
        `/api/actions/${id}/implementation`,
        `/api/actions/${id}/environments/${t.envId}/events`,
        `/api/actions/${id}/environments/${hostileId(p)}/events`,
        `/api/application/${hostileId(p)}/actions`,
        `/api/actions/${id}/environments/${t.foreignEnvId}/runs`,
        `/api/${hostileId(p)}`,
        `/${hostileId(p)}/actions`,
        `/api/actions/${id}/${hostileId(p)}`,
        `/api/application/${t.otherAppId}/actions`,
      ]);
      const method = p.one(METHODS.filter((m) => m !== 'CONNECT_'));
      // A DELETE with the right key would succeed; here it only ever carries another application's key.
      if (method === 'DELETE')
        return { category: 'traversal-injection', method, path, headers: { Authorization: `Bearer ${path.includes(t.foreignId) ? t.key : t.otherKey}` } };
      // Only reads and refusals: a write to a protected or foreign action must fail, so it carries no valid body.
      const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.from(p.one(['', '{}', '{"inputs": []}', 'x']));
      return { category: 'traversal-injection', method, path, headers: { ...auth(), 'Content-Type': 'application/json' }, body };
    }
    case 6: {
      const m = validMetadata('a');
      const field = p.one(['name', 'description', 'key', 'developerEmail']);
      m[field] = randomString(p, 300) + p.one(UNICODE);
      // Whatever the string holds, the request is refused: the key is always invalid.
      if (field !== 'key') m.key = p.one(['1bad', 'bad key']);
      return {
        category: 'unicode',
        method: 'PUT',
        path: `/api/actions/${p.one(t.protectedIds)}`,
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: json(m),
      };
    }
    case 7: {
      // Random text goes first, as a comment: after the broken code it could happen to close what was left open.
      const source = (p.chance(0.3) ? `// ${randomString(p, 100)}\n` : '') + p.one(CODE_THAT_DOES_NOT_PARSE);
      return {
        category: 'code-does-not-parse',
        method: 'PUT',
        path: `/api/actions/${p.one(t.protectedIds)}/implementation`,
        headers: { ...auth(), 'Content-Type': 'application/typescript' },
        body: Buffer.from(source),
      };
    }
    case 8: {
      // Code that parses and never ends is accepted: it only fails when run. It goes to the scratch action.
      const source = p.one([
        'export function main() { while (true) {} }',
        'export const main = () => new Promise(() => {});',
        'export function main() { for (;;) console.log("x".repeat(1e5)); }',
      ]);
      return {
        category: 'code-never-ends',
        method: 'PUT',
        path: `/api/actions/${scratchId}/implementation`,
        headers: { ...auth(), 'Content-Type': 'application/typescript' },
        body: Buffer.from(source),
      };
    }
    case 9: {
      const inputs = p.one<unknown>([
        'nope',
        1,
        null,
        [],
        [1],
        ['x', 'x'],
        [1, 'y'],
        { a: 1 },
        { a: 1, c: 'x', d: 2 },
        [Number.MAX_VALUE, 'z'],
        { a: '1', c: 'x' },
        [[1], 'x'],
        { __proto__: 1 },
        { constructor: 1, a: 1, c: 'x' },
      ]);
      const id = p.chance(0.8) ? p.one(t.protectedIds) : t.foreignId;
      return {
        category: 'invalid-inputs',
        method: 'POST',
        path: `/api/actions/${id}/environments/${p.chance(0.8) ? t.envId : t.foreignEnvId}/runs`,
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: json({ inputs }),
      };
    }
    case 10: {
      const query = p.one([
        'limit=0',
        'limit=-1',
        'limit=abc',
        'limit=1e9',
        'limit=501',
        'cursor=zzz',
        `cursor=${'%ff'.repeat(10)}`,
        'wait=-1',
        'wait=abc',
        'limit=1&limit=2',
        'cursor=',
        `limit=${'9'.repeat(400)}`,
        'wait=1e999',
      ]);
      return {
        category: 'query',
        method: 'GET',
        path: `/api/actions/${p.one(t.protectedIds)}/environments/${t.envId}/events?${query}`,
        headers: { ...auth(), 'If-None-Match': p.one(['*', '"x"', 'W/"1"', '']) },
      };
    }
    default: {
      // Writes with another application's key: refused whatever the body.
      const id = p.one(t.protectedIds);
      const which = p.int(4);
      const headers = { Authorization: `Bearer ${t.otherKey}`, 'Content-Type': which === 2 ? 'application/typescript' : 'application/json' };
      if (which === 0) return { category: 'foreign-key', method: 'PUT', path: `/api/actions/${id}`, headers, body: json(validMetadata('stolen')) };
      if (which === 1) return { category: 'foreign-key', method: 'DELETE', path: `/api/actions/${id}`, headers };
      if (which === 2)
        return {
          category: 'foreign-key',
          method: 'PUT',
          path: `/api/actions/${id}/implementation`,
          headers,
          body: Buffer.from('export const main = () => "stolen";'),
        };
      return { category: 'foreign-key', method: 'POST', path: `/api/application/${t.appId}/actions`, headers, body: json(validMetadata('stolen')) };
    }
  }
}
