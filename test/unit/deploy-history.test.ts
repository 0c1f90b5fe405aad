import * as assert from 'node:assert/strict';
import { addEntry, entriesIn, type HistoryEntry, readEntries } from '../../src/core/deploy/history';

const entry = (actionId: string, n: number, content = `code ${n}`): HistoryEntry => ({
  id: `${actionId}-${n}`,
  appId: 'app',
  actionId,
  actionKey: actionId,
  part: 'implementation',
  content,
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  target: 'http://127.0.0.1:1',
  etag: `"${n}"`,
  checked: true,
});

describe('deploy history: bounds', () => {
  const limits = { perAction: 3, total: 5, totalChars: 1_000 };

  it('keeps the newest entries of an action, and the others of the other actions', () => {
    let entries: HistoryEntry[] = [entry('b', 0)];
    for (let n = 1; n <= 5; n++) entries = addEntry(entries, entry('a', n), limits);
    assert.deepEqual(
      entries.map((e) => e.id),
      ['b-0', 'a-3', 'a-4', 'a-5'],
    );
  });

  it('keeps at most `total` entries and `totalChars` of content, oldest dropped first, the newest always', () => {
    let entries: HistoryEntry[] = [];
    for (let n = 1; n <= 7; n++) entries = addEntry(entries, entry(`x${n}`, n), limits);
    assert.deepEqual(
      entries.map((e) => e.id),
      ['x3-3', 'x4-4', 'x5-5', 'x6-6', 'x7-7'],
    );
    entries = addEntry(entries, entry('big', 8, 'y'.repeat(990)), limits);
    assert.deepEqual(
      entries.map((e) => e.id),
      ['x7-7', 'big-8'],
    );
    assert.deepEqual(addEntry([], entry('huge', 9, 'z'.repeat(5_000)), limits).length, 1);
  });

  it('reads back only well-formed entries from storage', () => {
    assert.deepEqual(readEntries({ not: 'a list' }), []);
    assert.deepEqual(readEntries([entry('a', 1), { id: 'x' }, null, { ...entry('a', 2), part: 'other' }]), [entry('a', 1)]);
  });
});

describe('deploy history: scoped to the server and the application', () => {
  const at = (target: string, appId: string, n: number): HistoryEntry => ({ ...entry('a', n), target, appId });

  it('offers an action only the entries pushed to the same server and application, trailing slashes aside', () => {
    const entries = [
      at('https://one.example/', 'app', 1),
      at('https://two.example', 'app', 2),
      at('https://one.example', 'other', 3),
      at('https://one.example', 'app', 4),
    ];
    assert.deepEqual(
      entriesIn(entries, { server: 'https://one.example', appId: 'app' }, 'a').map((e) => e.id),
      ['a-1', 'a-4'],
    );
    assert.deepEqual(entriesIn(entries, { server: 'https://three.example', appId: 'app' }, 'a'), []);
  });

  it("bounds an action's entries per server: another server's pushes of the same ids do not push them out", () => {
    const limits = { perAction: 2, total: 50, totalChars: 10_000 };
    let entries: HistoryEntry[] = [at('https://one.example', 'app', 1)];
    for (let n = 2; n <= 4; n++) entries = addEntry(entries, at('https://two.example', 'app', n), limits);
    assert.deepEqual(
      entries.map((e) => e.id),
      ['a-1', 'a-3', 'a-4'],
    );
  });
});
