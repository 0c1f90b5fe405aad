import assert from 'node:assert/strict';
import { ApiError, type Capabilities, NO_CAPABILITIES } from '../../src/core/client';
import { codeHash } from '../../src/core/deploy/base';
import { type PartClient } from '../../src/core/deploy/pushPart';
import { pushSave, type SavePush, saveFailure } from '../../src/core/deploy/savePush';

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
    listVersions: () => Promise.reject(new Error('not used')),
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
    const { outcome } = await pushSave(s.client, save('new', { replaced: codeHash('old') }));
    assert.deepEqual(
      outcome,
      { kind: 'held', step: 'implementation', why: 'no-base', server: { etag: '"c1"', hash: codeHash('theirs') } },
      'no pull or push of the replaced text is known',
    );
    assert.deepEqual(s.sent, []);
  });

  it('holds as changed on the server a part whose base in the lock the server no longer holds', async () => {
    const s = server('theirs');
    const { outcome } = await pushSave(s.client, save('new', { locked: { etag: '"c0"', hash: codeHash('old') } }));
    assert.equal(outcome.kind === 'held' && outcome.why, 'changed-on-server');
  });

  it('sends nothing for the text the server holds, unless pushed by hand', async () => {
    const s = server('same');
    assert.equal((await pushSave(s.client, save('same', { replaced: codeHash('same') }))).outcome.kind, 'unchanged');
    assert.equal((await pushSave(s.client, save('same', { resend: true, replaced: codeHash('same') }))).outcome.kind, 'pushed');
    assert.deepEqual(s.sent, ['same']);
  });

  it('saving the text the lock has as its base after a colleague pushed is held, not unchanged', async () => {
    const s = server('theirs');
    const { outcome } = await pushSave(s.client, save('mine', { locked: { etag: '"c0"', hash: codeHash('mine') } }));
    assert.equal(outcome.kind === 'held' && outcome.why, 'changed-on-server');
    assert.deepEqual(s.sent, []);
  });

  it('never throws: a failure of the server is a failed outcome with its cause, an abort a cancelled one', async () => {
    const boom = new Error('boom');
    const failing: ReturnType<typeof server>['client'] = { ...server('x').client, getImplementationVersioned: () => Promise.reject(boom) };
    assert.deepEqual((await pushSave(failing, save('new', {}))).outcome, { kind: 'failed', step: 'implementation', error: boom, message: 'boom' });
    const cancelled = new ApiError({ kind: 'cancelled', operation: 'putImplementation' });
    assert.deepEqual(saveFailure('implementation', cancelled), { kind: 'cancelled', step: 'implementation' });
  });
});
