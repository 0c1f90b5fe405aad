import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { type ActionResource } from '../../src/core/schema';
import { startSandbox } from '../../src/sandbox';
import { openDatabase } from '../../src/sandbox/store/database';
import { Store } from '../../src/sandbox/store/store';
import { metadata, requester } from './support';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

describe('security: keys and scoping', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'sandbox-keys-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores only hashes of keys: neither the database nor any file of the data directory holds a key', async () => {
    const box = await startSandbox({
      dataDir: dir,
      applications: [
        { id: 'app-a', name: 'A' },
        { id: 'app-b', name: 'B' },
      ],
      log: () => undefined,
    });
    const keys = [...box.applications.map((a) => a.key), (await box.createApplication('app-a')).key];
    await box.close();
    const store = new Store(await openDatabase(dir));
    const dump = JSON.stringify(await store.dump());
    await store.close();
    assert.equal((JSON.parse(dump) as { api_keys: unknown[] }).api_keys.length, 3);
    for (const key of keys) {
      assert.ok(!dump.includes(key), 'a key is in the database');
      // Nor its random part, in case something stored it without the prefix.
      assert.ok(!dump.includes(key.slice('ca_sk_'.length)), 'a key body is in the database');
      const bytes = Buffer.from(key.slice('ca_sk_'.length));
      for (const file of filesUnder(dir)) assert.ok(!readFileSync(file).includes(bytes), `a key is in ${path.relative(dir, file)}`);
    }
  });

  it('listens on loopback only', async () => {
    const box = await startSandbox({ applications: [], log: () => undefined });
    try {
      assert.match(box.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const port = new URL(box.url).port;
      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal);
      if (external) {
        const reached = await fetch(`http://${external.address}:${port}/api`, { signal: AbortSignal.timeout(2_000) }).then(
          () => true,
          () => false,
        );
        assert.equal(reached, false, 'the sandbox answered on a non-loopback address');
      }
    } finally {
      await box.close();
    }
  });

  it('a key of one application can neither read nor change another application’s actions (404 for every operation)', async () => {
    const box = await startSandbox({
      applications: [
        { id: 'app-a', name: 'A' },
        { id: 'app-b', name: 'B' },
      ],
      log: () => undefined,
    });
    const req = requester(box.url);
    const [a, b] = [box.applications[0]!.key, box.applications[1]!.key];
    try {
      const own = (await req('POST', '/api/application/app-a/actions', { key: a, json: metadata() })).json as ActionResource;
      await req('PUT', `/api/actions/${own.id}/implementation`, {
        key: a,
        body: 'export const main = (a: number, b: number) => a + b;',
        type: 'application/typescript',
      });
      const before = await req('GET', `/api/actions/${own.id}`, { key: a });
      const runs = own.eventsUrls.Test.replace(/events$/, 'runs');
      const attempts: [string, string, Parameters<typeof req>[2]][] = [
        ['GET', '/api/application/app-a/actions', {}],
        ['POST', '/api/application/app-a/actions', { json: metadata({ key: 'intruder' }) }],
        ['GET', `/api/actions/${own.id}`, {}],
        ['GET', `/api/action/${own.id}`, {}],
        ['HEAD', `/api/actions/${own.id}`, {}],
        ['PUT', `/api/actions/${own.id}`, { json: metadata({ name: 'Taken' }) }],
        ['GET', `/api/actions/${own.id}/implementation`, {}],
        ['PUT', `/api/actions/${own.id}/implementation`, { body: 'export const main = () => "owned";', type: 'application/typescript' }],
        ['DELETE', `/api/actions/${own.id}`, {}],
        ['GET', own.eventsUrls.Test, {}],
        ['GET', own.eventsUrls.Live, {}],
        ['POST', runs, { json: { inputs: [1, 2] } }],
      ];
      for (const [method, p, init] of attempts) {
        const reply = await req(method, p, { ...init, key: b });
        assert.equal(reply.status, 404, `${method} ${p} with another application's key: ${reply.status}`);
      }
      const after = await req('GET', `/api/actions/${own.id}`, { key: a });
      assert.equal(after.text, before.text, 'the action changed');
      assert.equal((await req('GET', own.eventsUrls.Test, { key: a })).text, '[]', 'a run was recorded');
      assert.equal((await req('GET', `/api/actions/${own.id}/implementation`, { key: a })).text, 'export const main = (a: number, b: number) => a + b;');
    } finally {
      await box.close();
    }
  });
});
