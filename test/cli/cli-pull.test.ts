// `custom-actions pull`: the server's actions into their folders, never outside the project and never
// over local changes without --force.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateTypes } from '../../src/core/typegen';
import { type Sandbox } from '../../src/sandbox';
import { actionMetadata } from '../support/metadata';
import { cliSandbox, keyOf, putCode, runCli, Scratch, textMain, writeAction, writeProject } from './support';

describe('custom-actions pull', function () {
  const scratch = new Scratch();
  let sandbox: Sandbox;
  let env: Record<string, string>;
  /** A checkout that deployed `keys`, whose lock names their ids. */
  let source: string;
  const keys = ['pl-a', 'pl-b'];
  before(async () => {
    sandbox = await cliSandbox();
    env = { CUSTOM_ACTIONS_KEY: keyOf(sandbox, 'app-a') };
    source = scratch.dir();
    writeProject(source, sandbox.url);
    for (const key of keys) writeAction(source, 'app-a', actionMetadata({ key, description: `# ${key}` }), textMain(key));
    assert.equal((await runCli(['deploy'], { cwd: source, env })).code, 0);
  });
  after(async () => {
    await sandbox.close();
    scratch.cleanup();
  });
  const file = (dir: string, key: string, name: string) => path.join(dir, 'app-a', key, name);
  const lockId = (dir: string, key: string) =>
    Object.values(
      (
        JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
          servers: Record<string, Record<string, Record<string, { id: string }>>>;
        }
      ).servers,
    )[0]!['app-a']![key]!.id;
  /** The top of a pull's --json document, and each action's result. */
  const pullJson = (stdout: string) => {
    const json = JSON.parse(stdout) as { ok: boolean; written: boolean; lockWritten: boolean; actions: { result: string }[] };
    return { ok: json.ok, written: json.written, lockWritten: json.lockWritten, results: json.actions.map((a) => a.result) };
  };

  it('writes action.yaml, main.ts and the generated types of each action, records the base, and status is in step', async () => {
    const dir = scratch.dir();
    writeProject(dir, sandbox.url);
    const result = await runCli(['pull', '--json', ...keys], { cwd: dir, env });
    assert.equal(result.code, 0, result.output);
    assert.deepEqual(pullJson(result.stdout), { ok: true, written: true, lockWritten: true, results: ['pulled', 'pulled'] });
    for (const key of keys) {
      assert.equal(readFileSync(file(dir, key, 'main.ts'), 'utf8'), textMain(key));
      assert.equal(readFileSync(file(dir, key, 'action.generated.ts'), 'utf8'), generateTypes(actionMetadata({ key, description: `# ${key}` })));
      assert.match(readFileSync(file(dir, key, 'action.yaml'), 'utf8'), new RegExp(`key: ${key}`));
    }
    assert.equal((await runCli(['status', ...keys], { cwd: dir, env })).code, 0);
    // Nothing new: the pull went through (ok) and wrote nothing, neither a file nor the lock.
    const again = await runCli(['pull', '--json', ...keys], { cwd: dir, env });
    assert.equal(again.code, 0, again.output);
    assert.match(again.stderr, /0 pulled, 2 unchanged/);
    assert.deepEqual(pullJson(again.stdout), { ok: true, written: false, lockWritten: false, results: ['unchanged', 'unchanged'] });
  });

  it('refuses to replace a local change without --force, writing nothing anywhere, and replaces it with --force', async () => {
    const dir = scratch.dir();
    writeProject(dir, sandbox.url);
    assert.equal((await runCli(['pull', ...keys], { cwd: dir, env })).code, 0);
    const lockPath = path.join(source, 'customactions.lock.json');
    const ids = JSON.parse(readFileSync(lockPath, 'utf8')) as { servers: Record<string, Record<string, Record<string, { id: string }>>> };
    const idOf = (key: string) => Object.values(ids.servers)[0]!['app-a']![key]!.id;
    await putCode(sandbox, env.CUSTOM_ACTIONS_KEY!, idOf('pl-a'), textMain('new on the server'), 'colleague');
    await putCode(sandbox, env.CUSTOM_ACTIONS_KEY!, idOf('pl-b'), textMain('b new on the server'), 'colleague');
    writeFileSync(file(dir, 'pl-b', 'main.ts'), textMain('my work'));
    const before = readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8');
    const refused = await runCli(['pull'].concat(keys), { cwd: dir, env });
    assert.equal(refused.code, 4, refused.output);
    assert.match(refused.stdout, /^refused\s+app-a\/pl-b {2}main\.ts changed here since the base; --force replaces it$/m);
    assert.match(refused.stderr, /Nothing was written: 1 of 2 actions cannot be pulled as it is\./);
    const refusedJson = await runCli(['pull', '--json', ...keys], { cwd: dir, env });
    assert.equal(refusedJson.code, 4, refusedJson.output);
    assert.deepEqual(pullJson(refusedJson.stdout), { ok: false, written: false, lockWritten: false, results: ['not-written', 'refused'] });
    assert.equal(readFileSync(file(dir, 'pl-a', 'main.ts'), 'utf8'), textMain('pl-a'), 'pl-a was written though the pull was refused');
    assert.equal(readFileSync(file(dir, 'pl-b', 'main.ts'), 'utf8'), textMain('my work'));
    assert.equal(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8'), before);

    const forced = await runCli(['pull', '--force', ...keys], { cwd: dir, env });
    assert.equal(forced.code, 0, forced.output);
    assert.equal(readFileSync(file(dir, 'pl-a', 'main.ts'), 'utf8'), textMain('new on the server'));
    assert.equal(readFileSync(file(dir, 'pl-b', 'main.ts'), 'utf8'), textMain('b new on the server'));
  });

  it('pulls a key two folders declare into neither, naming both, and writes nothing (the rule of a deploy and a save)', async () => {
    const dir = scratch.dir();
    writeProject(dir, sandbox.url);
    assert.equal((await runCli(['pull', ...keys], { cwd: dir, env })).code, 0);
    cpSync(path.join(dir, 'app-a', 'pl-a'), path.join(dir, 'app-a', 'pl-a-copy'), { recursive: true });
    const pulled = readFileSync(file(dir, 'pl-a', 'main.ts'), 'utf8');
    writeFileSync(file(dir, 'pl-a-copy', 'main.ts'), textMain('the copy'));
    await putCode(sandbox, env.CUSTOM_ACTIONS_KEY!, lockId(dir, 'pl-a'), textMain('newer on the server'), 'colleague');
    const refused = await runCli(['pull', 'pl-a'], { cwd: dir, env });
    assert.equal(refused.code, 6, refused.output);
    assert.match(
      refused.stdout,
      /^refused\s+app-a\/pl-a {2}the key "pl-a" is declared in 2 folders here \(app-a\/pl-a-copy\/action\.yaml, app-a\/pl-a\/action\.yaml\)/m,
    );
    assert.equal(readFileSync(file(dir, 'pl-a', 'main.ts'), 'utf8'), pulled);
    assert.equal(readFileSync(file(dir, 'pl-a-copy', 'main.ts'), 'utf8'), textMain('the copy'));
  });

  it('pulls an action whose key was changed in its folder into that folder, which the lock names, never into a second one', async () => {
    const dir = scratch.dir();
    writeProject(dir, sandbox.url);
    // A folder not named by its key, deployed from here: the lock names the folder.
    const folder = path.join(dir, 'app-a', 'welcome-folder');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'action.yaml'),
      `key: pl-welcome\nname: Welcome\ndescription: d\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n`,
    );
    writeFileSync(path.join(folder, 'main.ts'), textMain('welcome'));
    assert.equal((await runCli(['deploy', 'pl-welcome'], { cwd: dir, env })).code, 0);
    writeFileSync(path.join(folder, 'action.yaml'), readFileSync(path.join(folder, 'action.yaml'), 'utf8').replace('key: pl-welcome', 'key: pl-salute'));
    const refused = await runCli(['pull', 'pl-welcome'], { cwd: dir, env });
    assert.equal(refused.code, 4, refused.output);
    assert.match(refused.stdout, /^refused\s+app-a\/pl-welcome {2}action\.yaml changed here since the base; --force replaces it$/m);
    const forced = await runCli(['pull', '--force', 'pl-welcome'], { cwd: dir, env });
    assert.equal(forced.code, 0, forced.output);
    assert.match(readFileSync(path.join(folder, 'action.yaml'), 'utf8'), /^key: pl-welcome$/m, "the server's key, back in the folder it was deployed from");
    assert.equal(existsSync(path.join(dir, 'app-a', 'pl-welcome')), false, 'no second folder of the same action');
  });

  it('never writes through a symbolic link that leaves the project', async () => {
    const dir = scratch.dir();
    const outside = scratch.dir();
    writeProject(dir, sandbox.url);
    symlinkSync(outside, path.join(dir, 'app-a'));
    const viaFolder = await runCli(['pull', 'pl-a'], { cwd: dir, env });
    assert.equal(viaFolder.code, 7, viaFolder.output);
    assert.match(viaFolder.stdout, /app-a is a link to a place outside the project/);
    assert.ok(!existsSync(path.join(outside, 'pl-a')), 'written outside the project');

    const other = scratch.dir();
    writeProject(other, sandbox.url);
    mkdirSync(path.join(other, 'app-a', 'pl-a'), { recursive: true });
    symlinkSync(path.join(outside, 'stolen.ts'), path.join(other, 'app-a', 'pl-a', 'main.ts'));
    const viaFile = await runCli(['pull', 'pl-a'], { cwd: other, env });
    assert.equal(viaFile.code, 7, viaFile.output);
    assert.match(viaFile.stdout, /main\.ts is a symbolic link/);
    assert.ok(!existsSync(path.join(outside, 'stolen.ts')));
  });

  it('without a key exits 3, with a wrong key exits 3, and an invalid customactions.yaml exits 2 with its line', async () => {
    const dir = scratch.dir();
    writeProject(dir, sandbox.url);
    assert.equal((await runCli(['pull'], { cwd: dir })).code, 3);
    const wrong = await runCli(['pull'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: 'wrong-key-99aa' } });
    assert.equal(wrong.code, 3);
    assert.ok(!wrong.output.includes('wrong-key-99aa'));
    writeFileSync(
      path.join(dir, 'customactions.yaml'),
      `baseUrl: ${sandbox.url}\napplications:\n  - id: app-a\n    folder: app-a\n  - id: app-a\n    folder: b\n`,
    );
    const invalid = await runCli(['pull'], { cwd: dir, env });
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /customactions\.yaml:5:\d+: applications\[1\]\.id: duplicate application id "app-a"/);
  });
});
