// `custom-actions status`: per action, what differs and on which side.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { cliSandbox, keyOf, putCode, runCli, textMain, writeAction, writeProject, suiteSandbox } from './support';

describe('custom-actions status', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('exits 0 in step, and 1 naming code changed here, metadata changed on the server, only here and only on the server', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    for (const key of ['st-same', 'st-code', 'st-meta', 'st-remote']) writeAction(dir, 'app-a', actionMetadata({ key }), textMain(key));
    assert.equal((await runCli(['deploy'], { cwd: dir, env: fixture.env })).code, 0);
    const inStep = await runCli(['status', 'st-same', 'st-code', 'st-meta', 'st-remote'], { cwd: dir, env: fixture.env });
    assert.equal(inStep.code, 0, inStep.output);
    assert.match(inStep.stderr, /All 4 actions in step/);

    const lock = JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
      servers: Record<string, Record<string, Record<string, { id: string }>>>;
    };
    const ids = Object.values(lock.servers)[0]!['app-a']!;
    writeFileSync(path.join(dir, 'app-a', 'st-code', 'main.ts'), textMain('changed here'));
    const meta = await fetch(`${fixture.sandbox.url}/api/actions/${ids['st-meta']!.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${fixture.env.CUSTOM_ACTIONS_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(actionMetadata({ key: 'st-meta', name: 'Renamed on the server' })),
    });
    assert.equal(meta.status, 200);
    await putCode(fixture.sandbox, fixture.env.CUSTOM_ACTIONS_KEY!, ids['st-remote']!.id, textMain('theirs'), 'colleague');
    writeAction(dir, 'app-a', actionMetadata({ key: 'st-new' }), textMain('new'));

    const result = await runCli(['status', '--json'], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 1, result.output);
    const json = JSON.parse(result.stdout) as { inStep: boolean; actions: { key: string; presence: string; metadata?: string; implementation?: string }[] };
    const byKey = Object.fromEntries(json.actions.map((a) => [a.key, a]));
    assert.equal(json.inStep, false);
    assert.deepEqual([byKey['st-same']!.metadata, byKey['st-same']!.implementation], ['same', 'same']);
    assert.equal(byKey['st-code']!.implementation, 'changed-here');
    assert.equal(byKey['st-meta']!.metadata, 'changed-on-server');
    assert.equal(byKey['st-remote']!.implementation, 'changed-on-server');
    assert.equal(byKey['st-new']!.presence, 'only-here');

    const text = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.match(text.stdout, /^in-step\s+app-a\/st-same$/m);
    assert.match(text.stdout, /^differs\s+app-a\/st-code {2}code changed here$/m);
    assert.match(text.stdout, /^differs\s+app-a\/st-meta {2}metadata changed on the server since the base$/m);
    assert.match(text.stdout, /^differs\s+app-a\/st-new {2}only here$/m);

    const other = scratch.dir();
    writeProject(other, fixture.sandbox.url);
    const remoteOnly = await runCli(['status', 'st-same'], { cwd: other, env: fixture.env });
    assert.equal(remoteOnly.code, 1);
    assert.match(remoteOnly.stdout, /^differs\s+app-a\/st-same {2}only on the server$/m);
  });

  it('without a key exits 3, with a wrong key exits 3 and does not print it', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    assert.equal((await runCli(['status'], { cwd: dir })).code, 3);
    const wrong = await runCli(['status'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: 'wrong-4bd1e8c2' } });
    assert.equal(wrong.code, 3);
    assert.ok(!wrong.output.includes('wrong-4bd1e8c2'));
  });
});

describe('custom-actions status: one server under two spellings', function () {
  const fixture = suiteSandbox();

  it('is in step after a deploy to 127.0.0.1 when the project says localhost with a slash, and the lock keeps one entry', async () => {
    const dir = fixture.scratch.dir();
    const url = new URL(fixture.sandbox.url);
    writeProject(dir, `http://127.0.0.1:${url.port}`);
    writeAction(dir, 'app-a', actionMetadata({ key: 'spelled' }), textMain('one server'));
    const deployed = await runCli(['deploy'], { cwd: dir, env: fixture.env });
    assert.equal(deployed.code, 0, deployed.output);
    writeProject(dir, `http://LOCALHOST:${url.port}/`);
    const status = await runCli(['status', 'spelled'], { cwd: dir, env: fixture.env });
    assert.equal(status.code, 0, status.output);
    assert.match(status.stdout, /^in-step\s+app-a\/spelled$/m);
    const lock = JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as { servers: Record<string, unknown> };
    assert.deepEqual(Object.keys(lock.servers), [`http://localhost:${url.port}/`]);
  });
});

describe('custom-actions status and deploy: a server that lost everything (a sandbox restarted)', function () {
  const fixture = suiteSandbox();

  it('says the server looks new or reset, with no hint to pull, and deploy --force brings the actions back', async () => {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    for (const key of ['lost-one', 'lost-two']) writeAction(dir, 'app-a', actionMetadata({ key }), textMain(key));
    assert.equal((await runCli(['deploy'], { cwd: dir, env: fixture.env })).code, 0);
    // A new sandbox (a new database): the lock's entries, moved to its name, name actions it never had.
    const fresh = await cliSandbox();
    try {
      const lockFile = path.join(dir, 'customactions.lock.json');
      const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { servers: Record<string, unknown> };
      writeFileSync(lockFile, JSON.stringify({ version: 1, servers: { [`${fresh.url}/`]: Object.values(lock.servers)[0] } }));
      writeProject(dir, fresh.url);
      const env = { CUSTOM_ACTIONS_KEY: keyOf(fresh, 'app-a') };
      const status = await runCli(['status'], { cwd: dir, env });
      assert.equal(status.code, 1, status.output);
      assert.match(status.stdout, /^differs\s+app-a\/lost-one {2}not on the server, which looks new or reset$/m);
      assert.match(status.stderr, /None of the actions this repository deployed to application APP-A is on .* any more: the server looks new or reset/);
      assert.match(status.stderr, /custom-actions deploy --force creates them anew/);
      assert.ok(!/pull/i.test(status.stderr.replace('Nothing to pull', '')), status.stderr);
      const deployed = await runCli(['deploy', '--force', '--yes'], { cwd: dir, env });
      assert.equal(deployed.code, 0, deployed.output);
      assert.equal((await runCli(['status'], { cwd: dir, env })).code, 0);
    } finally {
      await fresh.close();
    }
  });
});
