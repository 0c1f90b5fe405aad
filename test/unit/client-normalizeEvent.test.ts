import assert from 'node:assert/strict';
import { normalizeEvent } from '../../src/core/client';

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
      { id: 'e1', name: 'success', ok: true, startTime: MS, duration: 42, logs: [{ time: MS + 1, level: 'warn', message: 'careful' }], error: undefined, result: { sum: 3 } },
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
      ['data.error as an object with a stack', { error: { name: 'TypeError', message: 'x is undefined', stack: 'TypeError: x is undefined\n  at main' } }, 'TypeError: x is undefined', 'TypeError: x is undefined\n  at main'],
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

  it('survives missing fields and non-objects, with a stable id made from the content', () => {
    const a = normalizeEvent({ name: 'success' });
    const b = normalizeEvent({ name: 'success' });
    assert.equal(a.id, b.id);
    assert.deepEqual([a.ok, a.logs, a.startTime], [true, [], undefined]);
    const odd = normalizeEvent('nonsense');
    assert.deepEqual([odd.name, odd.ok, odd.logs], ['unknown', false, []]);
  });
});
