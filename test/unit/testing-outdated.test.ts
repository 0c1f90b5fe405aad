import assert from 'node:assert/strict';
import { outdatedBy } from '../../src/core/testing';

describe('testing: which verdicts a changed file makes outdated', () => {
  it('main.ts and action.yaml: every case of their action', () => {
    assert.deepEqual(outdatedBy('/ws/app/greet/main.ts'), { scope: 'action', folder: '/ws/app/greet' });
    assert.deepEqual(outdatedBy('/ws/app/greet/action.yaml'), { scope: 'action', folder: '/ws/app/greet' });
  });

  it('an input set: that case only', () => {
    assert.deepEqual(outdatedBy('/ws/app/greet/inputs/polite.json'), { scope: 'case', folder: '/ws/app/greet', file: '/ws/app/greet/inputs/polite.json' });
    assert.deepEqual(outdatedBy('/ws/app/greet/inputs/Loud.JSON'), { scope: 'case', folder: '/ws/app/greet', file: '/ws/app/greet/inputs/Loud.JSON' });
  });

  it('any other file changes no verdict', () => {
    for (const path of [
      '/ws/app/greet/action.generated.ts',
      '/ws/app/greet/inputs/notes.txt',
      '/ws/app/greet/helper.ts',
      '/ws/customactions.yaml',
      '/ws/app/greet/main.ts.orig',
      '/ws/app/greet/inputs',
      '/inputs/a.json',
      'main.ts',
      '/main.ts',
    ])
      assert.equal(outdatedBy(path), undefined, path);
  });
});
