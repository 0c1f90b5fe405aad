import assert from 'node:assert/strict';
import { type Capabilities, NO_CAPABILITIES, VersionConflictError } from '../../src/core/client';
import { codeHash, NO_CODE } from '../../src/core/deploy/base';
import { DeployLock, isEntityTag } from '../../src/core/deploy/lock';
import { type PartClient, type PartPush, pushPart } from '../../src/core/deploy/pushPart';

const CHECKS: Capabilities = {
  ...NO_CAPABILITIES,
  getAction: true,
  getImplementation: true,
  conditionalWrites: { metadata: true, implementation: true, firstImplementation: true },
};
const NO_CHECKS: Capabilities = { ...CHECKS, conditionalWrites: NO_CAPABILITIES.conditionalWrites };

/** A server holding one action's code, checking If-Match and If-None-Match as the sandbox does; it records what was sent. */
function server(code: string | undefined, tag = '"c1"') {
  const state = { code, tag, version: 1 };
  const sent: { content: string; ifMatch?: string; ifNoneMatch?: string }[] = [];
  let reads = 0;
  const client: PartClient = {
    putImplementation: (_id, content, o = {}) => {
      sent.push({ content, ...(o.ifMatch ? { ifMatch: o.ifMatch } : {}), ...(o.ifNoneMatch ? { ifNoneMatch: o.ifNoneMatch } : {}) });
      if ((o.ifMatch && o.ifMatch !== state.tag) || (o.ifNoneMatch && state.code !== undefined))
        return Promise.reject(new VersionConflictError({ kind: 'conflict', operation: 'putImplementation', status: 412, currentEtag: state.tag }));
      state.code = content;
      state.tag = `"c${++state.version}"`;
      return Promise.resolve({ etag: state.tag, alreadyHeld: false });
    },
    getImplementationVersioned: () => {
      reads++;
      return Promise.resolve({ code: state.code, etag: state.code === undefined ? undefined : state.tag });
    },
    updateAction: () => Promise.reject(new Error('not used')),
    getActionVersioned: () => Promise.reject(new Error('not used')),
    listVersions: () =>
      Promise.resolve([
        { kind: 'implementation', version: state.version, etag: state.tag, createdAt: '2026-11-28T10:00:00Z', size: 1, client: 'colleague/1.0' },
      ]),
  };
  return { client, state, sent, reads: () => reads };
}

const push = (content: string, rest: Partial<PartPush>): PartPush => ({
  id: 'a1',
  part: 'implementation',
  content,
  hash: codeHash(content),
  base: undefined,
  force: false,
  caps: CHECKS,
  ...rest,
});

