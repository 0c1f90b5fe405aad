import * as assert from 'node:assert/strict';
import { PushQueue, type Settled } from '../../src/core/deploy/pushQueue';

type Result = { kind: 'accepted' } | { kind: 'failed'; error: unknown };

/** A fake server whose requests stay open until the test answers them. */
class Server {
  readonly received: { id: string; content: string; force: boolean; answer(error?: Error): void; signal: AbortSignal }[] = [];
  holds = new Map<string, string>();
  inflight = 0;
  maxInflight = 0;

  send = (id: string, content: string, signal: AbortSignal, request: { force?: boolean }): Promise<Result> =>
    new Promise<Result>((resolve, reject) => {
      this.inflight++;
      this.maxInflight = Math.max(this.maxInflight, this.inflight);
      this.received.push({
        id,
        content,
        force: request.force === true,
        signal,
        answer: (error) => {
          this.inflight--;
          if (error) return reject(error);
          this.holds.set(id, content);
          resolve({ kind: 'accepted' });
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
const failed = (error: unknown): Result => ({ kind: 'failed', error });
const queueOf = (server: Server, now?: () => number) => new PushQueue<Result>({ send: server.send, failed, ...(now ? { now } : {}) });

describe('PushQueue', () => {
  it('sends a save and settles with what the sender said, only after the server answered', async () => {
    const server = new Server();
    const queue = queueOf(server);
    let settled: Settled<Result> | undefined;
    void queue.push('a', 'v1').then((o) => (settled = o));
    await tick();
    assert.equal(server.received.length, 1);
    assert.equal(settled, undefined, 'not done while the request is open');
    assert.ok(queue.isBusy('a'));
    await server.answerNext();
    assert.equal((settled as Settled<Result> | undefined)?.result.kind, 'accepted');
    assert.equal(server.holds.get('a'), 'v1');
    assert.ok(!queue.isBusy('a'));
  });

  it('keeps one request in flight per action and coalesces saves meanwhile into one follow-up with the latest content', async () => {
    const server = new Server();
    const queue = queueOf(server);
    const outcomes: Promise<Settled<Result>>[] = [];
    for (let i = 1; i <= 50; i++) outcomes.push(queue.push('a', `v${i}`));
    await tick();
    assert.equal(server.received.length, 1, 'one request while the first is open');
    await server.answerNext();
    assert.equal(server.received.length, 2, 'one follow-up for 49 saves');
    assert.equal(server.received[1]?.content, 'v50');
    await server.answerNext();
    const settled = await Promise.all(outcomes);
    assert.ok(settled.every((o) => o.result.kind === 'accepted'));
    assert.equal(server.holds.get('a'), 'v50');
    assert.equal(server.maxInflight, 1);
  });

  it('sends for different actions independently', async () => {
    const server = new Server();
    const queue = queueOf(server);
    void queue.push('a', 'x');
    void queue.push('b', 'y');
    await tick();
    assert.deepEqual(
      server.received.map((r) => r.id),
      ['a', 'b'],
    );
  });

  it('remembers nothing of the server: the same content again goes to the sender, which decides against the base', async () => {
    // The queue once kept the last accepted text and answered "unchanged" for it forever, even after a
    // colleague's push had replaced it on the server (issue #37).
    const server = new Server();
    const queue = queueOf(server);
    const first = queue.push('a', 'same');
    await tick();
    await server.answerNext();
    assert.equal((await first).result.kind, 'accepted');
    const again = queue.push('a', 'same');
    await tick();
    assert.equal(server.received.length, 2, 'the sender is asked again');
    await server.answerNext();
    assert.equal((await again).result.kind, 'accepted');
  });

  it('hands a push by hand to the sender as forced, and keeps it forced when a plain save overtakes it', async () => {
    const server = new Server();
    const queue = queueOf(server);
    void queue.push('a', 'v1');
    void queue.push('a', 'v2', { force: true });
    void queue.push('a', 'v3');
    await tick();
    await server.answerNext();
    assert.deepEqual(
      server.received.map((r) => [r.content, r.force]),
      [
        ['v1', false],
        ['v3', true],
      ],
    );
  });

  it('a sender that throws settles as the failure the options make of it, and the follow-up still goes', async () => {
    const server = new Server();
    const queue = queueOf(server);
    const failing = queue.push('a', 'v1');
    const next = queue.push('a', 'v2');
    await tick();
    await server.answerNext(new Error('HTTP 500'));
    const settled = await failing;
    assert.equal(settled.result.kind, 'failed');
    assert.equal(settled.result.kind === 'failed' && (settled.result.error as Error).message, 'HTTP 500');
    assert.equal(server.received[1]?.content, 'v2');
    await server.answerNext();
    assert.equal((await next).result.kind, 'accepted');
  });

  it('tells listeners when requests start and settle, and whether a follow-up comes', async () => {
    const server = new Server();
    let t = 0;
    const queue = queueOf(server, () => (t += 100));
    const log: string[] = [];
    queue.listen({
      onStart: (id) => log.push(`start ${id}`),
      onSettle: (id, o, more) => log.push(`${o.result.kind} ${id} ${o.durationMs}${more ? ' +' : ''}`),
    });
    void queue.push('a', 'v1');
    void queue.push('a', 'v2');
    await tick();
    await server.answerNext();
    await server.answerNext();
    assert.deepEqual(log, ['start a', 'accepted a 100 +', 'start a', 'accepted a 100']);
  });

  it('aborts the request in flight and fails queued saves when disposed', async () => {
    const server = new Server();
    const queue = queueOf(server);
    void queue.push('a', 'v1');
    const queued = queue.push('a', 'v2');
    await tick();
    queue.dispose();
    assert.ok(server.received[0]?.signal.aborted);
    assert.equal((await queued).result.kind, 'failed');
    assert.equal((await queue.push('b', 'x')).result.kind, 'failed');
  });
});
