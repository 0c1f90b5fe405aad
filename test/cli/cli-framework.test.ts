// The framework of `custom-actions`, run as the built process: help, usage errors, keys, project errors.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { keyOf, runCli, Scratch, textMain, writeAction, writeProject, suiteSandbox } from './support';

/** The start of a terminal colour sequence. */
const ESC = '\u001b[';

describe('custom-actions: the framework', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('prints its help, with the commands, the exit codes and where keys come from, and exits 0', async () => {
    const result = await runCli(['--help'], { cwd: scratch.dir() });
    assert.equal(result.code, 0, result.output);
    assert.match(result.stdout, /Usage: custom-actions/);
    assert.match(result.stdout, /status/);
    assert.match(result.stdout, /Exit codes:/);
    assert.match(result.stdout, /CUSTOM_ACTIONS_KEY/);
  });

  it('has --help on every command', async () => {
    const list = await runCli(['--help'], { cwd: scratch.dir() });
    const names = [...list.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?: |$)/gm)].map((m) => m[1]!).filter((n) => n !== 'help');
    assert.ok(names.length > 0);
    for (const name of names) {
      const result = await runCli([name, '--help'], { cwd: scratch.dir() });
      assert.equal(result.code, 0, `${name} --help: ${result.output}`);
      assert.match(result.stdout, new RegExp(`Usage: custom-actions ${name}`));
    }
  });

  it('exits 2 on an unknown command or option, saying so on stderr', async () => {
    const unknownCommand = await runCli(['frobnicate'], { cwd: scratch.dir() });
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /unknown command/);
    const unknownOption = await runCli(['status', '--frobnicate'], { cwd: scratch.dir() });
    assert.equal(unknownOption.code, 2);
    assert.equal(unknownOption.stdout, '');
  });

  it('refuses a key given as an argument, without echoing it', async () => {
    const result = await runCli(['status', '--key=sk-very-secret-value'], { cwd: scratch.dir() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /never taken from an argument/);
    assert.doesNotMatch(result.output, /sk-very-secret-value/);
  });

  it('names the line of an invalid customactions.yaml and exits 2', async () => {
    const dir = scratch.dir();
    writeFileSync(path.join(dir, 'customactions.yaml'), 'baseUrl: ftp://nowhere\napplications:\n  - id: a\n    folder: ../outside\n');
    const result = await runCli(['status'], { cwd: dir });
    assert.equal(result.code, 2, result.output);
    assert.match(result.stderr, /customactions\.yaml:1:\d+: baseUrl: must be an http\(s\) URL/);
    assert.match(result.stderr, /customactions\.yaml:4:\d+: applications\[0\]\.folder: must be a relative path/);
  });

  it('names the line of customactions.yaml that is not YAML', async () => {
    const dir = scratch.dir();
    writeFileSync(path.join(dir, 'customactions.yaml'), 'baseUrl: http://x\napplications: [\n');
    const result = await runCli(['status', '--json'], { cwd: dir });
    assert.equal(result.code, 2, result.output);
    assert.match(result.stderr, /customactions\.yaml:\d+:\d+: /);
    const json = JSON.parse(result.stdout) as { ok: boolean; error: { exitCode: number } };
    assert.deepEqual([json.ok, json.error.exitCode], [false, 2]);
  });

  it('finds customactions.yaml in a folder above, and says where it looked when there is none', async () => {
    const none = await runCli(['status'], { cwd: scratch.dir() });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No customactions\.yaml in .* or any folder above it/);
  });

  it('without a key exits 3 and names the variables to set, having sent nothing', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const result = await runCli(['status'], { cwd: dir });
    assert.equal(result.code, 3, result.output);
    assert.match(result.stderr, /No key for application APP-A/);
    assert.match(result.stderr, /CUSTOM_ACTIONS_KEY_APP_A/);
  });

  it('with a wrong key exits 3, and the key is in no output, --json included', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const wrong = 'wrong-key-0123456789abcdef';
    for (const args of [['status'], ['status', '--json']]) {
      const result = await runCli(args, { cwd: dir, env: { CUSTOM_ACTIONS_KEY: wrong } });
      assert.equal(result.code, 3, result.output);
      assert.match(result.stderr, /HTTP 401/);
      assert.ok(!result.output.includes(wrong), 'the key was printed');
    }
  });

  it('reads keys per application from the environment and from --key-file', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url, ['app-a', 'app-b']);
    writeAction(dir, 'app-a', actionMetadata({ key: 'here' }), textMain('x'));
    const env = { CUSTOM_ACTIONS_KEY_APP_A: keyOf(fixture.sandbox, 'app-a'), CUSTOM_ACTIONS_KEY_APP_B: keyOf(fixture.sandbox, 'app-b') };
    const fromEnv = await runCli(['status', '--json'], { cwd: dir, env });
    assert.equal(fromEnv.code, 1, fromEnv.output);
    const file = path.join(scratch.dir(), 'keys.env');
    writeFileSync(
      file,
      `# keys of the sandbox\nCUSTOM_ACTIONS_KEY_APP_A=${env.CUSTOM_ACTIONS_KEY_APP_A}\nCUSTOM_ACTIONS_KEY_APP_B="${env.CUSTOM_ACTIONS_KEY_APP_B}"\n`,
    );
    const fromFile = await runCli(['status', '--json', '--key-file', file], { cwd: dir });
    assert.equal(fromFile.code, 1, fromFile.output);
    assert.deepEqual(JSON.parse(fromFile.stdout), JSON.parse(fromEnv.stdout));
    assert.ok(!fromFile.output.includes(env.CUSTOM_ACTIONS_KEY_APP_A));
  });

  it('writes no colour when not on a terminal, and colour with FORCE_COLOR unless NO_COLOR', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    writeAction(dir, 'app-a', actionMetadata({ key: 'here' }), textMain('x'));
    const env = { CUSTOM_ACTIONS_KEY: keyOf(fixture.sandbox, 'app-a') };
    const plain = await runCli(['status'], { cwd: dir, env });
    assert.ok(!plain.output.includes(ESC), 'colour without a terminal');
    const forced = await runCli(['status'], { cwd: dir, env: { ...env, FORCE_COLOR: '1' } });
    assert.ok(forced.stdout.includes(ESC), 'no colour with FORCE_COLOR');
    const both = await runCli(['status'], { cwd: dir, env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    assert.ok(!both.output.includes(ESC), 'colour with NO_COLOR');
  });
});

