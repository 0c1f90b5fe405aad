import assert from 'node:assert/strict';
import { describeNameProblems, parseActionName, selectActions } from '../../src/core/workspace';

/**
 * Naming actions (src/core/workspace/actionNames.ts): the one rule of every command of the command
 * line (deploy, status, pull, check, promote, test, run, events) and of the editor's lookup of an
 * action by application and key. Each face is held to it in rules-once.test.ts.
 */
const candidates = [
  { application: 'app-a', key: 'shared' },
  { application: 'app-b', key: 'shared' },
  { application: 'app-a', key: 'only-a' },
  { application: 'team/app-c', key: 'only-c' },
];
const select = (...texts: string[]) =>
  selectActions(
    texts.map((t) => parseActionName(t)!),
    candidates,
    (c) => c,
  );

describe('Naming actions: one rule for every command and both faces', () => {
  it('no names: every action', () => {
    assert.deepEqual(select().chosen, candidates);
  });

  it('a key one application holds names its action; application/key names it in that application', () => {
    assert.deepEqual(select('only-a').chosen, [candidates[2]]);
    assert.deepEqual(select('app-b/shared').chosen, [candidates[1]]);
    assert.deepEqual(select('team/app-c/only-c').chosen, [candidates[3]], 'an application id may hold a slash; a key never does');
  });

  it('a key two applications hold is an error naming each as application/key, and chooses neither', () => {
    const { chosen, problems } = select('shared', 'only-a');
    assert.deepEqual(chosen, [candidates[2]]);
    assert.deepEqual(problems, [{ kind: 'ambiguous', name: 'shared', choices: ['app-a/shared', 'app-b/shared'] }]);
    assert.equal(describeNameProblems(problems), '"shared" is in 2 applications: name one as app-a/shared or app-b/shared.');
  });

  it('a name that finds nothing is an error, in the candidates order whatever the names order', () => {
    const { chosen, problems } = select('only-c', 'typo', 'app-b/only-a', 'only-a');
    assert.deepEqual(chosen, [candidates[2], candidates[3]]);
    assert.equal(describeNameProblems(problems), 'No such action: typo, app-b/only-a.');
  });

  it('an application answers to its aliases (a target names it by another id)', () => {
    const { chosen } = selectActions([parseActionName('staging-a/only-a')!], candidates, (c) => ({
      ...c,
      aliases: c.application === 'app-a' ? ['staging-a'] : [],
    }));
    assert.deepEqual(chosen, [candidates[2]]);
  });

  it('parseActionName: key, or application/key split at the last slash; an empty side is no name', () => {
    assert.deepEqual(parseActionName('k'), { text: 'k', key: 'k' });
    assert.deepEqual(parseActionName('a/b/k'), { text: 'a/b/k', application: 'a/b', key: 'k' });
    assert.equal(parseActionName('a/'), undefined);
    assert.equal(parseActionName('/k'), undefined);
  });
});
