import assert from 'node:assert/strict';
import { NO_CODE } from '../../src/core/deploy/base';
import { changedSinceBase, decideRead, listedAtBase, partStatus } from '../../src/core/deploy/decide';
import { DeployLock } from '../../src/core/deploy/lock';

const base = { etag: '"v1"', hash: 'sha256:base' };

describe('deploy: the rule of a part (decide.ts)', () => {
  it("takes a part listed under its base's tag as the base, unread; anything else says nothing", () => {
    assert.deepEqual(listedAtBase(base, '"v1"'), { hash: 'sha256:base', etag: '"v1"' });
    assert.equal(listedAtBase(base, '"v2"'), undefined, 'another tag: the same text may be back under it, only a read tells');
    assert.equal(listedAtBase(base, undefined), undefined, 'a list without tags');
    assert.equal(listedAtBase(base, null), undefined, 'no code listed against a base with code: changed on the server, read it');
    assert.equal(listedAtBase(undefined, '"v1"'), undefined, 'no base');
    assert.equal(listedAtBase({ etag: undefined, hash: 'sha256:base' }, '"v1"'), undefined, 'a base with no tag to compare');
    assert.deepEqual(listedAtBase(NO_CODE, null), { absent: true });
    assert.equal(listedAtBase(NO_CODE, '"code-1"'), undefined);
  });

  it('sends nothing when the server holds what the workspace has, whatever the base', () => {
    assert.deepEqual(decideRead('sha256:here', base, { hash: 'sha256:here', etag: '"v9"' }, false), { kind: 'unchanged' });
    assert.deepEqual(decideRead('sha256:here', undefined, { hash: 'sha256:here', etag: undefined }, false), { kind: 'unchanged' });
  });

  it('replaces the server version only when it is the base, and holds anything else unless forced', () => {
    assert.deepEqual(decideRead('sha256:here', base, { hash: 'sha256:base', etag: '"v1"' }, false), { kind: 'push', why: 'changed-here' });
    assert.deepEqual(decideRead('sha256:here', base, { hash: 'sha256:other', etag: '"v2"' }, false), { kind: 'held', why: 'changed-on-server' });
    assert.deepEqual(decideRead('sha256:here', undefined, { hash: 'sha256:other', etag: '"v2"' }, false), { kind: 'held', why: 'no-base' });
    assert.deepEqual(decideRead('sha256:here', base, { hash: 'sha256:other', etag: '"v2"' }, true), { kind: 'push', why: 'forced' });
  });

  it('writes the first code of an action, and holds code pushed since a base without any', () => {
    assert.deepEqual(decideRead('sha256:here', NO_CODE, { absent: true }, false), { kind: 'push', why: 'first-code' });
    assert.deepEqual(decideRead('sha256:here', NO_CODE, { hash: NO_CODE.hash, etag: '"c1"' }, false), { kind: 'held', why: 'changed-on-server' });
  });

  it("holds the base's own text when the server moved since: unchanged is judged against the base, as status judges it", () => {
    assert.deepEqual(decideRead('sha256:base', base, { hash: 'sha256:other', etag: '"v2"' }, false), { kind: 'held', why: 'changed-on-server' });
    assert.equal(partStatus('sha256:base', base, { hash: 'sha256:other', etag: '"v2"' }), 'changed-on-server');
  });

  it('tells which side changed for a status', () => {
    assert.equal(partStatus('sha256:base', base, { hash: 'sha256:base', etag: undefined }), 'same');
    assert.equal(partStatus('sha256:here', base, { hash: 'sha256:base', etag: undefined }), 'changed-here');
    assert.equal(partStatus('sha256:base', base, { hash: 'sha256:there', etag: undefined }), 'changed-on-server');
    assert.equal(partStatus('sha256:here', base, { hash: 'sha256:there', etag: undefined }), 'changed-on-both');
    assert.equal(partStatus('sha256:here', undefined, { hash: 'sha256:there', etag: undefined }), 'differs');
    assert.equal(partStatus('sha256:here', base, undefined), 'unknown');
    assert.equal(partStatus(undefined, undefined, { absent: true }), 'same');
  });
});