describe('custom-actions check', function () {
  const scratch = new Scratch();
  after(() => scratch.cleanup());

  it('checks offline, with no key and no server: exit 0 when every action passes, 6 with file:line when not', async () => {
    const dir = scratch.dir();
    writeProject(dir, 'http://127.0.0.1:9');
    writeAction(dir, 'app-a', actionMetadata({ key: 'fine' }), textMain('x'));
    assert.equal((await runCli(['check', 'fine'], { cwd: dir })).code, 0);
    writeAction(dir, 'app-a', actionMetadata({ key: 'wrong' }), 'export function main(): number {\n  return 1;\n}\n');
    const result = await runCli(['check'], { cwd: dir });
    assert.equal(result.code, 6, result.output);
    assert.match(result.stdout, /^ok\s+app-a\/fine$/m);
    assert.match(result.stdout, /^ {2}app-a\/wrong\/main\.ts:1:\d+: /m);
    // A folder without main.ts passes, and its line says only its metadata was checked.
    writeAction(dir, 'app-a', actionMetadata({ key: 'bare' }));
    const bare = await runCli(['check', 'bare'], { cwd: dir });
    assert.equal(bare.code, 0, bare.output);
    assert.match(bare.stdout, /^ok\s+app-a\/bare {2}metadata only: no main\.ts here$/m);
  });
});
