import * as assert from 'node:assert/strict';
import { PushQueue, type PushOutcome } from '../../src/core/deploy/pushQueue';

/** A fake server whose requests stay open until the test answers them. */
class Server {
  readonly received: { id: string; content: string; answer(error?: Error): void; signal: AbortSignal }[] = [];
  holds = new Map<string, string>();
  inflight = 0;
  maxInflight = 0;

  send = (id: string, content: string, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      this.inflight++;
      this.maxInflight = Math.max(this.maxInflight, this.inflight);
      this.received.push({
        id,
        content,
        signal,
        answer: (error) => {
          this.inflight--;
          if (error) return reject(error);
          this.holds.set(id, content);
          resolve();
        },
      });
    });

  /** Answers the oldest open request, then lets the queue react. */
  async answerNext(error?: Error): Promise<void> {
    const open = this.received.filter((r) => !answered.has(r));
    const next = open[0];
    assert.ok(next, 'a request is open');
    answered.add(next);
    next.answer(error);
    await tick();
  }
}

const answered = new WeakSet<object>();
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('PushQueue', () => {
  it('sends a save and reports it accepted only after the server answered', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    const seen: { outcome?: PushOutcome } = {};
    void queue.push('a', 'v1').then((o) => (seen.outcome = o));
    await tick();
    assert.equal(server.received.length, 1);
    assert.equal(seen.outcome, undefined, 'not done while the request is open');
    assert.ok(queue.isBusy('a'));
    await server.answerNext();
    const after: PushOutcome | undefined = (seen as { outcome?: PushOutcome }).outcome;
    assert.equal(after?.kind, 'accepted');
    assert.equal(server.holds.get('a'), 'v1');
    assert.ok(!queue.isBusy('a'));
  });

  it('keeps one request in flight per action and coalesces saves meanwhile into one follow-up with the latest content', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    const outcomes: Promise<PushOutcome>[] = [];
    for (let i = 1; i <= 50; i++) outcomes.push(queue.push('a', `v${i}`));
    await tick();
    assert.equal(server.received.length, 1, 'one request while the first is open');
    await server.answerNext();
    assert.equal(server.received.length, 2, 'one follow-up for 49 saves');
    assert.equal(server.received[1]?.content, 'v50');
    await server.answerNext();
    const settled = await Promise.all(outcomes);
    assert.ok(settled.every((o) => o.kind === 'accepted'));
    assert.equal(server.holds.get('a'), 'v50');
    assert.equal(server.maxInflight, 1);
  });

  it('sends for different actions independently', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'x');
    void queue.push('b', 'y');
    await tick();
    assert.deepEqual(
      server.received.map((r) => r.id),
      ['a', 'b'],
    );
  });

  it('does not send content identical to what the server last accepted, unless forced', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    const first = queue.push('a', 'same');
    await tick();
    await server.answerNext();
    assert.equal((await first).kind, 'accepted');
    assert.equal((await queue.push('a', 'same')).kind, 'unchanged');
    assert.equal(server.received.length, 1);
    assert.ok(queue.isAccepted('a', 'same'));
    const forced = queue.push('a', 'same', { force: true });
    await tick();
    assert.equal(server.received.length, 2, 'a push by hand is sent anyway');
    await server.answerNext();
    assert.equal((await forced).kind, 'accepted');
  });

  it('skips a follow-up whose content the request in flight already carried', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'v1');
    const again = queue.push('a', 'v1');
    await tick();
    await server.answerNext();
    assert.equal((await again).kind, 'unchanged');
    assert.equal(server.received.length, 1);
  });

  it('sends a save back to content accepted earlier when newer content was sent meanwhile', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'old');
    await tick();
    await server.answerNext();
    void queue.push('a', 'new');
    await tick();
    const back = queue.push('a', 'old');
    await server.answerNext();
    await server.answerNext();
    assert.equal((await back).kind, 'accepted');
    assert.equal(server.holds.get('a'), 'old');
  });

  it('keeps the latest content after a failure, for a retry, and forgets it once newer content is accepted', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    const failing = queue.push('a', 'v1');
    await tick();
    await server.answerNext(new Error('HTTP 500'));
    const outcome = await failing;
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.kind === 'failed' && (outcome.error as Error).message, 'HTTP 500');
    assert.equal(queue.failedContent('a'), 'v1');
    const retried = queue.retry('a');
    assert.ok(retried, 'something to retry');
    await tick();
    assert.equal(server.received[1]?.content, 'v1', 'the retry sends the same content');
    await server.answerNext();
    assert.equal((await retried).kind, 'accepted');
    assert.equal(queue.failedContent('a'), undefined);
    assert.equal(queue.retry('a'), undefined);
  });

  it('a retry while newer content is on its way sends nothing: the failed content never takes its place', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'old');
    await tick();
    await server.answerNext(new Error('timeout'));
    assert.equal(queue.failedContent('a'), 'old');
    const newer = queue.push('a', 'new');
    await tick();
    assert.equal(queue.retry('a'), undefined, 'in flight: nothing to retry');
    void queue.push('a', 'newest');
    assert.equal(queue.retry('a'), undefined, 'waiting: nothing to retry');
    await server.answerNext();
    await server.answerNext();
    assert.equal((await newer).kind, 'accepted');
    assert.deepEqual(
      server.received.map((r) => r.content),
      ['old', 'new', 'newest'],
    );
    assert.equal(server.holds.get('a'), 'newest');
    assert.equal(queue.retry('a'), undefined, 'accepted: nothing to retry');
  });

  it('after a failure with saves queued, sends the latest save and keeps it for retry if that fails too', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'v1');
    void queue.push('a', 'v2');
    void queue.push('a', 'v3');
    await tick();
    await server.answerNext(new Error('down'));
    assert.equal(server.received[1]?.content, 'v3');
    await server.answerNext(new Error('still down'));
    assert.equal(queue.failedContent('a'), 'v3');
    assert.equal(server.holds.get('a'), undefined);
  });

  it('does not count content as accepted after a failure: the same save is sent again', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'v1');
    await tick();
    await server.answerNext();
    void queue.push('a', 'v2');
    await tick();
    await server.answerNext(new Error('timeout'));
    const again = queue.push('a', 'v1');
    await tick();
    assert.equal(server.received.length, 3, 'the server may hold v2 now, so v1 is sent');
    await server.answerNext();
    assert.equal((await again).kind, 'accepted');
  });

  it('tells listeners when requests start and settle, and whether a follow-up comes', async () => {
    const server = new Server();
    const queue = new PushQueue({
      send: server.send,
      now: (() => {
        let t = 0;
        return () => (t += 100);
      })(),
    });
    const log: string[] = [];
    queue.listen({ onStart: (id) => log.push(`start ${id}`), onSettle: (id, o, more) => log.push(`${o.kind} ${id}${more ? ' +' : ''}`) });
    void queue.push('a', 'v1');
    void queue.push('a', 'v2');
    await tick();
    await server.answerNext();
    await server.answerNext();
    assert.deepEqual(log, ['start a', 'accepted a +', 'start a', 'accepted a']);
  });

  it('aborts the request in flight and fails queued saves when disposed', async () => {
    const server = new Server();
    const queue = new PushQueue({ send: server.send });
    void queue.push('a', 'v1');
    const queued = queue.push('a', 'v2');
    await tick();
    queue.dispose();
    assert.ok(server.received[0]?.signal.aborted);
    assert.equal((await queued).kind, 'failed');
    assert.equal((await queue.push('b', 'x')).kind, 'failed');
  });
});
