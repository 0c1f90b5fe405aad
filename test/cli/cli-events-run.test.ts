// `custom-actions run` and `custom-actions events`, run as the built process against the sandbox.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { type ActionMetadata } from '../../src/core/schema';
import { type Sandbox } from '../../src/sandbox';
import { actionMetadata, N_AND_MODE } from '../support/metadata';
import { eventually } from '../support/eventually';
import { CLI, cliSandbox, keyOf, runCli, Scratch, writeAction, writeProject } from './support';
import { putOnServer, RunningCli, TERMINAL_CONTROLS, writeInputSet } from './server';

const FLIP: ActionMetadata = actionMetadata({ key: 'flip', parameters: N_AND_MODE, result: { type: 'number' } });
const FLIP_MAIN = `export async function main(n: number, mode: 'ok' | 'fail'): Promise<number> {
  console.log('flip ' + n + ' ' + mode);
  if (mode === 'fail') throw new Error('asked to fail at ' + n);
  return n * 2;
}
`;

/** A server's text that would drive a terminal: a title change, a screen clear, a carriage return, a C1 CSI, a bidi override. */
const HOSTILE: ActionMetadata = actionMetadata({ key: 'hostile', result: { type: 'text' } });
const HOSTILE_MAIN = `export async function main(): Promise<string> {
  console.log('\\u001b]0;pwned\\u0007\\u001b[2Jcleared\\rover\\u009b31m\\u202etxt');
  throw new Error('boom \\u001b[31mred\\u001b[0m\\u0008');
}
`;

