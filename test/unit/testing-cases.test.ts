import assert from 'node:assert/strict';
import { type Parameter, type ResultType } from '../../src/core/schema';
import { checkResult, judge, parseInputSetFile } from '../../src/core/testing';

const PARAMS: Parameter[] = [
  { name: 'a', type: 'number' },
  { name: 'b', type: 'number' },
];

describe('testing: input set files', () => {
  it('reads the plain form, the inputs themselves, as before', () => {
    const file = parseInputSetFile('{ "a": 1, "b": 2 }\n', PARAMS);
    assert.equal(file.form, 'plain');
    assert.deepEqual(file.inputs, { a: 1, b: 2 });
    assert.equal(file.expect, undefined);
    assert.deepEqual(file.problems, []);
  });

  it('reads a test case with each kind of expectation', () => {
    const exact = parseInputSetFile('{"inputs": {"a": 1, "b": 2}, "expect": {"result": 3}, "description": "adds"}', PARAMS);
    assert.equal(exact.form, 'case');
    assert.deepEqual(exact.inputs, { a: 1, b: 2 });
    assert.deepEqual(exact.expect, { kind: 'result', value: 3 });
    assert.equal(exact.description, 'adds');
    assert.deepEqual(parseInputSetFile('{"inputs": {"a": 1, "b": 2}, "expect": {"resultContains": {"x": 1}}}', PARAMS).expect, {
      kind: 'resultContains',
      value: { x: 1 },
    });
    assert.deepEqual(parseInputSetFile('{"inputs": {"a": 1, "b": 2}, "expect": {"error": true}}', PARAMS).expect, { kind: 'error' });
    assert.deepEqual(parseInputSetFile('{"inputs": {"a": 1, "b": 2}, "expect": {"error": {"message": "^bad", "name": "TypeError"}}}', PARAMS).expect, {
      kind: 'error',
      message: '^bad',
      name: 'TypeError',
    });
  });

  it('keeps a plain file of an action whose parameter is named inputs plain', () => {
    const params: Parameter[] = [{ name: 'inputs', type: 'text' }];
    const file = parseInputSetFile('{"inputs": "hello"}', params);
    assert.equal(file.form, 'plain');
    assert.deepEqual(file.problems, []);
  });

  it('points each problem at its place in the file', () => {
    const text = '{\n  "inputs": {"a": "one", "b": 2, "c": 3},\n  "expect": {"result": 3, "error": true}\n}\n';
    const file = parseInputSetFile(text, PARAMS);
    const byMessage = new Map(file.problems.map((p) => [p.message, p.range.start]));
    assert.deepEqual(byMessage.get('a: must be a number'), { line: 1, character: 18, offset: 20 });
    assert.equal(byMessage.get('c: no such parameter')?.line, 1);
    assert.equal(byMessage.get('has result and error: give one')?.line, 2);
  });

  it('reports invalid JSON at its position, and bad expectations by name', () => {
    const broken = parseInputSetFile('{\n  "a": 1,\n  "b": \n}', PARAMS);
    assert.equal(broken.inputs, undefined);
    assert.match(broken.problems[0]!.message, /not valid JSON/);
    // V8 names no position for most syntax errors; VS Code's own JSON support underlines the spot.
    assert.equal(broken.problems.length, 1);
    const bad = parseInputSetFile('{"inputs": {"a": 1, "b": 2}, "expect": {"error": {"message": "(", "why": 1}}}', PARAMS);
    const messages = bad.problems.map((p) => p.message).sort();
    assert.equal(messages.length, 2);
    assert.match(messages[0]!, /^is not a valid regular expression in RE2 syntax \(missing closing \)/);
    assert.equal(messages[1], 'unknown member "why" (message or name)');
    assert.equal(bad.expect, undefined);
  });
});

describe('testing: judging a run against its expectation', () => {
  it('passes a run that does not throw when nothing is expected, and fails one that throws', () => {
    assert.deepEqual(judge(undefined, { ok: true, result: 1 }), { pass: true });
    assert.equal(judge(undefined, { ok: false, error: { name: 'Error', message: 'boom' } }).pass, false);
  });

  it('compares results as JSON, with expected and actual for a diff', () => {
    assert.deepEqual(judge({ kind: 'result', value: { a: 1 } }, { ok: true, result: { a: 1, b: undefined } }), { pass: true });
    const failed = judge({ kind: 'result', value: 3 }, { ok: true, result: 4 });
    assert.deepEqual(failed, { pass: false, message: 'the result differs from the expected one', expected: 3, actual: 4 });
  });

  it('matches objects partially at every depth and names the first difference', () => {
    const expect = { kind: 'resultContains', value: { total: 3, customer: { id: 'c1' } } } as const;
    assert.deepEqual(judge(expect, { ok: true, result: { total: 3, customer: { id: 'c1', name: 'Ada' }, extra: true } }), { pass: true });
    const failed = judge(expect, { ok: true, result: { total: 3, customer: { id: 'c2' } } });
    assert.equal(failed.pass, false);
    assert.match((failed as { message: string }).message, /result\.customer\.id is "c2", expected "c1"/);
  });

  it('expects failures by message pattern and name', () => {
    const error = { ok: false, error: { name: 'RangeError', message: 'amount too large' } } as const;
    assert.deepEqual(judge({ kind: 'error', message: 'too large' }, error), { pass: true });
    assert.equal(judge({ kind: 'error', name: 'TypeError' }, error).pass, false);
    assert.equal(judge({ kind: 'error', message: '^small' }, error).pass, false);
    assert.equal(judge({ kind: 'error' }, { ok: true, result: 1 }).pass, false);
  });
});

describe('testing: a result against the declared result type', () => {
  const order: ResultType = {
    type: 'object',
    properties: { total: { type: 'number' }, tags: { type: { type: 'collection', items: 'text' } }, at: { type: 'datetime' } },
  };

  it('accepts a fitting result, and null anywhere as no value', () => {
    assert.deepEqual(checkResult(order, { total: 3, tags: ['a', null], at: '2024-05-01T12:00:00Z' }), []);
    assert.deepEqual(checkResult(order, null), []);
    assert.deepEqual(checkResult('number', 3), []);
  });

  it('names the field that does not fit', () => {
    assert.deepEqual(checkResult(order, { total: '3', tags: ['a', 2], extra: 1 }), [
      { path: 'result.total', message: 'must be a number' },
      { path: 'result.tags[1]', message: 'must be a string (text)' },
      { path: 'result.at', message: 'missing' },
      { path: 'result.extra', message: 'is not declared in the result type' },
    ]);
    assert.deepEqual(checkResult({ type: 'collection', items: 'email' }, ['x']), [
      { path: 'result[0]', message: 'must be an e-mail address, such as ada@example.com' },
    ]);
    assert.equal(checkResult(order, [1])[0]?.path, 'result');
  });
});
