// See before you send: `deploy --dry-run` and `status` show what would change, code and metadata, as a unified diff.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { putCode, runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

const ESC = '\u001b';

describe('custom-actions deploy --dry-run and status: the diff of what would change', function () {
  const fixture = suiteSandbox();

  /** A project with `key` deployed, then its code and description changed here. */
  async function changedHere(key: string): Promise<{ dir: string; id: string }> {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    writeAction(dir, 'app-a', actionMetadata({ key, description: 'before' }), textMain('before'));
    const deployed = await runCli(['deploy'], { cwd: dir, env: fixture.env });
    assert.equal(deployed.code, 0, deployed.output);
    writeAction(dir, 'app-a', actionMetadata({ key, description: 'after' }), textMain('after'));
    const lock = JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
      servers: Record<string, Record<string, Record<string, { id: string }>>>;
    };
    return { dir, id: Object.values(lock.servers)[0]!['app-a']![key]!.id };
  }

  it('deploy --dry-run shows the diff of main.ts and of action.yaml, server → workspace, and writes nothing', async () => {
    const key = `diff-dry-${Date.now()}`;
    const { dir } = await changedHere(key);
    const result = await runCli(['deploy', '--dry-run', key], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 0, result.output);
    const out = result.stdout;
    assert.match(out, new RegExp(`would-update +app-a/${key} +metadata; code`));
    assert.ok(out.includes(`--- server:app-a/${key}/main.ts\n`), out);
    assert.ok(out.includes(`+++ app-a/${key}/main.ts\n`), out);
    assert.ok(out.includes(`-  return "before";\n`) && out.includes(`+  return "after";\n`), out);
    assert.ok(out.includes(`--- server:app-a/${key}/action.yaml\n`), out);
    assert.ok(out.includes('-description: before\n') && out.includes('+description: after\n'), out);
    // Not a terminal: no colour.
    assert.ok(!out.includes(ESC), out);
    // Nothing was written: the server still has the old code, so the diff is there again.
    assert.ok((await runCli(['deploy', '--dry-run', key], { cwd: dir, env: fixture.env })).stdout.includes('-  return "before";'));

    const json = await runCli(['deploy', '--dry-run', '--json=key,result,diff', key], { cwd: dir, env: fixture.env });
    const document = JSON.parse(json.stdout) as { actions: { key: string; result: string; diff: { metadata: string; implementation: string } }[] };
    const [action] = document.actions;
    assert.equal(action!.result, 'updated');
    assert.match(action!.diff.implementation, /^--- server:.*\n\+\+\+ .*\n@@ -1,3 \+1,3 @@\n/);
    assert.match(action!.diff.metadata, /\+description: after\n/);

    const quiet = await runCli(['deploy', '--dry-run', '--no-diff', key], { cwd: dir, env: fixture.env });
    assert.ok(!quiet.stdout.includes('@@'), quiet.stdout);
  });

  it('a would-create shows its files whole, from /dev/null; an unchanged action shows none', async () => {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const key = `diff-new-${Date.now()}`;
    writeAction(dir, 'app-a', actionMetadata({ key }), textMain('new'));
    const result = await runCli(['deploy', '--dry-run', key], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 0, result.output);
    assert.ok(result.stdout.includes(`--- /dev/null\n    +++ app-a/${key}/main.ts\n    @@ -0,0 +1,3 @@\n`), result.stdout);
    assert.ok(result.stdout.includes(`+key: ${key}\n`), result.stdout);
    assert.equal((await runCli(['deploy', key], { cwd: dir, env: fixture.env })).code, 0);
    const again = await runCli(['deploy', '--dry-run', key], { cwd: dir, env: fixture.env });
    assert.match(again.stdout, /^unchanged/);
    assert.ok(!again.stdout.includes('@@'), again.stdout);
  });

  it("status shows the diff under an action that differs, coloured only when asked, and escapes the server's text", async () => {
    const key = `diff-status-${Date.now()}`;
    const { dir, id } = await changedHere(key);
    // A colleague's code on the server holds a terminal sequence: the diff shows it, escaped, never obeyed.
    writeFileSync(path.join(dir, 'app-a', key, 'main.ts'), textMain('before'));
    await putCode(fixture.sandbox, fixture.env.CUSTOM_ACTIONS_KEY!, id, `// ${ESC}]0;pwned${ESC}\\\n${textMain('theirs')}`, 'colleague');
    const result = await runCli(['status', key], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 1, result.output);
    assert.match(result.stdout, /metadata changed here; code changed on the server since the base/);
    assert.ok(result.stdout.includes(`--- server:app-a/${key}/main.ts`), result.stdout);
    assert.ok(result.stdout.includes('+  return "before";') && result.stdout.includes('-  return "theirs";'), result.stdout);
    assert.ok(!result.output.includes(ESC), 'no raw ESC from the server reaches the terminal');
    assert.ok(result.stdout.includes('\\u001B]0;pwned'), result.stdout);

    const colored = await runCli(['status', key], { cwd: dir, env: { ...fixture.env, FORCE_COLOR: '1' } });
    assert.ok(colored.stdout.includes(`${ESC}[32m+  return "before";`), colored.stdout);
    assert.ok(colored.stdout.includes(`${ESC}[31m-  return "theirs";`), colored.stdout);
    // The server's ESC is still escaped inside a coloured line.
    assert.ok(colored.stdout.includes('\\u001B]0;pwned'), colored.stdout);

    const json = await runCli(['status', '--json=key,implementation,diff', key], { cwd: dir, env: fixture.env });
    const [action] = (JSON.parse(json.stdout) as { actions: { implementation: string; diff: { implementation: string; metadata: string } }[] }).actions;
    assert.equal(action!.implementation, 'changed-on-server');
    assert.match(action!.diff.implementation, /\n\+ {2}return "before";\n/);
    assert.match(action!.diff.metadata, /\+description: after\n/);
  });

  it('status of an invalid local action.yaml names the local file at file:line and blames no server', async () => {
    const key = `diff-invalid-${Date.now()}`;
    const { dir } = await changedHere(key);
    writeFileSync(path.join(dir, 'app-a', key, 'action.yaml'), `key: ${key}\nname: 12\nparameters: nope\n`);
    const result = await runCli(['status', key], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 1, result.output);
    assert.match(result.stdout, new RegExp(`the local action\\.yaml is invalid \\(app-a/${key}/action\\.yaml:\\d+\\): not compared`));
    assert.match(result.stdout, new RegExp(`  app-a/${key}/action\\.yaml:\\d+:\\d+: `));
    assert.doesNotMatch(result.output, /server offers no read|cannot be compared|refused|unreachable/);
  });

  it('status --only-local leaves out the actions of other repositories on a shared application, and is in step', async () => {
    // The suite's application holds the other tests' actions: from this project they are only on the server.
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const key = `diff-mine-${Date.now()}`;
    writeAction(dir, 'app-a', actionMetadata({ key }), textMain('mine'));
    assert.equal((await runCli(['deploy', key], { cwd: dir, env: fixture.env })).code, 0);
    const all = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.equal(all.code, 1, all.output);
    assert.match(all.stdout, /only on the server/);
    const mine = await runCli(['status', '--only-local'], { cwd: dir, env: fixture.env });
    assert.equal(mine.code, 0, mine.output);
    assert.doesNotMatch(mine.stdout, /only on the server/);
    assert.match(mine.stdout, new RegExp(`in-step +app-a/${key}`));
    assert.match(mine.stderr, /only on the server, never deployed or pulled from here, left out \(--only-local\)/);
    const json = JSON.parse((await runCli(['status', '--only-local', '--json'], { cwd: dir, env: fixture.env })).stdout) as {
      ok: boolean;
      leftOut: number;
      actions: unknown[];
    };
    assert.equal(json.ok, true);
    assert.equal(json.actions.length, 1);
    assert.ok(json.leftOut > 0);
  });
});
