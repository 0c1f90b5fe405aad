import * as assert from 'node:assert/strict';
import { actionFolderForServerKey, checkServerKey, directChildPath } from '../../src/core/workspace';

const APP = '/work/ws/billing';

describe('Action folders named by a server', () => {
  it('takes a valid key as a direct child of the application folder', () => {
    assert.deepEqual(actionFolderForServerKey(APP, 'score-lead'), { ok: true, path: '/work/ws/billing/score-lead' });
    assert.deepEqual(actionFolderForServerKey(APP + '/', 'Score_Lead2'), { ok: true, path: '/work/ws/billing/Score_Lead2' });
    assert.deepEqual(actionFolderForServerKey('/c:/Users/me/ws/app', 'a'), { ok: true, path: '/c:/Users/me/ws/app/a' });
  });

  it('refuses keys that climb out, name a grandchild, end in a separator or hide in the parent', () => {
    for (const key of [
      '../../outside/evil',
      '..',
      '.',
      '',
      'score-lead/',
      '/abs',
      'a/b',
      'a\\..\\..\\x',
      '..\\evil',
      'a\u0000b',
      '%2e%2e',
      ' a',
      'a ',
      'a.b',
      '-a',
      '1a',
    ]) {
      const checked = actionFolderForServerKey(APP, key);
      assert.equal(checked.ok, false, JSON.stringify(key));
    }
  });

  it('refuses what is not a string, too long, or a Windows device name', () => {
    for (const key of [undefined, null, 42, {}, ['a'], 'a'.repeat(65), 'con', 'CON', 'Nul', 'com1', 'LPT9', 'aux']) {
      assert.equal(checkServerKey(key).ok, false, JSON.stringify(key));
    }
    assert.equal(checkServerKey('a'.repeat(64)).ok, true);
    assert.equal(checkServerKey('console').ok, true);
  });

  it('gives a reason that does not repeat the key', () => {
    const checked = checkServerKey('../../[x](command:y)');
    assert.ok(!checked.ok && !checked.reason.includes('command:'));
  });

  it('contains after normalisation, whatever the rule for keys says', () => {
    assert.equal(directChildPath(APP, 'a'), '/work/ws/billing/a');
    assert.equal(directChildPath('/work/ws/./billing/../billing', 'a'), '/work/ws/billing/a');
    assert.equal(directChildPath(APP, '../billing/a'), undefined, 'back in, but a grandchild named differently');
    assert.equal(directChildPath(APP, '../billing'), undefined, 'the parent itself');
    assert.equal(directChildPath(APP, './a'), undefined, 'a child, but not named by the name given');
    assert.equal(directChildPath(APP, 'a/'), undefined);
    assert.equal(directChildPath(APP, 'a//'), undefined);
    assert.equal(directChildPath(APP, '../../../../../../etc'), undefined);
    assert.equal(directChildPath('/', 'a'), '/a');
    assert.equal(directChildPath(APP, 'a\\b'), undefined);
  });
});