describe('deploy: changed on the server (changedSinceBase), one rule for a deploy, a status and the editor', () => {
  const v1 = { etag: '"v1"', hash: 'h1' };
  // [case, base, server, changed]
  const rows: [string, Parameters<typeof changedSinceBase>[0], Parameters<typeof changedSinceBase>[1], boolean | undefined][] = [
    ['the same content under the same tag', v1, { hash: 'h1', etag: '"v1"' }, false],
    ['the same content under a new tag (a colleague put the text back)', v1, { hash: 'h1', etag: '"v7"' }, false],
    ['other content under the same tag (a server that does not move its tags)', v1, { hash: 'h2', etag: '"v1"' }, true],
    ['other content under a new tag', v1, { hash: 'h2', etag: '"v2"' }, true],
    ['code on a server whose base had none', NO_CODE, { hash: 'h1', etag: '"v1"' }, true],
    ['no code on either', NO_CODE, { absent: true }, false],
    ['no base to tell', undefined, { hash: 'h1', etag: '"v1"' }, undefined],
  ];
  for (const [name, b, server, changed] of rows)
    it(`${name}: ${String(changed)}, and a deploy and a status read it so`, () => {
      assert.equal(changedSinceBase(b, server), changed);
      // A local copy at the base: a status says changed-on-server exactly when the rule does, and a
      // deploy of a local change is held exactly then.
      const localHash = b && !b.absent ? b.hash : undefined;
      if (changed !== undefined && 'hash' in server && localHash !== server.hash)
        assert.equal(partStatus(localHash, b, server) === 'changed-on-server', changed);
      if (changed !== undefined && 'hash' in server) assert.equal(decideRead('local-edit', b, server, false).kind === 'held', changed);
    });
});

describe('deploy: the lock (lock.ts)', () => {
  it('reads what it writes, keyed by server, application and key, in a stable text', () => {
    const lock = DeployLock.empty()
      .with('http://h:1', 'app', 'b', { id: '2', metadata: base })
      .with('http://h:1/', 'app', 'a', { id: '1', implementation: NO_CODE });
    const text = lock.serialize();
    const again = DeployLock.parse(text);
    assert.ok('lock' in again);
    assert.equal(again.lock.serialize(), text);
    assert.deepEqual(again.lock.get('http://h:1/', 'app', 'b'), { id: '2', metadata: base });
    assert.ok(text.indexOf('"a"') < text.indexOf('"b"'), 'members sorted');
    assert.equal(lock.without('http://h:1', 'app', 'a').without('http://h:1', 'app', 'b').serialize(), DeployLock.empty().serialize());
  });

  it('keeps a part the new entry leaves out for the same id, and drops the old entry for another id', () => {
    const lock = DeployLock.empty().with('s', 'app', 'k', { id: '1', metadata: base, implementation: NO_CODE });
    assert.deepEqual(lock.with('s', 'app', 'k', { id: '1', metadata: { etag: undefined, hash: 'h2' } }).get('s', 'app', 'k')?.implementation, NO_CODE);
    assert.equal(lock.with('s', 'app', 'k', { id: '2' }).get('s', 'app', 'k')?.implementation, undefined);
  });

  it('makes a run’s changes at once exactly as one at a time, leaving no empty application behind', () => {
    let lock = DeployLock.empty();
    for (let i = 0; i < 5; i++) lock = lock.with('s', i % 2 ? 'odd' : 'even', `k${i}`, { id: String(i), metadata: base, implementation: NO_CODE });
    const changes = [
      { applicationId: 'even', key: 'k0', entry: { id: '0', metadata: { etag: '"v2"', hash: 'h2' } } },
      { applicationId: 'odd', key: 'k1', entry: null },
      { applicationId: 'odd', key: 'k3', entry: null },
      { applicationId: 'even', key: 'k4', entry: { id: 'new' } },
      { applicationId: 'even', key: 'k9', entry: { id: '9', implementation: NO_CODE } },
      { applicationId: 'even', key: 'k9', entry: { id: '9', metadata: base } },
    ];
    let oneByOne = lock;
    for (const c of changes) oneByOne = c.entry === null ? oneByOne.without('s', c.applicationId, c.key) : oneByOne.with('s', c.applicationId, c.key, c.entry);
    const atOnce = lock.withAll('s', changes);
    assert.equal(atOnce.serialize(), oneByOne.serialize());
    assert.deepEqual(atOnce.keys('s', 'odd'), []);
    assert.doesNotMatch(atOnce.serialize(), /"odd"/);
    assert.deepEqual(atOnce.get('s', 'even', 'k9'), { id: '9', implementation: NO_CODE, metadata: base });
    assert.equal(lock.keys('s', 'odd').length, 2, 'the lock it was made from changed');
  });

  it('refuses a text that is not a lock rather than taking it as empty', () => {
    assert.ok('problem' in DeployLock.parse('{'));
    assert.ok('problem' in DeployLock.parse('{"version": 2, "servers": {}}'));
    assert.ok('problem' in DeployLock.parse('[]'));
  });
});
