import * as assert from 'node:assert/strict';
import { ApiError } from '../../src/core/client';

const KEY_TAKEN = 'An action with this key exists already in the application.';

describe('client errors: each hint fits the error it explains', () => {
  it('a 409 on create is a taken key', () => {
    const error = new ApiError({ kind: 'conflict', operation: 'createAction', status: 409, code: 'key-conflict', serverMessage: 'key "add" exists' });
    assert.equal(error.hint, KEY_TAKEN);
    // A server without problem codes: a conflict on create still means the key.
    assert.equal(new ApiError({ kind: 'conflict', operation: 'createAction', status: 409 }).hint, KEY_TAKEN);
  });

  it('an update that takes another action key says so; other conflicts get no key hint', () => {
    assert.equal(new ApiError({ kind: 'conflict', operation: 'updateAction', status: 409, code: 'key-conflict' }).hint, KEY_TAKEN);
    assert.equal(new ApiError({ kind: 'conflict', operation: 'updateAction', status: 409 }).hint, undefined);
    assert.equal(new ApiError({ kind: 'conflict', operation: 'putImplementation', status: 409 }).hint, undefined);
    assert.equal(new ApiError({ kind: 'conflict', operation: 'runAction', status: 409, code: 'something-else' }).hint, undefined);
  });

  it('a run of an action without code tells to push it, in the words of the editor, not the server', () => {
    const error = new ApiError({
      kind: 'conflict',
      operation: 'runAction',
      status: 409,
      code: 'no-implementation',
      serverMessage: 'the action has no code yet; PUT it to …/implementation first',
    });
    assert.equal(error.message, 'Running the action failed (HTTP 409): the action has no code on the server yet');
    assert.equal(error.hint, 'Save its main.ts or run "Custom Actions: Push Implementation", then try again.');
    assert.equal(error.serverMessage, 'the action has no code yet; PUT it to …/implementation first', 'the server text is kept for the log');
    assert.doesNotMatch(`${error.message} ${error.hint}`, /PUT it to|exists already/);
  });

  it('a full application keeps its own hint', () => {
    const error = new ApiError({ kind: 'conflict', operation: 'createAction', status: 409, code: 'limit-reached', serverMessage: 'at most 1 action' });
    assert.equal(error.hint, 'The application holds as many actions as the server allows; delete one first.');
    assert.match(error.message, /at most 1 action/);
  });

  it('a problem code that is also an Object property is not taken for a known one', () => {
    const error = new ApiError({ kind: 'conflict', operation: 'runAction', status: 409, code: '__proto__', serverMessage: 'odd' });
    assert.equal(error.hint, undefined);
    assert.match(error.message, /: odd$/);
  });
});