describe('deploy: one part pushed against its base (pushPart.ts), the rule the editor and the command line share', () => {
  it('writes straight on the base tag where the server checks it: one request, checked, and the new base', async () => {
    const s = server('old');
    const { outcome, base } = await pushPart(s.client, push('new', { base: { etag: '"c1"', hash: codeHash('old') } }));
    assert.deepEqual(outcome, { kind: 'pushed', step: 'implementation', op: 'update', checked: true });
    assert.deepEqual(s.sent, [{ content: 'new', ifMatch: '"c1"' }]);
    assert.equal(s.reads(), 0, 'no read before the write');
    assert.deepEqual(base, { etag: '"c2"', hash: codeHash('new') });
  });

  it('holds a part the server changed since the base (412, then a read), naming its version and writer, and records no base', async () => {
    const s = server('theirs', '"c7"');
    const result = await pushPart(s.client, push('mine', { base: { etag: '"c1"', hash: codeHash('old') }, caps: { ...CHECKS, versions: true } }));
    assert.deepEqual(result.outcome, {
      kind: 'held',
      step: 'implementation',
      why: 'changed-on-server',
      server: { etag: '"c7"', hash: codeHash('theirs'), version: 1, at: '2026-11-28T10:00:00Z', by: 'colleague/1.0' },
    });
    assert.equal(result.base, undefined);
    assert.equal(s.state.code, 'theirs');
  });

  it('replaces a server that holds the base text under a newer version (a colleague put the original back): nothing of theirs is lost', async () => {
    const s = server('old', '"c3"');
    const result = await pushPart(s.client, push('new', { base: { etag: '"c1"', hash: codeHash('old') } }));
    assert.deepEqual(result.outcome, { kind: 'pushed', step: 'implementation', op: 'update', checked: true });
    assert.deepEqual(s.sent, [
      { content: 'new', ifMatch: '"c1"' },
      { content: 'new', ifMatch: '"c3"' },
    ]);
    assert.equal(s.state.code, 'new');
  });

  it('judges "unchanged" against the base: the same text as the base is held when the server moved since, and forced it really overwrites', async () => {
    const base = { etag: '"c1"', hash: codeHash('mine') };
    const still = server('mine', '"c1"');
    assert.deepEqual(await pushPart(still.client, push('mine', { base })), {
      outcome: { kind: 'unchanged', step: 'implementation' },
      base: { etag: '"c1"', hash: codeHash('mine') },
    });
    assert.deepEqual(still.sent, [], 'nothing sent while the server holds the base');
    const moved = server('theirs', '"c2"');
    const held = await pushPart(moved.client, push('mine', { base }));
    assert.equal(held.outcome.kind === 'held' && held.outcome.why, 'changed-on-server');
    assert.deepEqual(moved.sent, []);
    const forced = await pushPart(moved.client, push('mine', { base, force: true }));
    assert.equal(forced.outcome.kind, 'pushed');
    assert.equal(moved.state.code, 'mine', "--force replaces the colleague's code");
    const back = server('mine', '"c5"');
    assert.equal((await pushPart(back.client, push('mine', { base }))).outcome.kind, 'unchanged', 'the server holds this very text: nothing is lost');
  });

  it('with no base, holds a server that holds other text, even for a push by hand (resend)', async () => {
    const s = server('theirs');
    for (const resend of [false, true]) {
      const { outcome } = await pushPart(s.client, push('mine', { resend }));
      assert.equal(outcome.kind, 'held');
      assert.equal(outcome.kind === 'held' && outcome.why, 'no-base');
      assert.deepEqual(outcome.kind === 'held' && outcome.server, { etag: '"c1"', hash: codeHash('theirs') });
    }
    assert.deepEqual(s.sent, [], 'nothing sent');
  });

  it('with no base, sends nothing when the server holds the same text and takes it as the base; a push by hand re-sends it conditionally', async () => {
    const s = server('same');
    const quiet = await pushPart(s.client, push('same', {}));
    assert.deepEqual(quiet, { outcome: { kind: 'unchanged', step: 'implementation' }, base: { etag: '"c1"', hash: codeHash('same') } });
    assert.deepEqual(s.sent, []);
    const byHand = await pushPart(s.client, push('same', { resend: true }));
    assert.equal(byHand.outcome.kind, 'pushed');
    assert.deepEqual(s.sent, [{ content: 'same', ifMatch: '"c1"' }]);
  });

  it('writes the first code of an action with If-None-Match, base or not, and holds code someone pushed since a base of none', async () => {
    const fresh = server(undefined);
    const first = await pushPart(fresh.client, push('first', {}));
    assert.deepEqual(first.outcome, { kind: 'pushed', step: 'implementation', op: 'update', checked: true });
    assert.deepEqual(fresh.sent, [{ content: 'first', ifNoneMatch: '*' }]);
    const taken = server('a colleague was first');
    const held = await pushPart(taken.client, push('mine', { base: NO_CODE }));
    assert.equal(held.outcome.kind === 'held' && held.outcome.why, 'changed-on-server');
  });

  it('on a server that checks nothing: reads, replaces only the base version (unchecked), holds the rest', async () => {
    const s = server('old');
    const ok = await pushPart(s.client, push('new', { base: { etag: '"c1"', hash: codeHash('old') }, caps: NO_CHECKS }));
    assert.deepEqual(ok.outcome, { kind: 'pushed', step: 'implementation', op: 'update', checked: false });
    assert.equal(s.reads(), 1);
    const other = server('theirs');
    const held = await pushPart(other.client, push('new', { base: { etag: '"c1"', hash: codeHash('old') }, caps: NO_CHECKS }));
    assert.equal(held.outcome.kind === 'held' && held.outcome.why, 'changed-on-server');
  });

  it('with no read of the server: a base sends unchecked, no base holds; force sends whatever the server holds', async () => {
    const blind: Capabilities = { ...NO_CHECKS, getImplementation: false };
    const s = server('theirs');
    assert.equal((await pushPart(s.client, push('new', { caps: blind }))).outcome.kind, 'held');
    assert.equal((await pushPart(s.client, push('new', { caps: blind, base: { etag: undefined, hash: 'h' } }))).outcome.kind, 'pushed');
    const forced = server('theirs');
    assert.equal((await pushPart(forced.client, push('mine', { force: true }))).outcome.kind, 'pushed');
    assert.deepEqual(forced.sent, [{ content: 'mine' }], 'forced: no condition');
  });

  it("takes the list's tag for a read: a part listed under its base's tag is unchanged with no request, another tag is read and judged", async () => {
    const base = { etag: '"c1"', hash: codeHash('mine') };
    const still = server('mine', '"c1"');
    assert.deepEqual(await pushPart(still.client, push('mine', { base, listedEtag: '"c1"' })), {
      outcome: { kind: 'unchanged', step: 'implementation' },
      base: undefined,
    });
    assert.equal(still.reads(), 0, 'no read: the list said the server holds the base');
    assert.deepEqual(still.sent, []);
    // A tag the list shows is only a hint: a server that moved since the list is still held by the write's If-Match.
    const movedSinceList = server('theirs', '"c2"');
    const changed = await pushPart(movedSinceList.client, push('new', { base, listedEtag: '"c1"' }));
    assert.equal(changed.outcome.kind === 'held' && changed.outcome.why, 'changed-on-server');
    // Another tag: read, since the same text may be back under a new version; another text is held.
    const back = server('mine', '"c9"');
    assert.equal((await pushPart(back.client, push('mine', { base, listedEtag: '"c9"' }))).outcome.kind, 'unchanged');
    assert.equal(back.reads(), 1);
    const moved = server('theirs', '"c9"');
    const held = await pushPart(moved.client, push('mine', { base, listedEtag: '"c9"' }));
    assert.equal(held.outcome.kind === 'held' && held.outcome.why, 'changed-on-server');
    // A change against a base the list shows moved is read at once: the write its If-Match would lose is not sent.
    const theirs = server('theirs', '"c9"');
    const notSent = await pushPart(theirs.client, push('new', { base, listedEtag: '"c9"' }));
    assert.equal(notSent.outcome.kind === 'held' && notSent.outcome.why, 'changed-on-server');
    assert.deepEqual(theirs.sent, [], 'no write the server would refuse');
    // Against a base of no code: none listed (null) writes the first code at once; code listed is read and held, unsent.
    const none = server(undefined);
    assert.equal((await pushPart(none.client, push('first', { base: NO_CODE, listedEtag: null }))).outcome.kind, 'pushed');
    assert.deepEqual(none.sent, [{ content: 'first', ifNoneMatch: '*' }]);
    const taken = server('a colleague was first', '"c4"');
    const first = await pushPart(taken.client, push('mine', { base: NO_CODE, listedEtag: '"c4"' }));
    assert.equal(first.outcome.kind === 'held' && first.outcome.why, 'changed-on-server');
    assert.deepEqual(taken.sent, []);
    // A push by hand (resend) is sent whatever the list says.
    const byHand = server('mine', '"c1"');
    assert.equal((await pushPart(byHand.client, push('mine', { base, listedEtag: '"c1"', resend: true }))).outcome.kind, 'pushed');
  });

  it('in a dry run, says what would be sent and writes nothing', async () => {
    const s = server('old');
    const { outcome } = await pushPart(s.client, push('new', { base: { etag: '"c1"', hash: codeHash('old') }, dryRun: true }));
    assert.equal(outcome.kind, 'pushed');
    assert.deepEqual(s.sent, []);
  });
});

