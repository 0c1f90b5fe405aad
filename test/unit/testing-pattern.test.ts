import * as assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { judge, MATCHED_TEXT_MAX, parseInputSetFile, PATTERN_MAX, patternMatches } from '../../src/core/testing';

/**
 * Judges in a worker thread and gives up after `deadlineMs`: a backtracking engine on a catastrophic
 * pattern does not return for minutes and blocks its thread, so the test must not run it on its own.
 */
function judgeApart(pattern: string, message: string, deadlineMs: number): Promise<{ pass: boolean } | 'no answer'> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { judge } = require(workerData.module);
    parentPort.postMessage(judge({ kind: 'error', message: workerData.pattern }, { ok: false, error: { message: workerData.message } }));
  `;
  const worker = new Worker(source, {
    eval: true,
    execArgv: ['--require', 'tsx/cjs'],
    workerData: { module: require.resolve('../../src/core/testing'), pattern, message },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      resolve('no answer');
      void worker.terminate();
    }, deadlineMs);
    worker.once('message', (verdict: { pass: boolean }) => {
      clearTimeout(timer);
      resolve(verdict);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('Input sets: error patterns are matched in linear time', () => {
  it('a catastrophic pattern on a crafted message answers (a backtracking engine would not for minutes)', async function () {
    this.timeout(60_000);
    // (a+)+$ backtracks 2^n times on a run of a's that ends in another character; within the cap.
    const verdict = await judgeApart('(a+)+$', `${'a'.repeat(MATCHED_TEXT_MAX - 1)}!`, 30_000);
    assert.notEqual(verdict, 'no answer', 'the judge answered');
    assert.equal((verdict as { pass: boolean }).pass, false);
  });

  it('still matches the patterns people write', () => {
    const failure = (message: string) => ({ ok: false as const, error: { name: 'RangeError', message } });
    assert.equal(judge({ kind: 'error', message: '^amount \\d+ too large$' }, failure('amount 42 too large')).pass, true);
    assert.equal(judge({ kind: 'error', message: '(?i)TOO LARGE' }, failure('amount too large')).pass, true);
    assert.equal(judge({ kind: 'error', message: '\\x{41}mount' }, failure('Amount')).pass, true);
    assert.equal(judge({ kind: 'error', message: 'a/b' }, failure('path a/b')).pass, true);
    assert.equal(judge({ kind: 'error', message: '^small' }, failure('amount too large')).pass, false);
  });

  it('looks at the first characters of a message only', () => {
    assert.equal(patternMatches('x$', `${'a'.repeat(MATCHED_TEXT_MAX)}x`), false);
    assert.equal(patternMatches('x', `${'a'.repeat(MATCHED_TEXT_MAX - 1)}x`), true);
  });

  it('refuses, in the file, what the engine cannot match, and says which syntax it takes', () => {
    const problemOf = (pattern: string) =>
      parseInputSetFile(JSON.stringify({ inputs: {}, expect: { error: { message: pattern } } }), []).problems.map((p) => p.message);
    for (const pattern of ['(a)\\1', '(?<n>a)\\k<n>', '(?=a)b', '(?<=a)b', '(?!a)', '\\u0041', '[']) {
      const problems = problemOf(pattern);
      assert.equal(problems.length, 1, pattern);
      assert.match(problems[0]!, /^is not a valid regular expression in RE2 syntax/, pattern);
    }
    assert.match(problemOf('a'.repeat(PATTERN_MAX + 1))[0]!, /longer than/);
    assert.deepEqual(problemOf('^amount \\d+ (too )?large$'), []);
  });

  it('bounds what it reads of an input set file: depth and size', () => {
    const deep = `{"inputs": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    assert.match(parseInputSetFile(deep, []).problems[0]!.message, /^not read: nested deeper than/);
    const large = JSON.stringify({ inputs: { a: 'x'.repeat(1_100_000) } });
    assert.match(parseInputSetFile(large, undefined).problems[0]!.message, /^not read: longer than/);
  });
});
