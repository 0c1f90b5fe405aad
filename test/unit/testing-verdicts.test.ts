import assert from 'node:assert/strict';
import { type ResultType } from '../../src/core/schema';
import { mainFrameOf } from '../../src/core/events';
import { judgeCase } from '../../src/core/testing';

const TOTAL: ResultType = { type: 'object', properties: { total: { type: 'number' } } };

describe('testing: the verdict of a case run', () => {
  it('fails a result that does not fit the declared type, naming the field, before comparing it', () => {
    const verdict = judgeCase(undefined, { ok: true, result: { total: 'three' } }, TOTAL);
    assert.equal(verdict.pass, false);
    assert.match(verdict.pass ? '' : verdict.message, /result\.total/);
    assert.deepEqual(judgeCase({ kind: 'result', value: { total: 3 } }, { ok: true, result: { total: 3 } }, TOTAL), { pass: true });
  });

  it('judges an expected failure on the error alone', () => {
    assert.deepEqual(judgeCase({ kind: 'error' }, { ok: false, error: { message: 'no' } }, TOTAL), { pass: true });
  });

  it('gives expected and actual for a result that differs', () => {
    const verdict = judgeCase({ kind: 'result', value: 2 }, { ok: true, result: 3 }, 'number');
    assert.ok(!verdict.pass);
    assert.equal(verdict.expected, 2);
    assert.equal(verdict.actual, 3);
  });

  it('finds the main.ts line of an error in its stack, and only a real line', () => {
    const stack = 'Error: boom\n    at helper (/w/a/helper.ts:9:1)\n    at main (/w/a/main.ts:4:11)\n    at run (/x/run-local.js:1:1)';
    assert.deepEqual(mainFrameOf(stack, '/w/a/main.ts'), { line: 4, column: 11 });
    assert.deepEqual(mainFrameOf('at main (main.ts:7:2)'), { line: 7, column: 2 });
    assert.equal(mainFrameOf('at main (/w/b/main.ts:4:11)', '/w/a/main.ts'), undefined);
    assert.deepEqual(mainFrameOf('at main (C:\\Users\\A B\\x\\main.ts:3:1)', 'C:\\Users\\A B\\x\\main.ts'), { line: 3, column: 1 }, 'a path with a space');
    assert.equal(mainFrameOf('at x (notmain.ts:4:1)'), undefined);
    assert.equal(mainFrameOf(undefined), undefined);
  });
});
