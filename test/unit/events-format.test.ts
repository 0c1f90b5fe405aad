import * as assert from 'node:assert/strict';
import { normalizeEvent } from '../../src/core/client';
import { formatDuration, formatEvent, formatLocalTime } from '../../src/core/events';

const START = new Date(2024, 4, 1, 14, 3, 22, 123).getTime();
const ctx = { environment: 'Test', actionKey: 'send-invoice' };

describe('events formatter', () => {
  it('writes a header with environment, key, outcome, local start time with ms and duration, then indented logs', () => {
    const event = normalizeEvent({
      id: 'e1',
      name: 'success',
      data: {
        timings: { startTime: START, duration: 45 },
        logs: [
          { time: START + 2, level: 'info', message: 'starting' },
          { time: START + 40, level: 'warn', message: 'two\nlines' },
        ],
      },
    });
    assert.deepEqual(formatEvent(event, ctx), [
      '[Test] send-invoice success at 2024-05-01 14:03:22.123 (45 ms)',
      '    14:03:22.125 info  starting',
      '    14:03:22.163 warn  two',
      '                       lines',
    ]);
  });

  it('shows the error of a failure, with the first stack frames', () => {
    const event = normalizeEvent({
      id: 'e2',
      name: 'failure',
      data: {
        timings: { startTime: START, duration: 1_200 },
        logs: [],
        error: { name: 'TypeError', message: 'x is undefined', stack: 'TypeError: x is undefined\n    at main (main.ts:3:7)\n    at run (runner.js:10:1)' },
      },
    });
    assert.deepEqual(formatEvent(event, { environment: 'Live', actionKey: 'k' }), [
      '[Live] k failure at 2024-05-01 14:03:22.123 (1.20 s)',
      '    error: TypeError: x is undefined',
      '        at main (main.ts:3:7)',
      '        at run (runner.js:10:1)',
    ]);
  });

  it('renders unknown shapes sensibly: string logs, object logs, seconds, missing fields', () => {
    const event = normalizeEvent({
      id: 'e3',
      name: 'failure',
      data: {
        timings: { startTime: START / 1000, duration: 2.5 },
        logs: ['plain text', { msg: 'short form', severity: 'ERROR' }, { args: ['a', 1, { b: true }] }, 42],
        error: 'boom',
      },
    });
    assert.deepEqual(formatEvent(event, ctx), [
      '[Test] send-invoice failure at 2024-05-01 14:03:22.123 (2.50 s)',
      '                 info  plain text',
      '                 error short form',
      '                 info  a 1 {"b":true}',
      '                 info  42',
      '    error: boom',
    ]);
    const bare = normalizeEvent({ id: 'e4' });
    assert.deepEqual(formatEvent(bare, ctx), ['[Test] send-invoice failure at no start time (no duration)']);
    const other = normalizeEvent({ id: 'e5', status: 'completed', timestamp: new Date(START).toISOString() });
    assert.equal(formatEvent(other, ctx)[0], '[Test] send-invoice success (completed) at 2024-05-01 14:03:22.123 (no duration)');
  });

  it('formats times and durations', () => {
    assert.equal(formatLocalTime(START, false), '14:03:22.123');
    assert.equal(formatDuration(0.4), '0 ms');
    assert.equal(formatDuration(999), '999 ms');
    assert.equal(formatDuration(12_345), '12.3 s');
    assert.equal(formatDuration(125_000), '2 min 5 s');
  });
});
