import assert from 'node:assert/strict';
import { type ActionListEntry, type ActionResource } from '../../src/core/schema';
import { assertMatchesSpec, metadata, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;

describe('sandbox: the six operations and the extensions over HTTP', () => {
  let box: Box;
  let keyA: string;
  let keyB: string;
  before(async () => {
    box = await withSandbox();
    keyA = box.applications[0]!.key;
    keyB = box.applications[1]!.key;
  });
  after(() => box.close());

  async function create(overrides: Record<string, unknown> = {}, key = keyA, app = 'app-a'): Promise<ActionResource> {
    const reply = await box.request('POST', `/api/application/${app}/actions`, { key, json: metadata(overrides) });
    assert.equal(reply.status, 201, reply.text);
    return reply.json as ActionResource;
  }

  it('GET /api is the capability index, without a key', async () => {
    const reply = await box.request('GET', '/api');
    assert.equal(reply.status, 200);
    assertMatchesSpec('GET', '/api', reply);
    assert.deepEqual((reply.json as { extensions: { eventsPaging: unknown } }).extensions.eventsPaging, {
      limitParam: 'limit',
      cursorParam: 'cursor',
      maxLimit: 500,
    });
  });

  it('creates: 201, Location /api/action/<id>, the resource as body, and GET of either path returns it', async () => {
    const reply = await box.request('POST', '/api/application/app-a/actions', { key: keyA, json: metadata({ key: 'create-me' }) });
    assert.equal(reply.status, 201);
    assertMatchesSpec('POST', '/api/application/{applicationId}/actions', reply);
    const body = reply.json as ActionResource;
    assert.equal(reply.headers.get('location'), `/api/action/${body.id}`);
    assert.equal(body.hasImplementation, false);
    for (const path of [`/api/action/${body.id}`, `/api/actions/${body.id}`]) {
      const got = await box.request('GET', path, { key: keyA });
      assert.equal(got.status, 200);
      assertMatchesSpec('GET', path.startsWith('/api/action/') ? '/api/action/{actionId}' : '/api/actions/{actionId}', got);
      assert.deepEqual(got.json, body);
    }
  });

  it("lists as application/vnd.restful+json with exactly the spec fields (and the versions' tags) and opaque per-application environment ids", async () => {
    const a = await create({ key: 'listed' });
    const reply = await box.request('GET', '/api/application/app-a/actions', { key: keyA });
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type')!, /^application\/vnd\.restful\+json/);
    assertMatchesSpec('GET', '/api/application/{applicationId}/actions', reply);
    const entry = (reply.json as ActionListEntry[]).find((e) => e.id === a.id)!;
    assert.deepEqual(Object.keys(entry).sort(), ['description', 'etags', 'eventsUrls', 'id', 'key', 'name']);
    assert.deepEqual(entry.etags, { metadata: '"meta-1"', implementation: null });
    assert.deepEqual(entry.eventsUrls, a.eventsUrls);
    const b = await create({ key: 'listed' }, keyB, 'app-b');
    const envA = a.eventsUrls.Test.split('/')[5];
    const envB = b.eventsUrls.Test.split('/')[5];
    assert.notEqual(envA, envB);
    assert.notEqual(a.eventsUrls.Test.split('/')[5], a.eventsUrls.Live.split('/')[5]);
  });

  it('updates: 200 with the resource; keys stay unique per application (409 key-conflict)', async () => {
    const first = await create({ key: 'one' });
    await create({ key: 'two' });
    const renamed = await box.request('PUT', `/api/actions/${first.id}`, { key: keyA, json: metadata({ key: 'one', name: 'Renamed', id: 'smuggled' }) });
    assert.equal(renamed.status, 200);
    assertMatchesSpec('PUT', '/api/actions/{actionId}', renamed);
    assert.equal((renamed.json as ActionResource).name, 'Renamed');
    assert.equal((renamed.json as ActionResource).id, first.id);
    const clash = await box.request('PUT', `/api/actions/${first.id}`, { key: keyA, json: metadata({ key: 'two' }) });
    assert.equal(clash.status, 409);
    assertMatchesSpec('PUT', '/api/actions/{actionId}', clash);
    assert.equal((clash.json as { code: string }).code, 'key-conflict');
    const dup = await box.request('POST', '/api/application/app-a/actions', { key: keyA, json: metadata({ key: 'two' }) });
    assert.equal(dup.status, 409);
    // The same key in another application is fine.
    await create({ key: 'two' }, keyB, 'app-b');
  });

  it('stores and returns the implementation (204, then application/typescript), 404 no-implementation before', async () => {
    const a = await create({ key: 'coded' });
    const none = await box.request('GET', `/api/actions/${a.id}/implementation`, { key: keyA });
    assert.equal(none.status, 404);
    assert.equal((none.json as { code: string }).code, 'no-implementation');
    const code = 'export function main(a: number, b: number): number {\n  return a + b;\n}\n';
    const put = await box.request('PUT', `/api/actions/${a.id}/implementation`, { key: keyA, body: code, type: 'application/typescript' });
    assert.equal(put.status, 204);
    assertMatchesSpec('PUT', '/api/actions/{actionId}/implementation', put);
    const got = await box.request('GET', `/api/actions/${a.id}/implementation`, { key: keyA });
    assert.equal(got.status, 200);
    assertMatchesSpec('GET', '/api/actions/{actionId}/implementation', got);
    assert.equal(got.text, code);
    const plain = await box.request('PUT', `/api/actions/${a.id}/implementation`, { key: keyA, body: code, type: 'text/plain; charset=utf-8' });
    assert.equal(plain.status, 204);
    assert.equal(((await box.request('GET', `/api/actions/${a.id}`, { key: keyA })).json as ActionResource).hasImplementation, true);
  });

  it('refuses code that does not parse with 400 invalid-code naming the line', async () => {
    const a = await create({ key: 'broken' });
    const reply = await box.request('PUT', `/api/actions/${a.id}/implementation`, {
      key: keyA,
      body: 'export function main() {\n  return 1 +;\n}\n',
      type: 'application/typescript',
    });
    assert.equal(reply.status, 400);
    assertMatchesSpec('PUT', '/api/actions/{actionId}/implementation', reply);
    const problem = reply.json as { code: string; errors: { path: string }[] };
    assert.equal(problem.code, 'invalid-code');
    assert.equal(problem.errors[0]!.path, 'line 2');
  });

  it('deletes: 204, then 404 everywhere, events included', async () => {
    const a = await create({ key: 'doomed' });
    const reply = await box.request('DELETE', `/api/actions/${a.id}`, { key: keyA, headers: { 'Content-Type': 'application/json' } });
    assert.equal(reply.status, 204);
    assertMatchesSpec('DELETE', '/api/actions/{actionId}', reply);
    for (const [method, path] of [
      ['GET', `/api/actions/${a.id}`],
      ['DELETE', `/api/actions/${a.id}`],
      ['GET', a.eventsUrls.Test],
    ] as const) {
      assert.equal((await box.request(method, path, { key: keyA })).status, 404, `${method} ${path}`);
    }
  });

  it('validation problems carry a stable code and schema paths', async () => {
    const reply = await box.request('POST', '/api/application/app-a/actions', {
      key: keyA,
      json: metadata({
        key: '1bad',
        parameters: [{ name: 'x', type: { type: 'single-choice', choices: [] } }],
        result: { type: 'object', properties: { 'has space': { type: 'text' } } },
      }),
    });
    assert.equal(reply.status, 400);
    assertMatchesSpec('POST', '/api/application/{applicationId}/actions', reply);
    const problem = reply.json as { code: string; errors: { path: string }[] };
    assert.equal(problem.code, 'validation-failed');
    const paths = problem.errors.map((e) => e.path);
    assert.ok(paths.includes('key'), paths.join());
    assert.ok(paths.includes('parameters[0].type.choices'), paths.join());
  });

  describe('auth', () => {
    it('401 with WWW-Authenticate without a key or with an unknown one', async () => {
      for (const key of [null, 'ca_sk_nope']) {
        const reply = await box.request('GET', '/api/application/app-a/actions', { key });
        assert.equal(reply.status, 401);
        assertMatchesSpec('GET', '/api/application/{applicationId}/actions', reply);
        assert.match(reply.headers.get('www-authenticate')!, /^Bearer realm="custom-actions"/);
      }
      const basic = await box.request('GET', '/api/application/app-a/actions', { headers: { Authorization: 'Basic eDp5' } });
      assert.equal(basic.status, 401);
    });

    it("a key of another application sees 404 for that application's actions, code and events", async () => {
      const a = await create({ key: 'private' });
      assert.equal((await box.request('GET', '/api/application/app-a/actions', { key: keyB })).status, 404);
      assert.equal((await box.request('POST', '/api/application/app-a/actions', { key: keyB, json: metadata({ key: 'sneaky' }) })).status, 404);
      for (const [method, path] of [
        ['GET', `/api/actions/${a.id}`],
        ['PUT', `/api/actions/${a.id}`],
        ['DELETE', `/api/actions/${a.id}`],
        ['GET', `/api/actions/${a.id}/implementation`],
        ['PUT', `/api/actions/${a.id}/implementation`],
        ['GET', a.eventsUrls.Test],
      ] as const) {
        const reply = await box.request(method, path, {
          key: keyB,
          json: method === 'PUT' && !path.endsWith('implementation') ? metadata() : undefined,
          body: path.endsWith('implementation') && method === 'PUT' ? 'x' : undefined,
        });
        assert.equal(reply.status, 404, `${method} ${path}`);
      }
      // An environment of another application under one's own action is 404 too.
      const b = await create({ key: 'mine' }, keyB, 'app-b');
      const foreignEnv = a.eventsUrls.Test.split('/')[5]!;
      assert.equal((await box.request('GET', `/api/actions/${b.id}/environments/${foreignEnv}/events`, { key: keyB })).status, 404);
      assert.equal((await box.request('GET', `/api/actions/${a.id}`, { key: keyA })).status, 200);
    });

    it('createApplication mints another key; older keys stay valid', async () => {
      const again = await box.createApplication('app-a');
      assert.notEqual(again.key, keyA);
      assert.equal(again.name, 'App A');
      assert.equal((await box.request('GET', '/api/application/app-a/actions', { key: again.key })).status, 200);
      assert.equal((await box.request('GET', '/api/application/app-a/actions', { key: keyA })).status, 200);
    });
  });

  describe('bad input never gets a 5xx', () => {
    it('malformed JSON, wrong content types, oversized bodies, odd paths and methods', async () => {
      const a = await create({ key: 'target' });
      const cases: [string, string, Parameters<Box['request']>[2], number, string][] = [
        ['POST', '/api/application/app-a/actions', { key: keyA, body: '{"key":', type: 'application/json' }, 400, 'malformed-json'],
        ['POST', '/api/application/app-a/actions', { key: keyA, body: JSON.stringify(metadata()), type: 'text/plain' }, 415, 'unsupported-media-type'],
        ['POST', '/api/application/app-a/actions', { key: keyA, body: JSON.stringify(metadata()) }, 415, 'unsupported-media-type'],
        ['POST', '/api/application/app-a/actions', { key: keyA, json: null }, 400, 'validation-failed'],
        ['POST', '/api/application/app-a/actions', { key: keyA, json: [1, 2] }, 400, 'validation-failed'],
        ['POST', '/api/application/app-a/actions', { key: keyA, json: { __proto__: { polluted: true }, ...metadata({ key: 'proto' }) } }, 201, ''],
        [
          'POST',
          '/api/application/app-a/actions',
          { key: keyA, body: JSON.stringify({ ...metadata(), pad: 'x'.repeat(300 * 1024) }), type: 'application/json' },
          413,
          'payload-too-large',
        ],
        ['POST', '/api/application/app-a/actions', { key: keyA, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), type: 'application/json' }, 400, 'malformed-json'],
        [
          'POST',
          '/api/application/app-a/actions',
          {
            key: keyA,
            json: metadata({
              key: 'k'.repeat(5000),
              name: '\u0000\u202e',
              parameters: Array.from({ length: 60 }, (_, i) => ({ name: `p${i}`, type: 'text' })),
            }),
          },
          400,
          'validation-failed',
        ],
        ['PUT', `/api/actions/${a.id}/implementation`, { key: keyA, body: 'x'.repeat(600 * 1024), type: 'application/typescript' }, 413, 'payload-too-large'],
        ['PUT', `/api/actions/${a.id}/implementation`, { key: keyA, json: 'export function main() {}' }, 415, 'unsupported-media-type'],
        [
          'PUT',
          `/api/actions/${a.id}/implementation`,
          { key: keyA, body: 'export function main() {}', type: 'application/typescript; charset=latin1' },
          415,
          'unsupported-media-type',
        ],
        ['PUT', `/api/actions/${a.id}`, { key: keyA, body: 'not json', type: 'application/json' }, 400, 'malformed-json'],
        ['GET', '/api/actions/no-such-id', { key: keyA }, 404, 'not-found'],
        ['GET', '/api/actions/%E0%A4%A', { key: keyA }, 404, 'not-found'],
        ['GET', '/api/nothing/here', { key: keyA }, 404, 'not-found'],
        ['PATCH', `/api/actions/${a.id}`, { key: keyA }, 405, 'method-not-allowed'],
        ['GET', `${a.eventsUrls.Test}?limit=0`, { key: keyA }, 400, 'invalid-query'],
        ['GET', `${a.eventsUrls.Test}?limit=501`, { key: keyA }, 400, 'invalid-query'],
        ['GET', `${a.eventsUrls.Test}?limit=abc`, { key: keyA }, 400, 'invalid-query'],
        ['GET', `${a.eventsUrls.Test}?cursor=%%%`, { key: keyA }, 400, 'invalid-query'],
        ['GET', `${a.eventsUrls.Test}?cursor=czk5OTk5OTk5OTk5OTk5OTk5OTk5`, { key: keyA }, 400, 'invalid-query'],
        ['GET', `${a.eventsUrls.Test}?wait=-1`, { key: keyA }, 400, 'invalid-query'],
        ['GET', `/api/actions/${a.id}/environments/nope/events`, { key: keyA }, 404, 'not-found'],
      ];
      for (const [method, path, init, status, code] of cases) {
        const reply = await box.request(method, path, init);
        assert.equal(reply.status, status, `${method} ${path}: ${reply.text.slice(0, 300)}`);
        if (code) {
          assert.match(reply.headers.get('content-type')!, /^application\/problem\+json/);
          assert.equal((reply.json as { code: string }).code, code, `${method} ${path}`);
        }
      }
      const allow = await box.request('PATCH', `/api/actions/${a.id}`, { key: keyA });
      assert.equal(allow.headers.get('allow'), 'GET, PUT, DELETE, HEAD');
      // Still serving, and nothing was lost.
      assert.equal((await box.request('GET', `/api/actions/${a.id}`, { key: keyA })).status, 200);
    });
  });
});
