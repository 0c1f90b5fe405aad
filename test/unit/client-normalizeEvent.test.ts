import assert from 'node:assert/strict';
import { EVENT_LIMITS, normalizeEvent } from '../../src/core/client';

const MS = 1_700_000_000_000;

describe('normalizeEvent', () => {
  it('reads the sandbox shape as is', () => {
    const raw = {
      id: 'e1',
      name: 'success',
      data: { timings: { startTime: MS, duration: 42 }, logs: [{ time: MS + 1, level: 'warn', message: 'careful' }], result: { sum: 3 } },
    };
    const e = normalizeEvent(raw);
    assert.deepEqual(
      { id: e.id, name: e.name, ok: e.ok, startTime: e.startTime, duration: e.duration, logs: e.logs, error: e.error, result: e.result },
      {
        id: 'e1',
        name: 'success',
        ok: true,
        startTime: MS,
        duration: 42,
        logs: [{ time: MS + 1, level: 'warn', message: 'careful' }],
        error: undefined,
        result: { sum: 3 },
      },
    );
    assert.equal(e.raw, raw);
  });

  describe('units: start times below 1e11 are seconds, and then so is the duration', () => {
    for (const [label, timings, startTime, duration] of [
      ['milliseconds', { startTime: MS, duration: 1500 }, MS, 1500],
      ['seconds', { startTime: MS / 1000, duration: 1.5 }, MS, 1500],
      ['fractional seconds', { startTime: 1_700_000_000.25, duration: 0.002 }, MS + 250, 2],
      ['an ISO string (duration taken as ms)', { startTime: '2023-11-14T22:13:20.000Z', duration: 80 }, MS, 80],
      ['numeric strings', { startTime: String(MS), duration: '7' }, MS, 7],
      ['no timings', undefined, undefined, undefined],
    ] as const) {
      it(label, () => {
        const e = normalizeEvent({ id: 'x', name: 'success', data: { timings } });
        assert.equal(e.startTime, startTime);
        assert.equal(e.duration, duration);
      });
    }
  });

  it('log entries as strings or objects with any of the usual field names', () => {
    const e = normalizeEvent({
      id: 'x',
      name: 'success',
      data: {
        logs: [
          'plain',
          { timestamp: MS / 1000, severity: 'ERROR', msg: 'bad' },
          { time: '2023-11-14T22:13:20.000Z', level: 'debug', text: 'dbg' },
          { args: ['a', 1, { b: 2 }] },
          42,
        ],
      },
    });
    assert.deepEqual(e.logs, [
      { time: undefined, level: 'info', message: 'plain' },
      { time: MS, level: 'error', message: 'bad' },
      { time: MS, level: 'debug', message: 'dbg' },
      { time: undefined, level: 'info', message: 'a 1 {"b":2}' },
      { time: undefined, level: 'info', message: '42' },
    ]);
  });

  describe('failures', () => {
    for (const [label, data, message, stack] of [
      ['data.error as a string', { error: 'boom' }, 'boom', undefined],
      [
        'data.error as an object with a stack',
        { error: { name: 'TypeError', message: 'x is undefined', stack: 'TypeError: x is undefined\n  at main' } },
        'TypeError: x is undefined',
        'TypeError: x is undefined\n  at main',
      ],
      ['data.message', { message: 'timed out' }, 'timed out', undefined],
      ['nothing at all', {}, 'the run failed (the server gave no reason)', undefined],
    ] as const) {
      it(label, () => {
        const e = normalizeEvent({ id: 'f', name: 'failure', data });
        assert.equal(e.ok, false);
        assert.equal(e.error?.message, message);
        assert.equal(e.error?.stack, stack);
      });
    }
  });

  it('survives missing fields, with a stable id made from the content', () => {
    const a = normalizeEvent({ name: 'success' });
    const b = normalizeEvent({ name: 'success' });
    assert.equal(a.id, b.id);
    assert.notEqual(a.id, normalizeEvent({ name: 'success', data: { logs: ['x'] } }).id);
    assert.deepEqual([a.ok, a.logs, a.startTime, a.unreadable], [true, [], undefined, undefined]);
  });
});

