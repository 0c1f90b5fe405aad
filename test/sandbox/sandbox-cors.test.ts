/**
 * The sandbox answers a browser: VS Code for the Web's origins (and loopback, for code-server) get
 * CORS headers on every answer, errors included, and their preflights are answered for the methods
 * and headers the client sends, with Private Network Access when asked; any other origin gets none.
 */
import assert from 'node:assert/strict';
import { type Sandbox } from '../../src/sandbox';
import { networkOptions } from '../../src/sandbox/cliNetwork';
import { corsAllows, DEFAULT_CORS_ORIGINS, parseCorsOrigins } from '../../src/sandbox/http/cors';
import { type Requester, withSandbox } from './support';

const VSCODE_DEV = 'https://vscode.dev';
const WORKER_IFRAME = 'https://v--1a2b3c4d5e.vscode-cdn.net';
const CODE_SERVER = 'http://127.0.0.1:8080';

const ALLOWED = [VSCODE_DEV, 'https://github.dev', 'https://insiders.vscode.dev', WORKER_IFRAME, CODE_SERVER, 'http://localhost:3000', 'http://[::1]:8443'];
const REFUSED = [
  'https://evil.example',
  'https://vscode.dev.evil.example',
  'https://vscode-cdn.net',
  'https://a.b.vscode-cdn.net',
  'http://v--1a2b.vscode-cdn.net',
  'http://vscode.dev',
  'null',
  'http://127.0.0.2:8080',
  'https://vscode.dev/path',
];

describe('sandbox CORS for VS Code for the Web', function () {
  this.timeout(60_000);
  let sandbox: Sandbox & { request: Requester };
  let key: string;

  before(async () => {
    sandbox = await withSandbox();
    key = sandbox.applications.find((a) => a.id === 'app-a')!.key;
  });
  after(() => sandbox.close());

  const preflight = (origin: string, method: string, headers: string, extra: Record<string, string> = {}) =>
    sandbox.request('OPTIONS', '/api/application/app-a/actions', {
      headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers, ...extra },
    });

  it('answers the preflight of an allowed origin for the methods and headers the client sends', async () => {
    for (const origin of ALLOWED) {
      const reply = await preflight(origin, 'PUT', 'authorization,content-type,if-match,if-none-match');
      assert.equal(reply.status, 204, origin);
      assert.equal(reply.headers.get('access-control-allow-origin'), origin);
      const methods = reply.headers.get('access-control-allow-methods') ?? '';
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) assert.ok(methods.includes(method), `${method} in ${methods}`);
      const headers = (reply.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'if-match', 'if-none-match']) assert.ok(headers.includes(header), `${header} in ${headers}`);
      assert.equal(reply.headers.get('access-control-allow-credentials'), null, 'no cookie is ever involved');
      assert.match(reply.headers.get('vary') ?? '', /Origin/);
      assert.equal(reply.headers.get('access-control-allow-private-network'), null, 'only when asked');
    }
  });

  it('allows a page to reach it on this machine when the browser asks (Private Network Access)', async () => {
    for (const origin of [VSCODE_DEV, CODE_SERVER]) {
      const reply = await preflight(origin, 'GET', 'authorization', { 'Access-Control-Request-Private-Network': 'true' });
      assert.equal(reply.status, 204);
      assert.equal(reply.headers.get('access-control-allow-private-network'), 'true');
    }
  });

  it('an allowed origin reads the answer and the headers the client needs, on success and on errors (401, 412)', async () => {
    const created = await sandbox.request('POST', '/api/application/app-a/actions', {
      key,
      headers: { Origin: WORKER_IFRAME },
      json: { key: 'cors-one', name: 'Cors', description: 'd', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('access-control-allow-origin'), WORKER_IFRAME);
    const exposed = (created.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const header of ['etag', 'location', 'retry-after', 'link']) assert.ok(exposed.includes(header), `${header} in ${exposed}`);
    const listed = await sandbox.request('GET', '/api/application/app-a/actions', { key, headers: { Origin: CODE_SERVER } });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('access-control-allow-origin'), CODE_SERVER);

    const refused = await sandbox.request('GET', '/api/application/app-a/actions', { key: 'not-a-key', headers: { Origin: VSCODE_DEV } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), VSCODE_DEV);

    const id = (created.json as { id: string }).id;
    const stale = await sandbox.request('PUT', `/api/actions/${id}`, {
      key,
      headers: { Origin: VSCODE_DEV, 'If-Match': '"not-the-version"' },
      json: { key: 'cors-one', name: 'Renamed', description: 'd', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } },
    });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.headers.get('access-control-allow-origin'), VSCODE_DEV);
    assert.ok(stale.headers.get('etag'), 'the version that holds now');
    assert.match(stale.headers.get('access-control-expose-headers') ?? '', /ETag/);
  });

  it('gives any other origin no CORS header, on preflights and answers alike', async () => {
    for (const origin of REFUSED) {
      const pre = await preflight(origin, 'GET', 'authorization');
      assert.equal(pre.headers.get('access-control-allow-origin'), null, origin);
      assert.notEqual(pre.status, 204, origin);
      const reply = await sandbox.request('GET', '/api/application/app-a/actions', { key, headers: { Origin: origin } });
      assert.equal(reply.headers.get('access-control-allow-origin'), null, origin);
      assert.equal(reply.headers.get('access-control-expose-headers'), null, origin);
    }
  });

  it('takes its origins from --cors-origins or CUSTOM_ACTIONS_SANDBOX_CORS_ORIGINS; none turns CORS off', async () => {
    assert.deepEqual(networkOptions({ 'cors-origins': 'https://ide.example.com, loopback' }, {}).corsOrigins, ['https://ide.example.com', 'loopback']);
    assert.deepEqual(networkOptions({}, { CUSTOM_ACTIONS_SANDBOX_CORS_ORIGINS: 'none' }).corsOrigins, []);
    assert.equal(networkOptions({}, {}).corsOrigins, undefined);
    assert.throws(
      () => networkOptions({}, { CUSTOM_ACTIONS_SANDBOX_CORS_ORIGINS: 'vscode.dev' }),
      /CUSTOM_ACTIONS_SANDBOX_CORS_ORIGINS: "vscode.dev" is not an origin/,
    );
    assert.throws(() => parseCorsOrigins('https://vscode.dev/'), /not an origin/);

    const own = await withSandbox({ corsOrigins: ['https://ide.example.com'] });
    const off = await withSandbox({ corsOrigins: [] });
    try {
      const ownKey = own.applications[0]!.key;
      const allowed = await own.request('GET', '/api/application/app-a/actions', { key: ownKey, headers: { Origin: 'https://ide.example.com' } });
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://ide.example.com');
      const notDefault = await own.request('GET', '/api/application/app-a/actions', { key: ownKey, headers: { Origin: VSCODE_DEV } });
      assert.equal(notDefault.headers.get('access-control-allow-origin'), null);
      const none = await off.request('GET', '/api/application/app-a/actions', { key: off.applications[0]!.key, headers: { Origin: VSCODE_DEV } });
      assert.equal(none.status, 200);
      assert.equal(none.headers.get('access-control-allow-origin'), null);
      assert.equal(none.headers.get('vary'), null);
    } finally {
      await own.close();
      await off.close();
    }
  });

  it('the default holds exactly VS Code for the Web’s origins and loopback', () => {
    for (const origin of ALLOWED) assert.ok(corsAllows(DEFAULT_CORS_ORIGINS, origin), origin);
    for (const origin of REFUSED) assert.ok(!corsAllows(DEFAULT_CORS_ORIGINS, origin), origin);
  });
});
