import assert from 'node:assert/strict';
import { normalizeEvent } from '../../src/core/client';
import { errorTitle, eventOutcome, judge } from '../../src/core/testing';

describe('eventOutcome: a server run as judgeCase reads it', () => {
  it('gives the result of a success', () => {
    assert.deepEqual(eventOutcome(normalizeEvent({ id: '1', name: 'success', data: { result: 3 } })), { ok: true, result: 3 });
  });

  it('reads the error name from the message or the stack when the event does not carry it, so expect.error.name judges as locally', () => {
    const fromMessage = eventOutcome(normalizeEvent({ id: '2', name: 'failure', data: { error: { message: 'RangeError: a is negative' } } }));
    assert.deepEqual(fromMessage, { ok: false, error: { message: 'RangeError: a is negative', name: 'RangeError' } });
    assert.deepEqual(judge({ kind: 'error', name: 'RangeError', message: 'negative' }, fromMessage), { pass: true });
    const fromStack = eventOutcome(
      normalizeEvent({ id: '3', name: 'failure', data: { error: { message: 'no', stack: 'TypeError: no\n    at main (main.ts:1:1)' } } }),
    );
    assert.equal(fromStack.ok ? undefined : fromStack.error.name, 'TypeError');
  });

  it('invents no name for a message that does not start with one', () => {
    const outcome = eventOutcome(normalizeEvent({ id: '4', name: 'failure', data: { error: { message: 'the quota ran out: Error: later' } } }));
    assert.equal(outcome.ok ? 'ok' : outcome.error.name, undefined);
  });

  it('names the error once in the verdict the Testing view and the command line show (errorTitle)', () => {
    const title = (error: object) => {
      const outcome = eventOutcome(normalizeEvent({ id: '5', name: 'failure', data: { error } }));
      return outcome.ok ? 'ok' : errorTitle(outcome.error);
    };
    assert.equal(title({ message: 'RangeError: a is negative' }), 'RangeError: a is negative');
    assert.equal(title({ message: 'a is negative', stack: 'RangeError: a is negative\n    at main (main.ts:3:9)' }), 'RangeError: a is negative');
    assert.equal(title({ message: 'the quota ran out' }), 'Error: the quota ran out');
    assert.equal(errorTitle({ name: 'TypeError', message: 'x is undefined' }), 'TypeError: x is undefined');
  });
});
