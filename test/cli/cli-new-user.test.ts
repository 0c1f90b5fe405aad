// The mistakes a new user makes on the way from the package to a pipeline, run as the built process:
// each gets a message saying what to do next in the command line's own words, and a documented exit code.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { createClient } from '../../src/core/client';
import { actionMetadata } from '../support/metadata';
import { CLI, runCli, textMain, writeAction, writeProject, suiteSandbox } from './support';

describe('custom-actions: a new user’s mistakes', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('a typo in an option under --json still gives a pipeline its JSON document on stdout, with exit 2', async () => {
    const result = await runCli(['status', '--json', '--dryrun'], { cwd: scratch.dir() });
    assert.equal(result.code, 2, result.output);
    assert.match(result.stderr, /unknown option '--dryrun'/);
    assert.deepEqual(JSON.parse(result.stdout), { ok: false, error: { exitCode: 2, message: "unknown option '--dryrun'" } });
  });

  it('a project of the local sandbox is told how to start one from the command line', async () => {
    const dir = scratch.dir();
    writeFileSync(path.join(dir, 'customactions.yaml'), stringify({ baseUrl: 'local-sandbox', applications: [{ id: 'app-a', folder: 'app-a' }] }));
    const result = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 2, result.output);
    assert.match(result.stderr, /custom-actions sandbox start/);
    assert.doesNotMatch(result.stderr, /npm run/);
  });

  it('a project with no action anywhere is told so by status and events, in step and with exit 0', async () => {
    const dir = scratch.dir();
    const empty = await fixture.sandbox.createApplication('empty-app', 'Empty');
    writeProject(dir, fixture.sandbox.url, ['empty-app']);
    const env = { CUSTOM_ACTIONS_KEY_EMPTY_APP: empty.key };
    const status = await runCli(['status'], { cwd: dir, env });
    assert.equal(status.code, 0, status.output);
    assert.equal(status.stderr, `Server: ${fixture.sandbox.url}/ (customactions.yaml)\nNo actions, here or on the server.\n`);
    const events = await runCli(['events'], { cwd: dir, env });
    assert.equal(events.code, 0, events.output);
    assert.equal(events.stderr, `Server: ${fixture.sandbox.url}/ (customactions.yaml)\nNo actions with events on the server.\n`);
  });

  it('a reader that stops at once (| head) ends no command early: --help exits 0, a deploy finishes and records its lock', async () => {
    /** The command with its stdout's reader gone before it writes, as `custom-actions … | head -0` does. */
    const readerGone = (args: readonly string[], cwd: string, env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.destroy();
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const help = await readerGone(['--help'], scratch.dir());
    assert.equal(help.code, 0, help.stderr);
    assert.doesNotMatch(help.stderr, /EPIPE|at /);
    // An application of its own: the other tests of this suite expect app-a's list empty.
    const app = await fixture.sandbox.createApplication('piped-app', 'Piped');
    const env = { CUSTOM_ACTIONS_KEY: app.key };
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url, ['piped-app']);
    for (const key of ['piped-a', 'piped-b', 'piped-c']) writeAction(dir, 'piped-app', actionMetadata({ key }), textMain(key));
    const deployed = await readerGone(['deploy'], dir, env);
    assert.equal(deployed.code, 0, deployed.stderr);
    assert.doesNotMatch(deployed.stderr, /EPIPE/);
    const lock = JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
      servers: Record<string, Record<string, Record<string, unknown>>>;
    };
    assert.deepEqual(Object.keys(Object.values(lock.servers)[0]!['piped-app']!).sort(), ['piped-a', 'piped-b', 'piped-c']);
    const status = await runCli(['status'], { cwd: dir, env });
    assert.equal(status.code, 0, status.output);
  });

  it('a base URL ending in /api is named as the likely cause of a 404', async () => {
    const dir = scratch.dir();
    writeProject(dir, `${fixture.sandbox.url}/api`);
    const result = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 7, result.output);
    assert.match(result.stderr, /no \/api at its end/);
  });

  it('plain http to another machine is warned about before the key is sent; this machine is not', async () => {
    const dir = scratch.dir();
    // TEST-NET-1 (RFC 5737): routed nowhere, so the request only times out.
    writeProject(dir, 'http://192.0.2.1:9');
    const remote = await runCli(['status', '--timeout', '1'], { cwd: dir, env: fixture.env });
    assert.equal(remote.code, 5, remote.output);
    assert.match(remote.stderr, /^warning: http:\/\/192\.0\.2\.1:9 is plain http: the key and the code cross the network unencrypted/m);
    const local = scratch.dir();
    writeProject(local, fixture.sandbox.url);
    const here = await runCli(['status'], { cwd: local, env: fixture.env });
    assert.equal(here.code, 0, here.output);
    assert.doesNotMatch(here.stderr, /warning/);
  });

  it('running an action that has no code on the server says to deploy it, with exit 7 (not the conflict code)', async () => {
    const dir = scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const metadata = actionMetadata({ key: 'nocode' });
    writeAction(dir, 'app-a', metadata);
    await createClient({ baseUrl: fixture.sandbox.url, getKey: () => Promise.resolve(fixture.env.CUSTOM_ACTIONS_KEY!) }).createAction('app-a', metadata);
    const result = await runCli(['run', 'nocode', '--json'], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 7, result.output);
    assert.match(result.stderr, /no code on the server yet\n {2}Write its main\.ts and deploy it \(custom-actions deploy <action>\)/);
    assert.doesNotMatch(result.stderr, /Push Implementation/);
    assert.equal((JSON.parse(result.stdout) as { error: { exitCode: number } }).error.exitCode, 7);
  });

  it('the help lists exit code 130 and the sandbox’s one subcommand', async () => {
    const help = await runCli(['--help'], { cwd: scratch.dir() });
    assert.match(help.stdout, /130 {2}interrupted/);
    assert.match(help.stdout, /sandbox \[options\] <subcommand>/);
    const wrong = await runCli(['sandbox', 'stop'], { cwd: scratch.dir() });
    assert.equal(wrong.code, 2, wrong.output);
    assert.match(wrong.stderr, /Allowed choices are start/);
  });
});
