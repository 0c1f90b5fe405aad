// Which server a command talks to, who named it, and which application's key it refused.
import assert from 'node:assert/strict';
import { actionMetadata } from '../support/metadata';
import { keyOf, runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

describe('custom-actions: the server named, keys per application', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('names the server and where it came from on stderr and in --json; --quiet drops the line', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const plain = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.equal(plain.code, 0, plain.output);
    assert.match(plain.stderr, new RegExp(`^Server: ${fixture.sandbox.url}/ \\(customactions\\.yaml\\)$`, 'm'));
    assert.ok(!plain.stdout.includes('Server:'), 'the server line is a message, not data');

    const json = await runCli(['status', '--json'], { cwd: dir, env: fixture.env });
    const document = JSON.parse(json.stdout) as { ok: boolean; server: { url: string; identity: string; source: string } };
    assert.equal(document.ok, true);
    assert.deepEqual(document.server, {
      url: `${fixture.sandbox.url}/`,
      identity: `http://localhost:${new URL(fixture.sandbox.url).port}/`,
      source: 'customactions.yaml',
    });

    const flag = await runCli(['--base-url', fixture.sandbox.url, 'status', '--json'], { cwd: dir, env: fixture.env });
    assert.equal((JSON.parse(flag.stdout) as { server: { source: string } }).server.source, '--base-url');

    const quiet = await runCli(['status', '-q'], { cwd: dir, env: fixture.env });
    assert.equal(quiet.code, 0, quiet.output);
    assert.ok(!quiet.stderr.includes('Server:'), quiet.stderr);
  });

  it('says, every time and as a warning, that CUSTOM_ACTIONS_BASE_URL overrides the project’s server', async () => {
    const dir = scratch.dir();
    // The project names a server nobody runs; the variable another: the command goes where the variable says, and says so.
    writeProject(dir, 'https://platform.example.invalid');
    writeAction(dir, 'app-a', actionMetadata({ key: 'overridden' }), textMain('x'));
    const env = { ...fixture.env, CUSTOM_ACTIONS_BASE_URL: fixture.sandbox.url };
    const deployed = await runCli(['deploy', '--json', '-q'], { cwd: dir, env });
    assert.equal(deployed.code, 0, deployed.output);
    assert.match(
      deployed.stderr,
      /warning: CUSTOM_ACTIONS_BASE_URL names http:\/\/127\.0\.0\.1:\d+\/, over customactions\.yaml's https:\/\/platform\.example\.invalid\//,
    );
    const server = (JSON.parse(deployed.stdout) as { server: { source: string; overrides: string } }).server;
    assert.equal(server.source, 'CUSTOM_ACTIONS_BASE_URL');
    assert.equal(server.overrides, 'https://platform.example.invalid/');
  });

  it('a wrong key for one of two applications names it and its variable; the other is deployed; exit 3', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url, ['app-a', 'app-b']);
    writeAction(dir, 'app-a', actionMetadata({ key: 'keyed-a' }), textMain('a'));
    writeAction(dir, 'app-b', actionMetadata({ key: 'keyed-b' }), textMain('b'));
    const env = { CUSTOM_ACTIONS_KEY_APP_A: keyOf(fixture.sandbox, 'app-a'), CUSTOM_ACTIONS_KEY_APP_B: 'wrong-key-9c41d2' };
    const deployed = await runCli(['deploy'], { cwd: dir, env });
    assert.equal(deployed.code, 3, deployed.output);
    assert.match(deployed.stdout, /^created\s+app-a\/keyed-a/m);
    assert.match(deployed.stderr, /The server refused the key of application APP-B \(CUSTOM_ACTIONS_KEY_APP_B from the environment\)/);
    assert.match(deployed.stderr, /Check CUSTOM_ACTIONS_KEY_APP_B/);
    assert.ok(!deployed.output.includes('wrong-key-9c41d2'));

    const who = await runCli(['whoami'], { cwd: dir, env });
    assert.equal(who.code, 3, who.output);
    assert.match(who.stdout, /^ {2}app-a \(APP-A\): key CUSTOM_ACTIONS_KEY_APP_A from the environment: accepted \(\d+ actions?\)$/m);
    assert.match(who.stdout, /^ {2}app-b \(APP-B\): key CUSTOM_ACTIONS_KEY_APP_B from the environment: refused: /m);
    assert.ok(!who.output.includes('wrong-key-9c41d2'));

    const picked = await runCli(['whoami', '--json=id,state,keyVariable'], { cwd: dir, env });
    assert.deepEqual((JSON.parse(picked.stdout) as { applications: unknown[] }).applications, [
      { id: 'app-a', state: 'accepted', keyVariable: 'CUSTOM_ACTIONS_KEY_APP_A' },
      { id: 'app-b', state: 'refused', keyVariable: 'CUSTOM_ACTIONS_KEY_APP_B' },
    ]);
    const good = await runCli(['whoami', '-a', 'app-a'], { cwd: dir, env });
    assert.equal(good.code, 0, good.output);
    const keyless = await runCli(['whoami'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY_APP_A: env.CUSTOM_ACTIONS_KEY_APP_A } });
    assert.equal(keyless.code, 3, keyless.output);
    // Said once, with what to set: the variables this application's key is read from.
    assert.match(keyless.stdout, /^ {2}app-b \(APP-B\): no key: Set CUSTOM_ACTIONS_KEY_APP_B \(this application's key\) or CUSTOM_ACTIONS_KEY /m);
  });

  it('takes -a before the command name, and --json=fields checked before anything is done', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url, ['app-a', 'app-b']);
    const env = { CUSTOM_ACTIONS_KEY_APP_A: keyOf(fixture.sandbox, 'app-a') };
    const before = await runCli(['-a', 'app-a', 'status', '--json=key,inStep'], { cwd: dir, env });
    assert.equal(before.code, 1, before.output);
    const actions = (JSON.parse(before.stdout) as { actions: Record<string, unknown>[] }).actions;
    assert.ok(actions.length > 0);
    for (const action of actions) assert.deepEqual(Object.keys(action), ['key', 'inStep']);
    const unknown = await runCli(['deploy', '--json=key,colour'], { cwd: dir, env });
    assert.equal(unknown.code, 2, unknown.output);
    assert.match(unknown.stderr, /Unknown field for deploy --json: colour/);
    assert.match(unknown.stderr, /Available fields: application, key/);
  });
});