describe('deploy: a lock file is untrusted text', () => {
  it('drops a version tag that is not an HTTP entity tag (a CR/LF would reach a header) and keeps the hash', () => {
    const text = JSON.stringify({
      version: 1,
      servers: {
        'http://h/': {
          app: { k: { id: '1', implementation: { etag: '"c1"\r\nX-Evil: 1', hash: 'sha256:x' }, metadata: { etag: 'W/"m1"', hash: 'sha256:m' } } },
        },
      },
    });
    const parsed = DeployLock.parse(text);
    assert.ok('lock' in parsed);
    const entry = parsed.lock.get('http://h', 'app', 'k');
    assert.deepEqual(entry?.implementation, { etag: undefined, hash: 'sha256:x' });
    assert.equal(entry?.metadata?.etag, 'W/"m1"');
    for (const bad of ['c1', '"c1', '"a"b"', '"c\n1"', `"${'x'.repeat(2000)}"`]) assert.equal(isEntityTag(bad), false, bad);
    assert.equal(isEntityTag('"code-4"'), true);
  });
});

describe("deploy: the editor's records in the lock", () => {
  const v1 = { etag: '"c1"', hash: 'sha256:one' };

  it('finds an entry by its id, and keeps one entry per action when its key changes here', () => {
    const lock = DeployLock.empty().recorded('http://h', 'app', { id: '7', key: 'old' }, 'implementation', v1);
    assert.equal(lock.keyOf('http://h/', 'app', '7'), 'old');
    const renamed = lock.recorded('http://h', 'app', { id: '7', key: 'new' }, 'metadata', { etag: undefined, hash: 'sha256:m' });
    assert.deepEqual(renamed.keys('http://h', 'app'), ['new']);
    assert.equal(renamed.get('http://h', 'app', 'new')?.metadata?.hash, 'sha256:m');
    assert.equal(renamed.forgotten('http://h', 'app', '7').serialize(), DeployLock.empty().serialize());
  });

  it("keeps the other part's base for the same id, and replaces an entry of the key that names another action", () => {
    const lock = DeployLock.empty()
      .recorded('s', 'app', { id: '1', key: 'k' }, 'implementation', v1)
      .recorded('s', 'app', { id: '1', key: 'k' }, 'metadata', { etag: '"m1"', hash: 'sha256:m' });
    assert.deepEqual(lock.get('s', 'app', 'k'), { id: '1', implementation: v1, metadata: { etag: '"m1"', hash: 'sha256:m' } });
    const recreated = lock.recorded('s', 'app', { id: '2', key: 'k' }, 'metadata', { etag: '"m9"', hash: 'sha256:m' });
    assert.deepEqual(recreated.get('s', 'app', 'k'), { id: '2', metadata: { etag: '"m9"', hash: 'sha256:m' } });
  });

  it('keys entries by the server: the same ids on another origin are not found, and local-sandbox is a server of its own', () => {
    const lock = DeployLock.empty()
      .recorded('https://elsewhere.example', 'app', { id: '1', key: 'k' }, 'implementation', v1)
      .recorded('local-sandbox', 'app', { id: '1', key: 'k' }, 'implementation', v1);
    assert.equal(lock.keyOf('https://platform.example', 'app', '1'), undefined);
    assert.equal(lock.keyOf('https://elsewhere.example/', 'app', '1'), 'k', 'a trailing slash names the same server');
    assert.match(lock.serialize(), /"local-sandbox\/"/);
  });
});
