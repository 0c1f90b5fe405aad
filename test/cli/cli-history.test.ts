// `custom-actions history` and `rollback`: an action's kept versions, and one redeployed against the base, confirmed and recorded.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { putCode, runCli, serverCode, suiteSandbox, textMain, writeAction, writeProject } from './support';

interface HistoryJson {
  ok: boolean;
  versions: { ref: string; part: string; version: number; client?: string; base: boolean }[];
}

describe('custom-actions history and rollback', function () {
  const fixture = suiteSandbox();

  /** A project whose action was deployed twice (code "one", then "two"); its id. */
  async function twoVersions(key: string): Promise<{ dir: string; id: string }> {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    for (const text of ['one', 'two']) {
      writeAction(dir, 'app-a', actionMetadata({ key }), textMain(text));
      const deployed = await runCli(['deploy', key], { cwd: dir, env: fixture.env });
      assert.equal(deployed.code, 0, deployed.output);
    }
    const lock = JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
      servers: Record<string, Record<string, Record<string, { id: string }>>>;
    };
    return { dir, id: Object.values(lock.servers)[0]!['app-a']![key]!.id };
  }

  it("history lists the server's versions newest first, the lock's base marked, with --json fields", async () => {
    const key = `hist-list-${Date.now()}`;
    const { dir } = await twoVersions(key);
    const result = await runCli(['history', key], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 0, result.output);
    const lines = result.stdout.trim().split('\n');
    assert.match(lines[0]!, /^code@2 +\S+ +by custom-actions-cli\/\S+ +base$/);
    assert.ok(
      lines.some((l) => /^code@1 /.test(l) && !l.endsWith('base')),
      result.stdout,
    );
    assert.ok(
      lines.some((l) => /^metadata@1 .*base$/.test(l)),
      result.stdout,
    );
    const json = JSON.parse((await runCli(['history', key, '--part', 'code', '--json=ref,base'], { cwd: dir, env: fixture.env })).stdout) as HistoryJson;
    assert.deepEqual(json.versions, [
      { ref: 'code@2', base: true },
      { ref: 'code@1', base: false },
    ]);
    const unknown = await runCli(['history', 'no-such-action'], { cwd: dir, env: fixture.env });
    assert.equal(unknown.code, 2, unknown.output);
  });

  it('rollback shows the diff, needs a confirmation, redeploys the version and records it in the lock and the history', async () => {
    const key = `hist-roll-${Date.now()}`;
    const { dir, id } = await twoVersions(key);
    const dry = await runCli(['rollback', key, 'code@1', '--dry-run'], { cwd: dir, env: fixture.env });
    assert.equal(dry.code, 0, dry.output);
    assert.match(dry.stdout, new RegExp(`would-update +app-a/${key} +code`));
    assert.ok(dry.stdout.includes(`--- server:app-a/${key}/main.ts`) && dry.stdout.includes(`+++ code@1:app-a/${key}/main.ts`), dry.stdout);
    assert.ok(dry.stdout.includes('-  return "two";') && dry.stdout.includes('+  return "one";'), dry.stdout);

    // Without a terminal and without --yes: refused, nothing written, and the way on said.
    const refused = await runCli(['rollback', key, 'code@1'], { cwd: dir, env: fixture.env });
    assert.equal(refused.code, 2, refused.output);
    assert.match(refused.stderr, /Roll back app-a\/\S+'s main\.ts on .* to code@1 .*it needs a confirmation/);
    assert.match(refused.stderr, new RegExp(`custom-actions rollback ${key} code@1 --yes`));
    assert.equal(await serverCode(fixture.sandbox, 'app-a', id), textMain('two'));

    const done = await runCli(['rollback', key, 'code@1', '--yes'], { cwd: dir, env: fixture.env });
    assert.equal(done.code, 0, done.output);
    assert.match(done.stdout, new RegExp(`^updated +app-a/${key} +code$`, 'm'));
    assert.equal(await serverCode(fixture.sandbox, 'app-a', id), textMain('one'));
    // Recorded as a deploy: the server's new version is the base, and the workspace's newer code is a change here.
    const history = JSON.parse((await runCli(['history', key, '--part', 'code', '--json'], { cwd: dir, env: fixture.env })).stdout) as HistoryJson;
    assert.deepEqual(
      history.versions.map((v) => [v.ref, v.base]),
      [
        ['code@3', true],
        ['code@2', false],
        ['code@1', false],
      ],
    );
    assert.match(history.versions[0]!.client!, /^custom-actions-cli\//);
    const status = await runCli(['status', key], { cwd: dir, env: fixture.env });
    assert.match(status.stdout, new RegExp(`differs +app-a/${key}  code changed here`));
    const again = await runCli(['rollback', key, 'code@1', '--yes'], { cwd: dir, env: fixture.env });
    assert.equal(again.code, 0, again.output);
    assert.match(again.stderr, /already holds code@1/);
  });

  it('a server changed since the base holds the rollback (exit 4, nothing written); --force --yes replaces it', async () => {
    const key = `hist-held-${Date.now()}`;
    const { dir, id } = await twoVersions(key);
    await putCode(fixture.sandbox, fixture.env.CUSTOM_ACTIONS_KEY!, id, textMain('colleague'), 'colleague-editor/1.0');
    const held = await runCli(['rollback', key, 'code@1', '--yes'], { cwd: dir, env: fixture.env });
    assert.equal(held.code, 4, held.output);
    assert.match(held.stdout, new RegExp(`^held +app-a/${key} +code changed on the server since the base \\(version 3, .*by colleague-editor/1\\.0\\)`, 'm'));
    assert.equal(await serverCode(fixture.sandbox, 'app-a', id), textMain('colleague'));

    const forcedRefused = await runCli(['rollback', key, 'code@1', '--force'], { cwd: dir, env: fixture.env });
    assert.equal(forcedRefused.code, 2, forcedRefused.output);
    assert.match(forcedRefused.stderr, /a change made on the server since this repository's base \(--force\)/);
    assert.equal(await serverCode(fixture.sandbox, 'app-a', id), textMain('colleague'));

    const forced = await runCli(['rollback', key, 'code@1', '--force', '--yes'], { cwd: dir, env: fixture.env });
    assert.equal(forced.code, 0, forced.output);
    assert.equal(await serverCode(fixture.sandbox, 'app-a', id), textMain('one'));
  });

  it('a version that is not there, or that names both parts, is a usage error', async () => {
    const key = `hist-ref-${Date.now()}`;
    const { dir } = await twoVersions(key);
    const missing = await runCli(['rollback', key, 'code@9'], { cwd: dir, env: fixture.env });
    assert.equal(missing.code, 2, missing.output);
    assert.match(missing.stderr, /has no version code@9 on the server/);
    const both = await runCli(['rollback', key, '1'], { cwd: dir, env: fixture.env });
    assert.equal(both.code, 2, both.output);
    assert.match(both.stderr, /has code@1 and metadata@1: name the one to redeploy/);
    const bad = await runCli(['rollback', key, 'main@x'], { cwd: dir, env: fixture.env });
    assert.equal(bad.code, 2, bad.output);
  });
});
