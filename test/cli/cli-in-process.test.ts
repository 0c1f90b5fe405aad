// The in-process layer is honest only if the program touches nothing of the process it runs in: its
// environment, folder and output are the io's, and runs at once keep apart (docs/testing.md).
import assert from 'node:assert/strict';
import { actionMetadata } from '../support/metadata';
import { keyOf, runInProcess, suiteSandbox, textMain, writeAction, writeProject } from './support';

describe('custom-actions in process: nothing of the process leaks in', () => {
  const suite = suiteSandbox();

  it("reads the key from its io's environment, never the process's", async () => {
    const dir = suite.scratch.dir();
    writeProject(dir, suite.sandbox.url);
    writeAction(dir, 'app-a', actionMetadata({ key: 'leak' }), textMain('x'));
    const saved = process.env.CUSTOM_ACTIONS_KEY;
    process.env.CUSTOM_ACTIONS_KEY = keyOf(suite.sandbox, 'app-a');
    try {
      const without = await runInProcess(['status'], { cwd: dir });
      assert.equal(without.code, 3, without.output);
      assert.match(without.stderr, /No key for application/);
    } finally {
      if (saved === undefined) delete process.env.CUSTOM_ACTIONS_KEY;
      else process.env.CUSTOM_ACTIONS_KEY = saved;
    }
  });

  it('keeps two runs at once apart: each its folder, its key, its output and exit code', async () => {
    const ok = suite.scratch.dir();
    writeProject(ok, suite.sandbox.url);
    writeAction(ok, 'app-a', actionMetadata({ key: 'apart' }), textMain('x'));
    const invalid = suite.scratch.dir();
    writeProject(invalid, suite.sandbox.url, ['app-b']);
    const [deploy, refused] = await Promise.all([
      runInProcess(['deploy'], { cwd: ok, env: suite.env }),
      runInProcess(['status', '--json'], { cwd: invalid, env: { CUSTOM_ACTIONS_KEY: 'wrong-key-of-another-run' } }),
    ]);
    assert.equal(deploy.code, 0, deploy.output);
    assert.match(deploy.stdout, /^created\s+app-a\/apart/m);
    assert.equal(refused.code, 3, refused.output);
    assert.doesNotMatch(refused.output, /apart/);
    assert.doesNotMatch(deploy.output, /app-b/);
    assert.equal(process.exitCode, undefined, 'no run sets the exit code of the process');
  });
});
