import * as assert from 'node:assert/strict';
import { getIn, moveEntry, moveItem, parameterKind, propertyNameProblem, renameKey, resultKind, setIn, uniqueName, withKind } from '../../src/core/webview';

describe('Metadata form model', () => {
  it('sets and removes at a path without touching the rest', () => {
    const value = { key: 'a', parameters: [{ name: 'x', type: 'text', 'x-note': 1 }], other: { kept: true } };
    const next = setIn(value, ['parameters', 0, 'name'], 'y') as typeof value;
    assert.deepEqual(next, { key: 'a', parameters: [{ name: 'y', type: 'text', 'x-note': 1 }], other: { kept: true } });
    assert.equal(value.parameters[0]?.name, 'x', 'the old value is not changed');
    assert.equal(next.other, value.other, 'untouched branches are shared');
    assert.deepEqual(setIn(value, ['parameters', 0], undefined), { ...value, parameters: [] });
    assert.deepEqual(setIn({ a: 1, b: 2 }, ['a'], undefined), { b: 2 });
    assert.deepEqual(setIn({}, ['result', 'type'], 'text'), { result: { type: 'text' } });
    assert.equal(getIn(value, ['parameters', 0, 'x-note']), 1);
    assert.equal(getIn(value, ['parameters', 'name']), undefined);
  });

  it('moves items and entries', () => {
    assert.deepEqual(moveItem(['a', 'b', 'c'], 0, 2), ['b', 'c', 'a']);
    assert.deepEqual(moveItem(['a', 'b', 'c'], 2, 0), ['c', 'a', 'b']);
    assert.deepEqual(moveItem(['a', 'b'], 0, 5), ['a', 'b']);
    assert.deepEqual(Object.keys(moveEntry({ a: 1, b: 2, c: 3 }, 2, 0)), ['c', 'a', 'b']);
  });

  it('recognizes kinds, and switches them keeping what still applies', () => {
    assert.equal(parameterKind('email'), 'email');
    assert.equal(parameterKind({ type: 'multiple-select', choices: [] }), 'multiple-select');
    assert.equal(parameterKind({ type: 'object' }), undefined);
    assert.equal(parameterKind('string'), undefined);
    assert.equal(resultKind({ type: 'object', properties: {} }), 'object');
    const single = { type: 'single-choice', choices: [{ id: 'a', label: 'A' }], 'x-ui': 'radio' };
    assert.deepEqual(withKind(single, 'multiple-select'), { type: 'multiple-select', choices: [{ id: 'a', label: 'A' }], 'x-ui': 'radio' });
    assert.deepEqual(withKind('text', 'single-choice'), { type: 'single-choice', choices: [{ id: 'option1', label: 'Option 1' }] });
    assert.deepEqual(withKind('text', 'collection', 'number'), { type: 'collection', items: 'number' });
    assert.deepEqual(withKind(single, 'datetime'), 'datetime');
    assert.deepEqual(withKind('text', 'object'), { type: 'object', properties: { property1: { type: 'text' } } });
  });

  it('refuses property names with whitespace, empty or taken, and renames in place', () => {
    assert.match(propertyNameProblem('first name', []) ?? '', /whitespace/);
    assert.match(propertyNameProblem('tab\there', []) ?? '', /whitespace/);
    assert.match(propertyNameProblem('', []) ?? '', /needs a name/);
    assert.match(propertyNameProblem('total', ['total']) ?? '', /already/);
    assert.equal(propertyNameProblem('firstName', ['total']), undefined);
    assert.deepEqual(Object.keys(renameKey({ a: 1, b: 2, c: 3 }, 'b', 'beta')), ['a', 'beta', 'c']);
    assert.deepEqual(renameKey({ a: 1, b: 2 }, 'a', 'b'), { a: 1, b: 2 });
    assert.equal(uniqueName('parameter', ['parameter1', 'parameter2']), 'parameter3');
  });
});
