import * as assert from 'node:assert/strict';
import { EVENT_LIMITS, normalizeEvent } from '../../src/core/client';
import { formatDuration, formatEvent, formatLocalTime, formatWhen } from '../../src/core/events';

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
        result: { sent: true, total: 3 },
      },
    });
    assert.deepEqual(formatEvent(event, ctx), [
      '[Test] send-invoice success at 2024-05-01 14:03:22.123 (45 ms)',
      '    14:03:22.125 info  starting',
      '    14:03:22.163 warn  two',
      '                       lines',
      '    result: {"sent":true,"total":3}',
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

  it('shows control characters as escapes instead of letting them act: ANSI, lone CR, backspace, NUL, C1, separators, bidi', () => {
    const event = normalizeEvent({
      id: 'c1',
      name: 'success',
      data: {
        timings: { startTime: START, duration: 1 },
        logs: [
          { time: START, level: 'info', message: '\u001b[31mred\u001b[0m and \u001b]8;;http://x.test\u0007link\u001b]8;;\u0007' },
          { time: START, level: 'info', message: 'progress 10%\rprogress 99%\bdone\u0000\u007f\u009b2J' },
          { time: START, level: 'info', message: 'fake\u2028[Test] k success at 2024-01-01\u2029x' },
          { time: START, level: 'info', message: 'abc\u202edcba\u2066x\u2069' },
          { time: START, level: 'info', message: 'windows\r\nline\tand a tab\nlast' },
        ],
      },
    });
    assert.deepEqual(formatEvent(event, ctx).slice(1), [
      '    14:03:22.123 info  \\u001B[31mred\\u001B[0m and \\u001B]8;;http://x.test\\u0007link\\u001B]8;;\\u0007',
      '    14:03:22.123 info  progress 10%\\rprogress 99%\\u0008done\\u0000\\u007F\\u009B2J',
      '    14:03:22.123 info  fake\\u2028[Test] k success at 2024-01-01\\u2029x',
      '    14:03:22.123 info  abc\\u202Edcba\\u2066x\\u2069',
      '    14:03:22.123 info  windows',
      '                       line\tand a tab',
      '                       last',
      '    (no result)',
    ]);
    // eslint-disable-next-line no-control-regex -- no control character but the tab may reach the channel
    for (const line of formatEvent(event, ctx)) assert.doesNotMatch(line, /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it('keeps what the server names on its own line: a key, a name, a level or an error cannot start a new one', () => {
    const event = normalizeEvent({
      id: 'c2',
      name: 'boom\n[Live] k success',
      data: {
        timings: { startTime: START },
        logs: [{ level: 'warn\nx', message: 'm' }],
        error: { name: 'E\u001b[2K', message: 'bad\rworse', stack: 'E: bad\n    at main (\u001b[8mmain.ts:1:1)' },
      },
    });
    assert.deepEqual(formatEvent(event, { environment: 'Test', actionKey: 'k\nfake' }), [
      '[Test] k\\nfake failure (boom\\n[Live] k success) at 2024-05-01 14:03:22.123 (no duration)',
      '                 warn\\nx m',
      '    error: E\\u001B[2K: bad\\rworse',
      '        at main (\\u001B[8mmain.ts:1:1)',
    ]);
  });

  it('prints a run\'s result on one line: the empty text as "", a long one cut, its text unable to act', () => {
    const ran = (result: unknown) =>
      formatEvent(normalizeEvent({ id: 'r', name: 'success', data: { timings: { startTime: START, duration: 3 }, logs: [], result } }), ctx).slice(1);
    assert.deepEqual(ran(''), ['    (no log entries)', '    result: ""']);
    assert.deepEqual(ran('Hello, world!'), ['    (no log entries)', '    result: "Hello, world!"']);
    assert.deepEqual(ran([1, 'two', null]), ['    (no log entries)', '    result: [1,"two",null]']);
    assert.deepEqual(ran(undefined), ['    (no log entries)', '    (no result)']);
    assert.deepEqual(ran('two\nlines\u2028\u202eand\u001b[2J'), ['    (no log entries)', '    result: "two\\nlines\\u2028\\u202Eand\\u001b[2J"']);
    const long = ran('x'.repeat(500))[1] ?? '';
    assert.equal(long, `    result: "${'x'.repeat(199)}… (502 characters; Open Event has it all)`);
    const emoji = ran(`${'x'.repeat(198)}\u{1F600}`)[1] ?? '';
    assert.doesNotMatch(emoji, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no half surrogate pair at the cut');
  });

  it('says that an event could not be read, and what is known of it', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`) as unknown;
    const event = normalizeEvent({ id: 'u1', name: 'success', data: { timings: { startTime: START, duration: 45 }, result: deep } });
    assert.deepEqual(formatEvent(event, ctx), [
      '[Test] send-invoice unreadable event at 2024-05-01 14:03:22.123 (45 ms)',
      '    nested deeper than 64 levels; Open Event in the tree shows what could be read',
    ]);
  });

  it('says how many log entries were left out', () => {
    const logs = Array.from({ length: EVENT_LIMITS.logEntries + 3 }, (_, i) => ({ time: START, level: 'info', message: `n${i}` }));
    const lines = formatEvent(normalizeEvent({ id: 'many', name: 'success', data: { timings: { startTime: START, duration: 1 }, logs } }), ctx);
    assert.equal(lines.length, 1 + EVENT_LIMITS.logEntries + 2);
    assert.equal(lines.at(-2), '    (3 more log entries not shown; Open Event has them all)');
  });

  it('formats times and durations', () => {
    assert.equal(formatLocalTime(START, false), '14:03:22.123');
    assert.equal(formatDuration(0.4), '0 ms');
    assert.equal(formatDuration(999), '999 ms');
    assert.equal(formatDuration(12_345), '12.3 s');
    assert.equal(formatDuration(125_000), '2 min 5 s');
  });

  it('shows when something happened with the date only when it is not today', () => {
    const laterToday = START + 60_000;
    assert.equal(formatWhen(START, true, laterToday), '14:03:22.123');
    assert.equal(formatWhen(START, false, laterToday), '14:03:22');
    const nextWeek = START + 7 * 24 * 3_600_000;
    assert.match(formatWhen(START, false, nextWeek), /^\d{4}-\d{2}-\d{2} 14:03:22$/);
  });
});