describe('custom-actions run and events', function () {
  const scratch = new Scratch();
  let sandbox: Sandbox;
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    sandbox = await cliSandbox();
    dir = scratch.dir();
    writeProject(dir, sandbox.url);
    writeInputSet(writeAction(dir, 'app-a', FLIP, FLIP_MAIN), 'seven', { inputs: { n: 7, mode: 'ok' }, expect: { result: 14 } });
    writeAction(dir, 'app-a', HOSTILE, HOSTILE_MAIN);
    await putOnServer(sandbox, 'app-a', FLIP, FLIP_MAIN);
    await putOnServer(sandbox, 'app-a', HOSTILE, HOSTILE_MAIN);
    env = { CUSTOM_ACTIONS_KEY: keyOf(sandbox, 'app-a') };
  });
  after(async () => {
    await sandbox.close();
    scratch.cleanup();
  });

  it('run prints the result and logs of a run on Test and exits 0; --json gives the whole event', async () => {
    const text = await runCli(['run', 'flip', '--inputs', '{"n": 4, "mode": "ok"}'], { cwd: dir, env });
    assert.equal(text.code, 0, text.output);
    assert.match(text.stdout, /^\[Test\] app-a\/flip success at /);
    assert.match(text.stdout, /log {3}flip 4 ok/);
    assert.match(text.stdout, /result: 8/);
    const json = await runCli(['run', 'app-a/flip', '--env', 'live', '--input-set', 'seven', '--json'], { cwd: dir, env });
    assert.equal(json.code, 0, json.output);
    const doc = JSON.parse(json.stdout) as { ok: boolean; environment: string; event: { result: number; logs: { message: string }[] } };
    assert.deepEqual([doc.ok, doc.environment, doc.event.result, doc.event.logs[0]?.message], [true, 'Live', 14, 'flip 7 ok']);
  });

  it('run exits 1 when the run failed, with its error', async () => {
    const result = await runCli(['run', 'flip', '--inputs', '{"n": 1, "mode": "fail"}'], { cwd: dir, env });
    assert.equal(result.code, 1, result.output);
    assert.match(result.stdout, /failure at .*\n(.*\n)*\s+error: Error: asked to fail at 1/);
  });

  it('run refuses bad inputs (exit 2) before sending, and an unknown action (exit 2)', async () => {
    const notJson = await runCli(['run', 'flip', '--inputs', '{n: 1}'], { cwd: dir, env });
    assert.equal(notJson.code, 2, notJson.output);
    assert.match(notJson.stderr, /--inputs is not valid JSON/);
    const misfit = await runCli(['run', 'flip', '--inputs', '{"n": "one", "mode": "ok"}'], { cwd: dir, env });
    assert.equal(misfit.code, 2, misfit.output);
    assert.match(misfit.stderr, /The inputs do not fit the parameters of flip:\n\s+n: must be a number/);
    const noSet = await runCli(['run', 'flip', '--input-set', 'missing'], { cwd: dir, env });
    assert.equal(noSet.code, 2, noSet.output);
    const unknown = await runCli(['run', 'nope', '--inputs', '{}'], { cwd: dir, env });
    assert.equal(unknown.code, 2, unknown.output);
    assert.match(unknown.stderr, /The server has no action "nope"/);
  });

  it('run and events without a key exit 3, and with a wrong key exit 3 without printing it', async () => {
    for (const args of [['run', 'flip', '--inputs', '{"n": 1, "mode": "ok"}'], ['events']]) {
      const none = await runCli(args, { cwd: dir });
      assert.equal(none.code, 3, none.output);
      const wrong = 'wrong-key-abcdef0123456789';
      const refused = await runCli([...args, '--json'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: wrong } });
      assert.equal(refused.code, 3, refused.output);
      assert.ok(!refused.output.includes(wrong), 'the key was printed');
    }
  });

  it('events lists per action and environment, filtered by status, text and time, as lines or JSON lines', async () => {
    await runCli(['run', 'flip', '--inputs', '{"n": 21, "mode": "ok"}'], { cwd: dir, env });
    await runCli(['run', 'flip', '--inputs', '{"n": 22, "mode": "fail"}'], { cwd: dir, env });
    const all = await runCli(['events', 'flip', '--env', 'Test'], { cwd: dir, env });
    assert.equal(all.code, 0, all.output);
    assert.match(all.stdout, /flip 21 ok/);
    assert.match(all.stdout, /flip 22 fail/);
    assert.doesNotMatch(all.stdout, /\[Live\]/);
    const failures = await runCli(['events', 'flip', '--status', 'failure', '--json'], { cwd: dir, env });
    const lines = failures.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; action: string; environment: string });
    // This test's failed run at least; the suite's earlier tests may have added theirs (it runs alone too).
    assert.ok(lines.length >= 1, failures.output);
    assert.ok(lines.every((l) => !l.ok && l.action === 'flip'));
    const text = await runCli(['events', 'flip', '--grep', 'FLIP 21'], { cwd: dir, env });
    assert.match(text.stdout, /flip 21 ok/);
    assert.doesNotMatch(text.stdout, /flip 22/);
    const future = await runCli(['events', '--since', new Date(Date.now() + 3_600_000).toISOString()], { cwd: dir, env });
    assert.equal(future.stdout, '');
    assert.match(future.stderr, /^0 events from 2 actions on Test and Live\./m);
    const badSince = await runCli(['events', '--since', 'yesterday'], { cwd: dir, env });
    assert.equal(badSince.code, 2);
    assert.match(badSince.stderr, /--since must be a duration/);
  });

  it('a hostile server text reaches stdout with no control character, from events and run alike', async () => {
    const run = await runCli(['run', 'hostile'], { cwd: dir, env });
    assert.equal(run.code, 1, run.output);
    const listed = await runCli(['events', 'hostile'], { cwd: dir, env: { ...env, FORCE_COLOR: '0' } });
    assert.equal(listed.code, 0, listed.output);
    for (const out of [run.stdout, listed.stdout]) {
      assert.match(out, /\\u001B\]0;pwned\\u0007\\u001B\[2Jcleared\\rover\\u009B31m\\u202Etxt/);
      assert.match(out, /error: Error: boom \\u001B\[31mred\\u001B\[0m\\u0008/);
      assert.doesNotMatch(out, TERMINAL_CONTROLS);
    }
    // JSON escapes every control character, so JSON lines are as safe.
    const json = await runCli(['events', 'hostile', '--json'], { cwd: dir, env });
    assert.doesNotMatch(json.stdout, TERMINAL_CONTROLS);
    assert.ok((JSON.parse(json.stdout.split('\n')[0]!).logs[0].message as string).includes('\u001b]0;pwned'), 'the JSON keeps the text as sent');
  });

  it('events --follow | head -1 ends when head has its line, with no new event; an error under --json is one line', async () => {
    assert.equal((await runCli(['run', 'flip', '--inputs', '{"n": 5, "mode": "ok"}'], { cwd: dir, env })).code, 0);
    // A shell's pipe, as a person types it: the follow's stdout is a pipe whose reader goes after one line.
    const started = Date.now();
    const piped = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn('sh', ['-c', `'${process.execPath}' '${CLI}' events flip --env Test --follow --json | head -1`], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.on('error', reject);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout })));
    });
    assert.equal(piped.code, 0, `the pipeline did not end by itself: ${piped.stdout}`);
    assert.ok(Date.now() - started < 25_000);
    assert.equal((JSON.parse(piped.stdout.trim()) as { action: string }).action, 'flip');

    const failed = await runCli(['events', 'no-such-action', '--json'], { cwd: dir, env });
    assert.equal(failed.code, 2, failed.output);
    assert.equal(failed.stdout.trim().split('\n').length, 1, failed.stdout);
    assert.equal((JSON.parse(failed.stdout) as { ok: boolean }).ok, false);
  });

  it('events --follow prints what happened before, then each new event once, and stops cleanly on Ctrl+C', async () => {
    const follow = new RunningCli(['events', 'flip', '--env', 'Test', '--follow', '--limit', '1'], { cwd: dir, env });
    try {
      await eventually(() => /Following 1 action on Test\b/.test(follow.stderr) || undefined, 'the follow to start', 30_000);
      const before = follow.stdout;
      assert.equal((before.match(/^\[Test\]/gm) ?? []).length, 1, before);
      const run = await runCli(['run', 'flip', '--inputs', '{"n": 99, "mode": "ok"}'], { cwd: dir, env });
      assert.equal(run.code, 0, run.output);
      await eventually(() => /flip 99 ok/.test(follow.stdout) || undefined, 'the new event on stdout', 30_000);
      follow.child.kill('SIGINT');
      const { code } = await follow.exited;
      assert.equal(code, 130);
      assert.match(follow.stderr, /Stopped following\./);
      assert.equal((follow.stdout.match(/flip 99 ok/g) ?? []).length, 1);
    } finally {
      follow.kill();
    }
  });
});
