import assert from 'node:assert/strict';
import { sameServer, serverIdentity } from '../../src/core/client/serverIdentity';
import { DeployLock } from '../../src/core/deploy/lock';
import { scopedKey, scopedRecord } from '../../src/core/deploy/scope';
import { entriesIn, type HistoryEntry } from '../../src/core/deploy/history';

describe('server identity (serverIdentity): one server, one name', () => {
  const cases: [string, string][] = [
    ['https://Platform.Example.com', 'https://platform.example.com/'],
    ['HTTPS://platform.example.com:443/', 'https://platform.example.com/'],
    ['http://platform.example.com:80', 'http://platform.example.com/'],
    ['https://platform.example.com:8443', 'https://platform.example.com:8443/'],
    ['https://platform.example.com/prefix', 'https://platform.example.com/prefix/'],
    ['https://platform.example.com//prefix/./x/../', 'https://platform.example.com/prefix/'],
    ['https://platform.example.com/Prefix/', 'https://platform.example.com/Prefix/'],
    ['https://user:secret@platform.example.com/?q=1#f', 'https://platform.example.com/'],
    ['http://127.0.0.1:4000', 'http://localhost:4000/'],
    ['http://LOCALHOST:4000///', 'http://localhost:4000/'],
    ['http://[::1]:4000/', 'http://localhost:4000/'],
    ['http://127.0.0.2:4000/', 'http://127.0.0.2:4000/'],
    ['  local-sandbox ', 'local-sandbox/'],
    ['local-sandbox/', 'local-sandbox/'],
    ['not a url//', 'not a url/'],
  ];
  for (const [spelling, identity] of cases)
    it(`${JSON.stringify(spelling)} is ${identity}`, () => {
      assert.equal(serverIdentity(spelling), identity);
    });

  it('keeps apart what is not one server: scheme, port, host, path', () => {
    assert.equal(sameServer('http://localhost:4000', 'https://localhost:4000'), false);
    assert.equal(sameServer('http://localhost:4000', 'http://localhost:4001'), false);
    assert.equal(sameServer('https://a.example.com', 'https://b.example.com'), false);
    assert.equal(sameServer('https://a.example.com/one', 'https://a.example.com/two'), false);
    assert.equal(sameServer('https://a.example.com', 'https://A.EXAMPLE.COM:443/'), true);
  });

  it('never keeps a password of the URL in the name it gives', () => {
    assert.ok(!serverIdentity('https://me:hunter2@example.com/').includes('hunter2'));
  });
});

describe('server identity in the lock and the records', () => {
  const base = { hash: 'sha256:a', etag: '"1"' };

  it('finds an entry under any spelling of its server, and writes the identity', () => {
    const lock = DeployLock.empty().with('http://127.0.0.1:4000', 'app', 'k', { id: '1', metadata: base });
    assert.deepEqual(lock.get('http://localhost:4000/', 'app', 'k'), { id: '1', metadata: base });
    assert.deepEqual(Object.keys((JSON.parse(lock.serialize()) as { servers: object }).servers), ['http://localhost:4000/']);
  });

  it('reads a lock keyed by old spellings into one server; parts the spellings disagree on have no base', () => {
    const text = JSON.stringify({
      version: 1,
      servers: {
        'http://127.0.0.1:4000': { app: { k: { id: '1', metadata: base, implementation: { hash: 'sha256:c1' } }, only: { id: '2', metadata: base } } },
        'http://localhost:4000/': { app: { k: { id: '1', metadata: base, implementation: { hash: 'sha256:c2' } }, other: { id: '3', metadata: base } } },
      },
    });
    const parsed = DeployLock.parse(text);
    assert.ok('lock' in parsed);
    const { lock } = parsed;
    assert.deepEqual(lock.get('http://localhost:4000', 'app', 'k'), { id: '1', metadata: base });
    assert.deepEqual(lock.get('http://[::1]:4000', 'app', 'only'), { id: '2', metadata: base });
    assert.deepEqual(lock.keys('http://localhost:4000', 'app').sort(), ['k', 'only', 'other']);
    assert.deepEqual(Object.keys((JSON.parse(lock.serialize()) as { servers: object }).servers), ['http://localhost:4000/']);
  });

  it('drops an entry two spellings give two ids', () => {
    const text = JSON.stringify({
      version: 1,
      servers: { 'http://h:1': { app: { k: { id: '1', metadata: base } } }, 'http://H:1/': { app: { k: { id: '2', metadata: base } } } },
    });
    const parsed = DeployLock.parse(text);
    assert.ok('lock' in parsed);
    assert.equal(parsed.lock.get('http://h:1', 'app', 'k'), undefined);
  });

  it('scoped records: one key per server; a record under an old spelling is read, one of another server never', () => {
    assert.equal(scopedKey({ server: 'http://127.0.0.1:4000', appId: 'a' }, 'x'), scopedKey({ server: 'http://localhost:4000/', appId: 'a' }, 'x'));
    const records = { ['http://127.0.0.1:4000\u0000a\u0000x']: 'old', ['http://other:4000\u0000a\u0000y']: 'foreign' };
    assert.equal(scopedRecord(records, { server: 'http://localhost:4000', appId: 'a' }, 'x'), 'old');
    assert.equal(scopedRecord(records, { server: 'http://localhost:4000', appId: 'a' }, 'y'), undefined);
    assert.equal(scopedRecord(records, { server: 'http://localhost:4000', appId: 'b' }, 'x'), undefined);
  });

  it('history: an entry pushed to another spelling of the server is its history', () => {
    const entry: HistoryEntry = {
      id: '1',
      appId: 'a',
      actionId: 'x',
      actionKey: 'k',
      part: 'implementation',
      content: 'c',
      time: '2026-01-01T00:00:00Z',
      target: 'http://127.0.0.1:4000',
      etag: undefined,
      checked: true,
    };
    assert.equal(entriesIn([entry], { server: 'http://localhost:4000/', appId: 'a' }, 'x').length, 1);
    assert.equal(entriesIn([entry], { server: 'http://localhost:4001/', appId: 'a' }, 'x').length, 0);
  });
});
