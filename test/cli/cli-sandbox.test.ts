// `custom-actions sandbox start`, run as the built process: ready lines a pipeline reads, a clean stop.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { runCli, Scratch, writeProject } from './support';
import { RunningCli } from './server';

describe('custom-actions sandbox', function () {
  this.timeout(180_000);
  const scratch = new Scratch();
  after(() => scratch.cleanup());

  it('refuses an unknown sandbox action and a sandbox without applications (exit 2)', async () => {
    const unknown = await runCli(['sandbox', 'stop'], { cwd: scratch.dir() });
    assert.equal(unknown.code, 2, unknown.output);
    const empty = await runCli(['sandbox', 'start'], { cwd: scratch.dir() });
    assert.equal(empty.code, 2, empty.output);
    assert.match(empty.stderr, /--ensure-app/);
  });

  it('starts with the applications of --ensure-app, each named whole (id, or id:name)', async () => {
    const sandbox = new RunningCli(['sandbox', 'start', '--ensure-app', 'billing-eu', '--ensure-app', 'crm:Customers'], { cwd: scratch.dir() });
    try {
      await eventually(() => /CUSTOM_ACTIONS_KEY_CRM=/.test(sandbox.stdout) || undefined, 'the ready lines', 150_000);
      const names = sandbox.stdout.split('\n').flatMap((line) => /^(CUSTOM_ACTIONS_KEY_\w+)=/.exec(line)?.[1] ?? []);
      assert.deepEqual(names.sort(), ['CUSTOM_ACTIONS_KEY_BILLING_EU', 'CUSTOM_ACTIONS_KEY_CRM']);
      sandbox.child.kill('SIGTERM');
      assert.equal((await sandbox.exited).code, 0, sandbox.stderr);
    } finally {
      sandbox.kill();
    }
  });

  it('starts with the project’s applications, prints its URL and keys as lines --key-file reads, serves, and stops on SIGTERM', async () => {
    const dir = scratch.dir();
    writeProject(dir, 'http://127.0.0.1:1');
    const sandbox = new RunningCli(['sandbox', 'start'], { cwd: dir });
    try {
      await eventually(() => /CUSTOM_ACTIONS_KEY_APP_A=/.test(sandbox.stdout) || undefined, 'the ready lines', 150_000);
      const url = /^CUSTOM_ACTIONS_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(sandbox.stdout)?.[1];
      assert.ok(url, sandbox.stdout);
      writeFileSync(path.join(dir, 'sandbox.env'), sandbox.stdout);
      const events = await runCli(['events', '--base-url', url, '--key-file', 'sandbox.env'], { cwd: dir });
      assert.equal(events.code, 0, events.output);
      sandbox.child.kill('SIGTERM');
      assert.equal((await sandbox.exited).code, 0, sandbox.stderr);
      await assert.rejects(fetch(url), 'the sandbox still answers after its command ended');
    } finally {
      sandbox.kill();
    }
  });
});
