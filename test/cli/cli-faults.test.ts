// A connection dropped in the middle of a deploy: the run fails, nothing is half-written, and the
// rerun finishes the job.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DeployLock } from '../../src/core/deploy/lock';
import { type Sandbox } from '../../src/sandbox';
import { type FaultProxy, startFaultProxy } from '../support/faultProxy';
import { actionMetadata } from '../support/metadata';
import { cliSandbox, keyOf, runCli, Scratch, serverCode, textMain, writeAction, writeProject } from './support';

describe('custom-actions deploy over a connection that drops', function () {
  const scratch = new Scratch();
  let sandbox: Sandbox;
  let proxy: FaultProxy;
  /** While true, every push of code loses its connection (before or after the server got it). */
  let dropping = false;
  before(async () => {
    sandbox = await cliSandbox();
    proxy = await startFaultProxy({
      target: sandbox.url,
      rate: 1,
      seed: 28,
      kinds: ['reset-before', 'reset-after'],
      spare: (method, p) => !(dropping && method === 'PUT' && p.endsWith('/implementation')),
    });
  });
  after(async () => {
    await proxy.close();
    await sandbox.close();
    scratch.cleanup();
  });

  it('fails with exit 5 naming the actions, leaves each action whole and the lock valid, and the rerun finishes', async () => {
    const dir = scratch.dir();
    writeProject(dir, proxy.url);
    const keys = ['d1', 'd2', 'd3', 'd4'];
    for (const key of keys) writeAction(dir, 'app-a', actionMetadata({ key }), textMain(`${key} v1`));
    const env = { CUSTOM_ACTIONS_KEY: keyOf(sandbox, 'app-a') };
    assert.equal((await runCli(['deploy'], { cwd: dir, env })).code, 0);
    for (const key of keys) writeFileSync(path.join(dir, 'app-a', key, 'main.ts'), textMain(`${key} v2`));
    writeAction(dir, 'app-a', actionMetadata({ key: 'd5' }), textMain('d5 v1'));

    dropping = true;
    const failed = await runCli(['deploy', '--timeout', '5'], { cwd: dir, env });
    dropping = false;
    assert.equal(failed.code, 5, failed.output);
    for (const key of [...keys, 'd5']) assert.match(failed.stdout, new RegExp(`^failed\\s+app-a/${key} {2}code: Pushing the implementation failed`, 'm'));
    const lockText = readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8');
    assert.ok('lock' in DeployLock.parse(lockText), 'the lock is whole');
    const lock = (DeployLock.parse(lockText) as { lock: DeployLock }).lock;
    // Each action holds one whole version of its code: the old one, or the new one whose answer was lost.
    for (const key of keys) {
      const code = await serverCode(sandbox, 'app-a', lock.get(proxy.url, 'app-a', key)!.id);
      assert.ok(code === textMain(`${key} v1`) || code === textMain(`${key} v2`), `${key}: ${code}`);
    }
    assert.ok(lock.get(proxy.url, 'app-a', 'd5'), 'the created action is in the lock, its code still to come');

    const rerun = await runCli(['deploy'], { cwd: dir, env });
    assert.equal(rerun.code, 0, rerun.output);
    for (const key of keys) assert.equal(await serverCode(sandbox, 'app-a', lock.get(proxy.url, 'app-a', key)!.id), textMain(`${key} v2`));
    assert.equal(await serverCode(sandbox, 'app-a', lock.get(proxy.url, 'app-a', 'd5')!.id), textMain('d5 v1'));
    const status = await runCli(['status'], { cwd: dir, env });
    assert.equal(status.code, 0, status.output);
    const again = await runCli(['deploy'], { cwd: dir, env });
    assert.equal((again.stdout.match(/^unchanged/gm) ?? []).length, 5, again.stdout);
  });
});
