/**
 * The sandbox's traffic through an OpenAPI-validating proxy: Prism (proxy mode) checks every request
 * and every answer against docs/openapi.yaml and names each violation in an `sl-violations` header.
 * A tap in front of Prism keeps those headers, and each test fails on any violation of an answer, and
 * on any violation of a request the test did not send wrong on purpose (a wrong request must still get
 * an answer the document describes). The requests cover every operation of the document and most of
 * its statuses, sent raw and by the extension's own client.
 *
 * client → tap (records violations) → Prism (validates) → sandbox
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { closeAllPools, createClient } from '../../src/core/client';
import { type Sandbox } from '../../src/sandbox';
import { ADD_ACTION } from '../support/metadata';
import { metadata, requester, type Requester, ROOT, withSandbox } from './support';

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

interface Exchange {
  method: string;
  path: string;
  status: number;
  violations: Violation[];
  /** The test sent this request wrong on purpose: its own violations are expected. */
  wrongOnPurpose: boolean;
}

const WRONG = { 'x-test-wrong-on-purpose': '1' };
const ADD_CODE = 'export function main(a: number, b: number): number {\n  console.log("adding", a, b);\n  return a + b;\n}\n';
const RATE_LIMIT = 100;

describe('the sandbox through an OpenAPI-validating proxy (Prism)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox & { request: Requester };
  let prism: ChildProcess;
  let tap: Server;
  let base: string;
  let send: Requester;
  let key: string;
  const exchanges: Exchange[] = [];
  let checked = 0;

  before(async function () {
    this.timeout(180_000);
    sandbox = await withSandbox({ limits: { requestsPerMinute: RATE_LIMIT, jsonBodyBytes: 16 * 1024 } });
    key = sandbox.applications[0]!.key;
    const started = await startPrism(sandbox.url);
    prism = started.child;
    tap = await startTap(started.url, exchanges);
    base = `http://127.0.0.1:${(tap.address() as AddressInfo).port}`;
    send = requester(base);
  });

  after(async () => {
    await closeAllPools();
    tap?.close();
    if (prism && prism.exitCode === null) {
      const exited = new Promise((resolve) => prism.once('exit', resolve));
      prism.kill('SIGTERM');
      await exited;
    }
    await sandbox?.close();
  });

  /** Fails on every violation recorded since the last call, except those of requests sent wrong on purpose. */
  function assertNoViolations(): void {
    const fresh = exchanges.slice(checked);
    checked = exchanges.length;
    assert.ok(fresh.length > 0, 'no request went through the proxy');
    const problems = fresh.flatMap((x) =>
      x.violations
        .filter((v) => v.location[0] === 'response' || !x.wrongOnPurpose)
        .map((v) => `${x.method} ${x.path} → ${x.status}: ${v.location.join('.')}: ${v.message}`),
    );
    assert.deepEqual(problems, [], `docs/openapi.yaml and the sandbox disagree:\n${problems.join('\n')}`);
  }

  async function created(actionKey: string): Promise<{ id: string; Test: string; Live: string }> {
    const reply = await send('POST', '/api/application/app-a/actions', { key, json: metadata({ key: actionKey }) });
    assert.equal(reply.status, 201, reply.text);
    const body = reply.json as { id: string; eventsUrls: { Test: string; Live: string } };
    return { id: body.id, ...body.eventsUrls };
  }

  it('the capability index, keys, and metadata refused for every documented reason', async () => {
    assert.equal((await send('GET', '/api')).status, 200);
    const noKey = await send('GET', '/api/application/app-a/actions', { headers: WRONG });
    assert.equal(noKey.status, 401);
    assert.equal(noKey.headers.get('www-authenticate'), 'Bearer realm="custom-actions"');
    const unknownKey = await send('GET', '/api/application/app-a/actions', { key: 'ca_sk_not-a-key' });
    assert.equal(unknownKey.status, 401);
    assert.equal(unknownKey.headers.get('www-authenticate'), 'Bearer realm="custom-actions", error="invalid_token"');
    assert.equal((await send('GET', '/api/application/app-b/actions', { key })).status, 404);
    assert.equal((await send('GET', '/api/application/app-a/actions', { key })).status, 200);
    await created('refusals');
    assert.equal((await send('POST', '/api/application/app-a/actions', { key, json: metadata({ key: 'refusals' }) })).status, 409);
    assert.equal((await send('POST', '/api/application/app-a/actions', { key, json: metadata({ key: '1bad' }), headers: WRONG })).status, 400);
    assert.equal((await send('POST', '/api/application/app-a/actions', { key, body: '{"key":', type: 'application/json', headers: WRONG })).status, 400);
    assert.equal((await send('POST', '/api/application/app-a/actions', { key, body: 'key: x', type: 'text/yaml', headers: WRONG })).status, 415);
    const huge = metadata({ key: 'huge', description: 'x'.repeat(20 * 1024) });
    assert.equal((await send('POST', '/api/application/app-a/actions', { key, json: huge, headers: WRONG })).status, 413);
    assertNoViolations();
  });

  it("an action's life: read, conditional writes, code, versions, delete", async () => {
    const action = await created('life');
    const read = await send('GET', `/api/actions/${action.id}`, { key });
    assert.equal(read.status, 200);
    assert.equal((await send('GET', `/api/action/${action.id}`, { key })).status, 200);
    const etag = read.headers.get('etag')!;
    const updated = await send('PUT', `/api/actions/${action.id}`, { key, json: metadata({ key: 'life', name: 'Life 2' }), headers: { 'If-Match': etag } });
    assert.equal(updated.status, 200);
    assert.equal((await send('PUT', `/api/actions/${action.id}`, { key, json: metadata({ key: 'life' }), headers: { 'If-Match': etag } })).status, 412);
    assert.equal((await send('GET', `/api/actions/${action.id}/implementation`, { key })).status, 404);
    const code = (headers: Record<string, string> = {}, body = ADD_CODE, type = 'application/typescript') =>
      send('PUT', `/api/actions/${action.id}/implementation`, { key, body, type, headers });
    assert.equal((await code({ 'If-None-Match': '*' })).status, 204);
    assert.equal((await code({ 'If-None-Match': '*' })).status, 412);
    assert.equal((await code({}, 'export function main( {')).status, 400);
    assert.equal((await code({}, ADD_CODE, 'text/plain')).status, 204);
    assert.equal((await code(WRONG, ADD_CODE, 'application/octet-stream')).status, 415);
    const current = await send('GET', `/api/actions/${action.id}/implementation`, { key });
    assert.equal(current.status, 200);
    assert.equal(current.text, ADD_CODE);
    assert.equal((await send('GET', `/api/actions/${action.id}/versions`, { key })).status, 200);
    assert.equal((await send('GET', `/api/actions/${action.id}/versions/implementation/1`, { key })).status, 200);
    assert.equal((await send('GET', `/api/actions/${action.id}/versions/metadata/2`, { key })).status, 200);
    assert.equal((await send('GET', `/api/actions/${action.id}/versions/metadata/99`, { key })).status, 404);
    assert.equal((await send('DELETE', `/api/actions/${action.id}`, { key })).status, 204);
    assert.equal((await send('GET', `/api/actions/${action.id}`, { key })).status, 404);
    assertNoViolations();
  });

  it('runs and events: a success, a failure, refused inputs, pages, conditional reads and a long poll', async () => {
    const action = await created('runs');
    const runs = action.Test.replace(/\/events$/, '/runs');
    assert.equal((await send('POST', runs, { key, json: { inputs: [1, 2] } })).status, 409, 'no code yet');
    assert.equal((await send('PUT', `/api/actions/${action.id}/implementation`, { key, body: ADD_CODE, type: 'application/typescript' })).status, 204);
    assert.equal((await send('POST', runs, { key, json: { inputs: [1, 2] } })).status, 200);
    assert.equal((await send('POST', runs, { key, json: { inputs: { a: 3, b: 4 } } })).status, 200);
    assert.equal((await send('POST', runs, { key, json: { inputs: ['one', 2] } })).status, 400);
    const failing = 'export function main(a: number, b: number): number {\n  throw new Error("no sums " + (a + b));\n}\n';
    assert.equal((await send('PUT', `/api/actions/${action.id}/implementation`, { key, body: failing, type: 'application/typescript' })).status, 204);
    const failed = await send('POST', runs, { key, json: { inputs: [5, 6] } });
    assert.equal((failed.json as { event: { name: string } }).event.name, 'failure');
    const page = await send('GET', `${action.Test}?limit=2`, { key });
    assert.equal(page.status, 200);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    assert.ok(next, 'three events in pages of two have a next page');
    assert.equal((await send('GET', next, { key })).status, 200);
    assert.equal((await send('GET', `${action.Test}?limit=0`, { key, headers: WRONG })).status, 400);
    const all = await send('GET', action.Test, { key });
    const etag = all.headers.get('etag')!;
    assert.equal((await send('GET', action.Test, { key, headers: { 'If-None-Match': etag } })).status, 304);
    assert.equal((await send('GET', `${action.Test}?wait=1`, { key, headers: { 'If-None-Match': etag } })).status, 304);
    const held = send('GET', `${action.Test}?wait=20`, { key, headers: { 'If-None-Match': etag } });
    assert.equal((await send('POST', runs, { key, json: { inputs: [7, 8] } })).status, 200);
    assert.equal((await held).status, 200, 'the long poll wakes with the new event');
    assert.equal((await send('GET', action.Live, { key })).status, 200);
    assertNoViolations();
  });

  it('the rate limit answers as documented', async () => {
    // Another key's allowance is used up straight at the sandbox (quick), then asked for through the
    // proxy; should the allowance refill in between, it is used up again.
    const other = sandbox.applications[1]!.key;
    let limited;
    for (let round = 0; round < 20 && limited?.status !== 429; round++) {
      while ((await sandbox.request('GET', '/api/application/app-b/actions', { key: other })).status === 200);
      limited = await send('GET', '/api/application/app-b/actions', { key: other });
    }
    assert.equal(limited?.status, 429);
    assert.match(limited!.headers.get('retry-after') ?? '', /^\d+$/);
    assertNoViolations();
  });

  it("the extension's client, through every operation it has", async () => {
    const client = createClient({ baseUrl: base, getKey: () => Promise.resolve(key), timeoutMs: 30_000 });
    assert.ok((await client.capabilities()).run);
    const action = await client.createAction('app-a', { ...ADD_ACTION, key: 'client' });
    const versioned = await client.getActionVersioned(action.id);
    const eventsUrls = versioned.action.eventsUrls;
    await client.updateAction(action.id, { ...ADD_ACTION, key: 'client', name: 'Client 2' }, { ifMatch: versioned.etag! });
    await client.putImplementation(action.id, ADD_CODE, { ifNoneMatch: '*' });
    assert.equal(await client.getImplementation(action.id), ADD_CODE);
    assert.ok((await client.listActions('app-a')).some((a) => a.id === action.id));
    const event = await client.runAction(eventsUrls, 'Test', [2, 3]);
    assert.equal(event.result, 5);
    const first = await client.listEvents(eventsUrls.Test!, { limit: 1 });
    assert.equal(first.events.length, 1);
    const again = await client.listEvents(eventsUrls.Test!, { limit: 1, etag: first.etag!, wait: 1 });
    assert.equal(again.notModified, true);
    const versions = await client.listVersions(action.id);
    assert.ok(versions.length >= 3);
    await client.getVersion(action.id, 'metadata', 1);
    await client.deleteAction(action.id);
    assertNoViolations();
  });
});

/** Starts Prism as a validating proxy in front of `upstream`; resolves with its URL once it listens. */
async function startPrism(upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const cli = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const child = spawn(process.execPath, [cli, 'proxy', path.join(ROOT, 'docs', 'openapi.yaml'), upstream, '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Prism is listening')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Prism exited (${code}) before it listened:\n${output}`)));
  });
  // The test needs only the violations header; Prism's log of each request is not read.
  child.stdout.removeAllListeners('data').resume();
  child.stderr.removeAllListeners('data').resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

/** Forwards to Prism and records the violations it reports for each exchange. */
function startTap(target: string, exchanges: Exchange[]): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const header = answer.headers['sl-violations'];
      exchanges.push({
        method: req.method ?? '',
        path: req.url ?? '',
        status: answer.statusCode ?? 0,
        violations: typeof header === 'string' ? (JSON.parse(header) as Violation[]) : [],
        wrongOnPurpose: req.headers['x-test-wrong-on-purpose'] === '1',
      });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', (error) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`tap: ${error.message}`);
    });
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
