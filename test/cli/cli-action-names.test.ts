// Naming actions: one rule (src/core/workspace/actionNames.ts) for every command that takes action names.
import assert from 'node:assert/strict';
import { actionMetadata } from '../support/metadata';
import { keyOf, runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

describe('custom-actions: a key two applications hold is asked about by every command', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('deploy, status, check, pull, test, run and events refuse it (exit 2) naming both as application/key; application/key works', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url, ['app-a', 'app-b']);
    writeAction(dir, 'app-a', actionMetadata({ key: 'shared' }), textMain('a'));
    writeAction(dir, 'app-b', actionMetadata({ key: 'shared' }), textMain('b'));
    const env = { CUSTOM_ACTIONS_KEY_APP_A: keyOf(fixture.sandbox, 'app-a'), CUSTOM_ACTIONS_KEY_APP_B: keyOf(fixture.sandbox, 'app-b') };
    const both = /"shared" is in 2 applications: name one as app-a\/shared or app-b\/shared/;
    const first = await runCli(['deploy', 'app-b/shared'], { cwd: dir, env });
    assert.equal(first.code, 0, first.output);
    assert.match(first.stdout, /^created\s+app-b\/shared/m);
    assert.doesNotMatch(first.stdout, /app-a\/shared/);
    const all = await runCli(['deploy'], { cwd: dir, env });
    assert.match(all.stdout, /^created\s+app-a\/shared/m);

    for (const command of [['deploy'], ['status'], ['check'], ['pull'], ['test'], ['run'], ['events']]) {
      const result = await runCli([...command, 'shared'], { cwd: dir, env });
      assert.equal(result.code, 2, `${command[0]}: ${result.output}`);
      assert.match(result.stderr, both, command[0]);
    }
    const one = await runCli(['status', 'app-a/shared', '--json'], { cwd: dir, env });
    assert.equal(one.code, 0, one.output);
    assert.deepEqual(
      (JSON.parse(one.stdout) as { actions: { application: string }[] }).actions.map((a) => a.application),
      ['app-a'],
    );
  });
});
