import * as assert from 'node:assert/strict';
import { checkInputs, inputSetFileName, parseSimple, splitList } from '../../src/core/events';
import { PARAMETERS_OF_EVERY_TYPE } from '../support/metadata';

const parameters = PARAMETERS_OF_EVERY_TYPE;

describe('run inputs', () => {
  it('parses each simple type and says what fits when it does not', () => {
    assert.deepEqual(parseSimple('number', ' -3.5 '), { ok: true, value: -3.5 });
    assert.equal(parseSimple('number', 'ten').ok, false);
    assert.equal(parseSimple('number', '').ok, false);
    assert.equal(parseSimple('datetime', '2024-05-01T14:30:00Z').ok, true);
    assert.equal(parseSimple('datetime', '2024-05-01').ok, true);
    assert.equal(parseSimple('datetime', 'yesterday').ok, false);
    assert.equal(parseSimple('datetime', '2024-13-45T99:00').ok, false);
    assert.equal(parseSimple('email', 'ada@example.com').ok, true);
    assert.equal(parseSimple('email', 'ada@').ok, false);
    assert.deepEqual(parseSimple('text', ' kept as typed '), { ok: true, value: ' kept as typed ' });
  });

  it('checks an input set against the parameters', () => {
    const good = { company: 'ACME', employees: 12, foundedAt: '1999-01-01T00:00:00Z', contact: 'a@b.co', tier: 'gold', channels: ['mail'], scores: [1, 2] };
    assert.deepEqual(checkInputs(parameters, good), []);
    assert.deepEqual(checkInputs(parameters, { ...good, employees: '12', tier: 'bronze', channels: ['fax'], scores: [1, 'x'], extra: 1, contact: 42 }), [
      'employees: must be a number',
      'contact: must be a string (email)',
      'tier: must be one of gold, silver',
      'channels: has unknown choices "fax" (allowed: mail, phone)',
      'scores: item 2 must be a number',
      'extra: no such parameter',
    ]);
    const { company: _company, ...missing } = good;
    assert.deepEqual(checkInputs(parameters, missing), ['company: missing']);
    assert.deepEqual(checkInputs(parameters, { ...good, company: undefined }), ['company: missing'], 'JSON drops an undefined member');
    assert.deepEqual(checkInputs(parameters, [1, 2]), ['the inputs must be a JSON object with one member per parameter']);
  });

  it('splits typed lists and names input set files safely', () => {
    assert.deepEqual(splitList('1, 2 ;3,,'), ['1', '2', '3']);
    assert.equal(inputSetFileName('big order'), 'big order.json');
    assert.equal(inputSetFileName('../escape'), undefined);
    assert.equal(inputSetFileName(''), undefined);
  });
});
