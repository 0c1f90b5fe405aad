import * as assert from 'node:assert/strict';
import { unifiedDiff } from '../../src/core/deploy/lineDiff';

const labels = { before: 'production:a/main.ts', after: 'staging:a/main.ts' };

describe('unifiedDiff', () => {
  it('is empty for the same text', () => {
    assert.deepEqual(unifiedDiff('a\nb\n', 'a\nb\n', labels), []);
  });

  it('prints hunks with three lines of context, as git does', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n') + '\n';
    const after = before.replace('5\n', 'five\n');
    assert.deepEqual(unifiedDiff(before, after, labels), [
      '--- production:a/main.ts',
      '+++ staging:a/main.ts',
      '@@ -2,7 +2,7 @@',
      ' 2',
      ' 3',
      ' 4',
      '-5',
      '+five',
      ' 6',
      ' 7',
      ' 8',
    ]);
  });

  it('a text from nothing is one hunk of additions', () => {
    assert.deepEqual(unifiedDiff('', 'x\ny\n', labels), ['--- production:a/main.ts', '+++ staging:a/main.ts', '@@ -0,0 +1,2 @@', '+x', '+y']);
  });

  it('changes far apart are two hunks', () => {
    const lines = Array.from({ length: 30 }, (_, i) => String(i));
    const after = [...lines];
    after[2] = 'two';
    after[25] = 'twenty-five';
    const diff = unifiedDiff(lines.join('\n'), after.join('\n'), labels);
    assert.deepEqual(
      diff.filter((l) => l.startsWith('@@')),
      ['@@ -1,6 +1,6 @@', '@@ -23,7 +23,7 @@'],
    );
  });
});