describe('normalizeEvent: bounded, whatever the server sends', () => {
  const deep = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;
  const deepList = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

  it('an event without an id and 100,000 levels of data is unreadable, not a RangeError; its id is stable and its own', () => {
    const raw = { name: 'success', data: { timings: { startTime: MS, duration: 3 }, result: deep(100_000) } };
    const e = normalizeEvent(raw);
    assert.match(e.unreadable ?? '', new RegExp(`nested deeper than ${EVENT_LIMITS.depth} levels`));
    assert.deepEqual([e.ok, e.name, e.startTime, e.duration, e.logs], [false, 'unreadable', MS, 3, []]);
    assert.match(e.error?.message ?? '', /unreadable event: nested deeper/);
    assert.equal(normalizeEvent(raw).id, e.id);
    const other = { name: 'success', data: { timings: { startTime: MS, duration: 3 }, result: deepList(100_000) } };
    assert.notEqual(normalizeEvent(other).id, e.id);
    // What stands in for the event can be shown as JSON: bounded, with the reason.
    const shown = JSON.stringify(e.raw);
    assert.ok(shown.length < 100_000, `the stand-in is ${shown.length} characters`);
    assert.match(shown, /nested deeper than/);
  });

  it('depth anywhere counts: in a log entry, in an error, in the list itself', () => {
    for (const raw of [
      { id: 'l', name: 'success', data: { logs: [{ message: deep(EVENT_LIMITS.depth + 1) }] } },
      { id: 'e', name: 'failure', data: { error: deep(10_000) } },
      { name: 'success', data: { logs: deepList(50_000) } },
    ]) {
      const e = normalizeEvent(raw);
      assert.match(e.unreadable ?? '', /nested deeper than/);
    }
    assert.equal(normalizeEvent({ id: 'l', name: 'success', data: { logs: [{ message: 'ok' }] } }).id, 'l');
    assert.equal(normalizeEvent({ id: 'fine', name: 'success', data: { result: deep(EVENT_LIMITS.depth - 4) } }).unreadable, undefined);
  });

  it('an event with more values than the limit is unreadable; its id is kept', () => {
    const e = normalizeEvent({ id: 'wide', name: 'success', data: { result: new Array(EVENT_LIMITS.values).fill(0) } });
    assert.equal(e.id, 'wide');
    assert.match(e.unreadable ?? '', /more than [\d,]+ values/);
  });

  it('an event larger than the limit is unreadable; what is safely known is kept', () => {
    const e = normalizeEvent({ id: 'big', name: 'failure', data: { timings: { startTime: MS }, logs: ['x'.repeat(EVENT_LIMITS.chars + 1)] } });
    assert.deepEqual([e.id, e.startTime, e.name], ['big', MS, 'unreadable']);
    assert.match(e.unreadable ?? '', /larger than [\d,]+ characters/);
    assert.ok(JSON.stringify(e.raw).length < 100_000);
  });

  it('entries that are not objects are unreadable', () => {
    for (const raw of [null, 'nonsense', 42, true, [1, 2]]) {
      const e = normalizeEvent(raw);
      assert.deepEqual([e.unreadable, e.ok, e.logs], ['not a JSON object', false, []]);
    }
  });

  it('many log entries and long messages are cut, and say so', () => {
    const logs = Array.from({ length: EVENT_LIMITS.logEntries + 25 }, (_, i) => `line ${i}`);
    const e = normalizeEvent({ id: 'chatty', name: 'success', data: { logs: [...logs.slice(0, -1), 'y'.repeat(EVENT_LIMITS.messageChars + 500)] } });
    assert.equal(e.unreadable, undefined);
    assert.equal(e.logs.length, EVENT_LIMITS.logEntries);
    assert.equal(e.logsOmitted, 25);
    const long = normalizeEvent({
      id: 'long',
      name: 'failure',
      data: { logs: ['z'.repeat(EVENT_LIMITS.messageChars + 500)], error: 'e'.repeat(EVENT_LIMITS.messageChars * 2) },
    });
    assert.equal(long.logs[0]?.message, `${'z'.repeat(EVENT_LIMITS.messageChars)}… (500 more characters)`);
    assert.ok((long.error?.message.length ?? 0) < EVENT_LIMITS.messageChars + 100);
  });

  it('an id too long to remember is replaced by a short one made from it', () => {
    const a = normalizeEvent({ id: 'i'.repeat(100_000), name: 'success' });
    const b = normalizeEvent({ id: `${'i'.repeat(99_999)}j`, name: 'success' });
    assert.ok(a.id.length <= 64, `an id of ${a.id.length} characters`);
    assert.notEqual(a.id, b.id);
  });
});
