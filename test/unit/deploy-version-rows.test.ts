import * as assert from 'node:assert/strict';
import { type VersionEntry } from '../../src/core/client';
import { type HistoryEntry } from '../../src/core/deploy/history';
import { isBase, parseVersionRef, versionRows } from '../../src/core/deploy/versionRows';

const version = (kind: VersionEntry['kind'], n: number, etag: string | undefined, createdAt: string): VersionEntry => ({
  kind,
  version: n,
  etag,
  createdAt,
  size: undefined,
  client: undefined,
});
const entry = (etag: string | undefined, time: string): HistoryEntry => ({
  id: time,
  appId: 'a',
  actionId: 'x',
  actionKey: 'k',
  part: 'implementation',
  content: 'code',
  time,
  target: 'http://s',
  etag,
  checked: true,
});

describe('versionRows: the versions both faces list', () => {
  it('a push from here that made a kept version is one row, newest first, the other part left out when not asked', () => {
    const versions = [
      version('implementation', 1, '"c1"', '2026-01-01T00:00:00.000Z'),
      version('implementation', 2, '"c2"', '2026-01-02T00:00:00.000Z'),
      version('metadata', 1, '"m1"', '2026-01-03T00:00:00.000Z'),
    ];
    const rows = versionRows([entry('"c2"', '2026-01-02T00:00:01.000Z')], versions, ['implementation']);
    assert.deepEqual(
      rows.map((r) => [r.version?.version, r.entry !== undefined]),
      [
        [2, true],
        [1, false],
      ],
    );
    assert.equal(isBase(rows[0]!, { id: 'x', implementation: { etag: '"c2"', hash: 'h' } }), true);
    assert.equal(isBase(rows[1]!, { id: 'x', implementation: { etag: '"c2"', hash: 'h' } }), false);
    assert.equal(isBase(rows[1]!, undefined), false);
  });

  it('reads code@3, main.ts@3, metadata@2, a bare 4; refuses what names no part or version', () => {
    assert.deepEqual(parseVersionRef('code@3'), { part: 'implementation', version: 3 });
    assert.deepEqual(parseVersionRef('main.ts@3'), { part: 'implementation', version: 3 });
    assert.deepEqual(parseVersionRef('Metadata@2'), { part: 'metadata', version: 2 });
    assert.deepEqual(parseVersionRef('4'), { part: undefined, version: 4 });
    for (const bad of ['code@0', 'code@', 'main@3', '@3', 'x', '-1', '1.5']) assert.equal(parseVersionRef(bad), undefined, bad);
  });
});
