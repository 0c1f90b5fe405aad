import assert from 'node:assert/strict';
import { ApiError, type Capabilities, NO_CAPABILITIES } from '../../src/core/client';
import { codeHash } from '../../src/core/deploy/base';
import { type PartClient } from '../../src/core/deploy/pushPart';
import { HeldPush, pushSave, type SavePush, saveOutcome } from '../../src/core/deploy/savePush';

const READS: Capabilities = { ...NO_CAPABILITIES, getAction: true, getImplementation: true };

/** A server holding `code` under tag "c1", checking nothing: it records what was sent. */
function server(code: string | undefined) {
  const sent: string[] = [];
  const client: PartClient = {
    putImplementation: (_id, content) => {
      sent.push(content);
      return Promise.resolve({ etag: '"c2"', alreadyHeld: false });
    },
    getImplementationVersioned: () => Promise.resolve({ code, etag: code === undefined ? undefined : '"c1"' }),
    updateAction: () => Promise.reject(new Error('not used')),
    getActionVersioned: () => Promise.reject(new Error('not used')),
  };
  return { client, sent };
}

const save = (content: string, rest: Partial<SavePush>): SavePush => ({
  id: 'a1',
  part: 'implementation',
  content,
  locked: undefined,
  replaced: undefined,
  resend: false,
  caps: READS,
  ...rest,
});

describe('deploy: a save pushed and judged (savePush.ts)', () => {
  it('takes the text the save replaced as the base where the lock has none: the server holding exactly it is replaced', async () => {
    const s = server('old');
    const { outcome, base } = await pushSave(s.client, save('new', { replaced: codeHash('old') }));
    assert.deepEqual(outcome, { kind: 'pushed', step: 'implementation', op: 'update', checked: false });
    assert.deepEqual(s.sent, ['new']);
    assert.deepEqual(base, { etag: '"c2"', hash: codeHash('new') });
  });

  it('holds as having no base a server that holds other text than the one the save replaced', async () => {
    const s = server('theirs');
    const held = await pushSave(s.client, save('new', { replaced: codeHash('old') })).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(held instanceof HeldPush);
    assert.equal(held.why, 'no-base', 'no pull or push of the replaced text is known');
    assert.deepEqual(held.server, { etag: '"c1"', hash: codeHash('theirs') });
    assert.deepEqual(s.sent, []);
  });

  it('holds as changed on the server a part whose base in the lock the server no longer holds', async () => {
    const s = server('theirs');
    const held = await pushSave(s.client, save('new', { locked: { etag: '"c0"', hash: codeHash('old') } })).catch((error: unknown) => error);
    assert.ok(held instanceof HeldPush);
    assert.equal(held.why, 'changed-on-server');
  });

  it('sends nothing for the text the server holds, unless pushed by hand', async () => {
    const s = server('same');
    assert.equal((await pushSave(s.client, save('same', { replaced: codeHash('same') }))).outcome.kind, 'unchanged');
    assert.equal((await pushSave(s.client, save('same', { resend: true, replaced: codeHash('same') }))).outcome.kind, 'pushed');
    assert.deepEqual(s.sent, ['same']);
  });

  it("reads the queue's settlement as one typed outcome", () => {
    const pushed = { kind: 'pushed', step: 'implementation', op: 'update', checked: true } as const;
    assert.deepEqual(saveOutcome({ kind: 'accepted', durationMs: 7 }, pushed), { kind: 'pushed', checked: true, durationMs: 7 });
    assert.deepEqual(saveOutcome({ kind: 'accepted', durationMs: 7 }, { kind: 'unchanged', step: 'implementation' }), { kind: 'unchanged' });
    assert.deepEqual(saveOutcome({ kind: 'unchanged' }, pushed), { kind: 'unchanged' });
    const held = new HeldPush('changed-on-server', { etag: '"c9"' }, 'implementation');
    assert.deepEqual(saveOutcome({ kind: 'failed', error: held, durationMs: 3 }, undefined), {
      kind: 'held',
      why: 'changed-on-server',
      server: { etag: '"c9"' },
    });
    const boom = new Error('boom');
    assert.deepEqual(saveOutcome({ kind: 'failed', error: boom, durationMs: 3 }, pushed), { kind: 'failed', error: boom, durationMs: 3 });
    const cancelled = new ApiError({ kind: 'cancelled', operation: 'putImplementation' });
    assert.deepEqual(saveOutcome({ kind: 'failed', error: cancelled, durationMs: 3 }, undefined), { kind: 'cancelled' });
  });
});
