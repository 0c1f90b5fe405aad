import * as assert from 'node:assert/strict';
import { normalizeEvent } from '../../src/core/client';
import { eventDocumentText, eventTitle } from '../../src/core/eventDocument';

const START = new Date(2026, 10, 23, 12, 3, 5, 123).getTime();
const context = { actionKey: 'hello-world', environment: 'Test' };

function sandboxEvent(overrides: Record<string, unknown> = {}): unknown {
  return {
    id: '7e6e20dc-d429-424b-8f67-0cd0d03ae4f0',
    name: 'failure',
    data: {
      timings: { duration: 45, startTime: START },
      logs: [{ time: START + 2, level: 'info', message: 'starting' }],
      error: { name: 'Error', message: 'boom' },
      ...overrides,
    },
  };
}

/** The comments stripped: what is left must be the server's JSON. */
function withoutComments(text: string): unknown {
  return JSON.parse(
    text
      .split('\n')
      .filter((l) => !l.startsWith('//'))
      .map((l) => l.replace(/ \/\/ [^"]*$/, ''))
      .join('\n'),
  );
}

describe('event documents', () => {
  it('titles an event by action, environment, time of day and outcome', () => {
    const event = normalizeEvent(sandboxEvent());
    assert.equal(eventTitle(event, context, START + 60_000), 'hello-world · Test · 12:03:05 failed');
    assert.equal(eventTitle(normalizeEvent({ ...(sandboxEvent() as object), name: 'success' }), context, START), 'hello-world · Test · 12:03:05 succeeded');
  });

  it('puts the date in the title of an event from another day, and says when there is no start time', () => {
    const event = normalizeEvent(sandboxEvent());
    assert.equal(eventTitle(event, context, START + 2 * 86_400_000), 'hello-world · Test · 2026-11-23 12:03:05 failed');
    assert.equal(eventTitle(normalizeEvent({ id: 'x', name: 'failure' }), context, START), 'hello-world · Test · failed');
  });

  it('writes the summary on top and a readable local time beside each raw timestamp', () => {
    const raw = sandboxEvent();
    const text = eventDocumentText(normalizeEvent(raw), context);
    const lines = text.split('\n');
    assert.equal(lines[0], '// [Test] hello-world failure at 2026-11-23 12:03:05.123 (45 ms)');
    assert.ok(lines.includes('//     12:03:05.125 info  starting'), text);
    assert.ok(lines.includes('//     error: Error: boom'), text);
    assert.ok(lines.includes(`      "startTime": ${START} // 2026-11-23 12:03:05.123`), text);
    assert.ok(lines.includes(`        "time": ${START + 2}, // 2026-11-23 12:03:05.125`), text);
    assert.ok(lines.includes('      "duration": 45,'), 'a duration is not taken for a date');
    assert.deepEqual(withoutComments(text), raw);
  });

  it('reads seconds as seconds, and leaves small numbers and strings under time keys alone', () => {
    const raw = { id: 'x', name: 'success', startTime: START / 1000, time: 5, end: 'soon', nested: [{ ts: String(START) }, []], empty: {} };
    const text = eventDocumentText(normalizeEvent(raw), context);
    assert.match(text, new RegExp(`"startTime": ${START / 1000}, // 2026-11-23 12:03:05\\.123`));
    assert.match(text, /"time": 5,\n/);
    assert.match(text, /"end": "soon",\n/);
    assert.match(text, new RegExp(`"ts": "${START}" // 2026-11-23 12:03:05\\.123`));
    assert.deepEqual(withoutComments(text), raw);
  });

  it('writes direction and invisible marks of server text as JSON escapes, so the editor shows them and the value is unchanged', () => {
    const raw = sandboxEvent({ error: { message: 'ok\u202etxt.exe\u200b' } });
    const text = eventDocumentText(normalizeEvent(raw), context);
    assert.ok(!/[\u202e\u200b]/.test(text), 'no mark left as it is');
    assert.match(text, /"message": "ok\\u202etxt\.exe\\u200b"/);
    assert.deepEqual(withoutComments(text), raw);
    assert.equal(eventTitle(normalizeEvent(raw), { actionKey: 'a\u202eb\nc', environment: 'Test' }, START), 'a\\u202Eb c · Test · 12:03:05 failed');
  });

  it('keeps server text that holds line separators inside its comment', () => {
    const text = eventDocumentText(normalizeEvent(sandboxEvent({ error: { message: 'one\u2028two' } })), context);
    assert.ok(text.split('\n').every((l) => !/[\u2028\u2029]/.test(l)));
    assert.deepEqual(withoutComments(text), sandboxEvent({ error: { message: 'one\u2028two' } }));
  });
});
