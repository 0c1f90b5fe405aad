import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/sandbox/store/database';
import { type ActionResource, type ActionVersionList, type CapabilityIndex } from '../../src/core/schema';
import { VERSIONS_KEPT } from '../../src/sandbox/store/versions';
import { assertMatchesSpec, metadata, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;
const TS = 'application/typescript';

describe('sandbox: conditional writes (ETag, If-Match, 412) and kept versions', () => {
  let box: Box;
  let key: string;
  before(async () => {
    box = await withSandbox();
    key = box.applications[0]!.key;
  });
  after(() => box.close());

  let n = 0;
  async function create(): Promise<{ action: ActionResource; etag: string }> {
    const reply = await box.request('POST', '/api/application/app-a/actions', { key, json: metadata({ key: `versioned-${++n}` }) });
    assert.equal(reply.status, 201, reply.text);
    return { action: reply.json as ActionResource, etag: reply.headers.get('etag')! };
  }
  const putCode = (id: string, code: string, ifMatch?: string) =>
    box.request('PUT', `/api/actions/${id}/implementation`, { key, body: code, type: TS, headers: ifMatch ? { 'If-Match': ifMatch } : {} });
  const putMetadata = (id: string, json: unknown, ifMatch?: string) =>
    box.request('PUT', `/api/actions/${id}`, { key, json, headers: ifMatch ? { 'If-Match': ifMatch } : {} });

  it('advertises both in GET /api', async () => {
    const index = (await box.request('GET', '/api')).json as CapabilityIndex;
    assert.deepEqual(index.extensions.conditionalWrites, { header: 'If-Match', resources: ['metadata', 'implementation'], firstWrite: 'If-None-Match' });
    assert.deepEqual(index.extensions.versions, { maxKeptPerKind: VERSIONS_KEPT });
  });

  it('tags the code: GET and PUT send an ETag that changes with every accepted write', async () => {
    const { action } = await create();
    const first = await putCode(action.id, 'export function main() { return 1; }');
    assert.equal(first.status, 204);
    assertMatchesSpec('PUT', '/api/actions/{actionId}/implementation', first);
    const tag1 = first.headers.get('etag');
    assert.equal(tag1, '"code-1"');
    const got = await box.request('GET', `/api/actions/${action.id}/implementation`, { key });
    assert.equal(got.headers.get('etag'), tag1);
    const second = await putCode(action.id, 'export function main() { return 2; }', tag1!);
    assert.equal(second.status, 204);
    assert.equal(second.headers.get('etag'), '"code-2"');
  });

  it('refuses a code write based on an older version: 412, the current tag, and nothing written', async () => {
    const { action } = await create();
    const mine = (await putCode(action.id, 'export function main() { return "base"; }')).headers.get('etag')!;
    // A colleague writes in between.
    assert.equal((await putCode(action.id, 'export function main() { return "theirs"; }', mine)).status, 204);
    const stale = await putCode(action.id, 'export function main() { return "mine"; }', mine);
    assert.equal(stale.status, 412, stale.text);
    assertMatchesSpec('PUT', '/api/actions/{actionId}/implementation', stale);
    assert.equal((stale.json as { code: string }).code, 'precondition-failed');
    assert.equal(stale.headers.get('etag'), '"code-2"');
    const now = await box.request('GET', `/api/actions/${action.id}/implementation`, { key });
    assert.match(now.text, /theirs/);
  });

  it('compares tags strongly and per resource: weak, foreign and malformed tags match nothing; * needs code to exist', async () => {
    const { action, etag: metaTag } = await create();
    assert.equal((await putCode(action.id, 'export function main() {}', '*')).status, 412, 'no code yet: * matches nothing');
    assert.equal((await putCode(action.id, 'export function main() {}')).status, 204);
    for (const tag of ['W/"code-1"', metaTag, '"code-01"', 'code-1', '"code-1', '']) {
      assert.equal((await putCode(action.id, 'export function main() {}', tag || ' ')).status, 412, `If-Match: ${tag}`);
    }
    assert.equal((await putCode(action.id, 'export function main() {}', '"code-9", "code-1"')).status, 204, 'a list matches when one of its tags does');
    assert.equal((await putCode(action.id, 'export function main() {}', '*')).status, 204);
  });

  it('writes code with If-None-Match: * only while the action has none, so a first push is checked too', async () => {
    const { action } = await create();
    const putFirst = (code: string, headers: Record<string, string>) =>
      box.request('PUT', `/api/actions/${action.id}/implementation`, { key, body: code, type: TS, headers });
    const first = await putFirst('export function main() { return "mine"; }', { 'If-None-Match': '*' });
    assert.equal(first.status, 204, first.text);
    assert.equal(first.headers.get('etag'), '"code-1"');
    const late = await putFirst('export function main() { return "theirs"; }', { 'If-None-Match': ' * ' });
    assert.equal(late.status, 412, late.text);
    assertMatchesSpec('PUT', '/api/actions/{actionId}/implementation', late);
    assert.equal(late.headers.get('etag'), '"code-1"');
    assert.match((late.json as { detail: string }).detail, /has code already/);
    assert.match((await box.request('GET', `/api/actions/${action.id}/implementation`, { key })).text, /mine/, 'nothing written');
    // If-Match decides when both are sent; a list of tags in If-None-Match is no check here.
    assert.equal((await putFirst('export function main() {}', { 'If-Match': '"code-1"', 'If-None-Match': '*' })).status, 204);
    assert.equal((await putFirst('export function main() {}', { 'If-None-Match': '"code-1"' })).status, 204);
  });

  it('tags the metadata the same way, apart from the code', async () => {
    const { action, etag } = await create();
    assert.equal(etag, '"meta-1"');
    const got = await box.request('GET', `/api/actions/${action.id}`, { key });
    assert.equal(got.headers.get('etag'), etag);
    // A code write leaves the metadata's version alone, so a metadata write based on it still goes.
    assert.equal((await putCode(action.id, 'export function main() {}')).status, 204);
    const renamed = { ...metadata({ key: action.key }), name: 'Renamed' };
    const ok = await putMetadata(action.id, renamed, etag);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.headers.get('etag'), '"meta-2"');
    const stale = await putMetadata(action.id, { ...renamed, name: 'Mine' }, etag);
    assert.equal(stale.status, 412);
    assertMatchesSpec('PUT', '/api/actions/{actionId}', stale);
    assert.equal(((await box.request('GET', `/api/actions/${action.id}`, { key })).json as ActionResource).name, 'Renamed');
  });

  it('writes without If-Match as the spec says: unconditionally', async () => {
    const { action } = await create();
    assert.equal((await putCode(action.id, 'export function main() { return 1; }')).status, 204);
    assert.equal((await putCode(action.id, 'export function main() { return 2; }')).status, 204);
    assert.equal((await putMetadata(action.id, metadata({ key: action.key, name: 'Again' }))).status, 200);
  });

  it('keeps the versions of code and metadata, newest first, each readable back', async () => {
    const { action } = await create();
    await putCode(action.id, 'export function main() { return "v1"; }');
    await putCode(action.id, 'export function main() { return "v2"; }');
    await putMetadata(action.id, metadata({ key: action.key, name: 'Second' }));
    const list = await box.request('GET', `/api/actions/${action.id}/versions`, { key, headers: { 'User-Agent': 'colleague-tool/1.0' } });
    assert.equal(list.status, 200);
    assertMatchesSpec('GET', '/api/actions/{actionId}/versions', list);
    const versions = (list.json as ActionVersionList).versions;
    assert.deepEqual(
      versions.map((v) => [v.kind, v.version, v.etag]),
      [
        ['metadata', 2, '"meta-2"'],
        ['implementation', 2, '"code-2"'],
        ['implementation', 1, '"code-1"'],
        ['metadata', 1, '"meta-1"'],
      ],
    );
    const old = await box.request('GET', `/api/actions/${action.id}/versions/implementation/1`, { key });
    assert.equal(old.status, 200);
    assertMatchesSpec('GET', '/api/actions/{actionId}/versions/{kind}/{version}', old);
    assert.equal(old.text, 'export function main() { return "v1"; }');
    assert.equal(old.headers.get('etag'), '"code-1"');
    const firstMeta = await box.request('GET', `/api/actions/${action.id}/versions/metadata/1`, { key });
    assert.equal((firstMeta.json as { name: string }).name, 'Add');
    assert.equal((await box.request('GET', `/api/actions/${action.id}/versions/implementation/9`, { key })).status, 404);
    assert.equal((await box.request('GET', `/api/actions/${action.id}/versions/other/1`, { key })).status, 404);
  });

  it('keeps at most the newest versions of each kind, and another application sees none of them', async () => {
    const { action } = await create();
    for (let i = 1; i <= VERSIONS_KEPT + 3; i++) await putCode(action.id, `export function main() { return ${i}; }`);
    const versions = ((await box.request('GET', `/api/actions/${action.id}/versions`, { key })).json as ActionVersionList).versions.filter(
      (v) => v.kind === 'implementation',
    );
    assert.equal(versions.length, VERSIONS_KEPT);
    assert.equal(versions.at(-1)!.version, 4);
    const otherKey = box.applications[1]!.key;
    assert.equal((await box.request('GET', `/api/actions/${action.id}/versions`, { key: otherKey })).status, 404);
    assert.equal((await box.request('GET', `/api/actions/${action.id}/versions/implementation/4`, { key: otherKey })).status, 404);
  });

  it('makes the check and the write one step: of two writes based on the same version, exactly one goes through', async () => {
    const { action } = await create();
    const base = (await putCode(action.id, 'export function main() { return 0; }')).headers.get('etag')!;
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => putCode(action.id, `export function main() { return ${i + 1}; }`, base)));
    assert.deepEqual(replies.map((r) => r.status).sort(), [204, 412, 412, 412, 412, 412, 412, 412]);
  });

  it('brings a data directory of the previous schema up to date in place, its code and metadata at version 1', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-schema1-'));
    try {
      const first = await withSandbox({ dataDir: dir });
      const k = first.applications[0]!.key;
      const created = (await first.request('POST', '/api/application/app-a/actions', { key: k, json: metadata({ key: 'old' }) })).json as ActionResource;
      await first.request('PUT', `/api/actions/${created.id}/implementation`, { key: k, body: 'export function main() { return "old"; }', type: TS });
      await first.close();
      // What a sandbox of schema 1 left: no version columns, no versions table.
      const db = await openDatabase(dir);
      await db.exec(`ALTER TABLE actions DROP COLUMN metadata_version; ALTER TABLE actions DROP COLUMN code_version;
        DROP TABLE action_versions; UPDATE sandbox_meta SET value = '1' WHERE name = 'schema_version'`);
      await db.close();
      const again = await withSandbox({ dataDir: dir, applications: [] });
      try {
        const code = await again.request('GET', `/api/actions/${created.id}/implementation`, { key: k });
        assert.equal(code.headers.get('etag'), '"code-1"');
        assert.equal((await again.request('GET', `/api/actions/${created.id}`, { key: k })).headers.get('etag'), '"meta-1"');
        const next = await again.request('PUT', `/api/actions/${created.id}/implementation`, {
          key: k,
          body: 'export function main() { return "new"; }',
          type: TS,
          headers: { 'If-Match': '"code-1"' },
        });
        assert.equal(next.status, 204);
        assert.equal(next.headers.get('etag'), '"code-2"');
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
