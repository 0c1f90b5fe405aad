import * as assert from 'node:assert/strict';
import { mainFrames } from '../../src/core/events';

describe('mainFrames: the main.ts lines a stack names', () => {
  it('reads each frame’s line and column, in order, with or without a path before it', () => {
    const stack = 'Error: boom\n    at inner (/srv/app/main.ts:7:11)\n    at main (main.ts:3:5)\n    at run (node:internal/x.js:1:1)';
    assert.deepEqual(
      mainFrames(stack).map((f) => [f.line, f.column]),
      [
        [7, 11],
        [3, 5],
      ],
    );
    const [first] = mainFrames(stack);
    assert.equal(stack.slice(first!.index, first!.index + first!.length), '/srv/app/main.ts:7:11');
  });

  it('takes only numbers from the text: no column means column 1, line 0 is no frame, other files are not frames', () => {
    assert.deepEqual(
      mainFrames('main.ts:4 main.ts:0:1 other.ts:9:9 not-main.tsx:2').map((f) => [f.line, f.column]),
      [[4, 1]],
    );
  });
});
