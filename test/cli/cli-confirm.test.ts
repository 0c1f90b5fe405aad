// What deletes or overwrites on the server is confirmed: a question on a terminal, --yes, a refusal without one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { CLI, type CliResult, runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

/**
 * The built command on a pseudo-terminal (util-linux `script`, no new dependency), with `answer` typed
 * on it: stdin, stdout and stderr are the terminal, as for a person.
 */
function onTerminal(args: readonly string[], answer: string, options: { cwd: string; env: Record<string, string> }): Promise<CliResult> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'dumb', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      // The answer once the question is on the screen, as a person types it.
      if (stdout.includes('[y/N]') && !child.stdin.writableEnded) child.stdin.end(`${answer}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr: '', output: stdout }));
  });
}

describe('custom-actions deploy: confirmation of what deletes or overwrites', function () {
  const fixture = suiteSandbox();

  async function projectWithGoneFolder(): Promise<{ dir: string; listed: () => Promise<string[]> }> {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const keys = ['gone-' + path.basename(dir).slice(-6), 'kept-' + path.basename(dir).slice(-6)];
    for (const key of keys) writeAction(dir, 'app-a', actionMetadata({ key }), textMain(key));
    assert.equal((await runCli(['deploy'], { cwd: dir, env: fixture.env })).code, 0);
    rmSync(path.join(dir, 'app-a', keys[0]!), { recursive: true });
    const listed = async () => {
      const response = await fetch(`${fixture.sandbox.url}/api/application/app-a/actions`, {
        headers: { authorization: `Bearer ${fixture.env.CUSTOM_ACTIONS_KEY}` },
      });
      const body = (await response.json()) as { key: string }[] | { actions: { key: string }[] };
      return (Array.isArray(body) ? body : body.actions).map((a) => a.key).filter((k) => keys.includes(k));
    };
    return { dir, listed };
  }

  it('without a terminal and without --yes, --delete refuses, says how to go on, and deletes nothing', async () => {
    const { dir, listed } = await projectWithGoneFolder();
    const refused = await runCli(['deploy', '--delete'], { cwd: dir, env: fixture.env });
    assert.equal(refused.code, 2, refused.output);
    assert.match(refused.stderr, /Delete 1 action on http:\/\/127\.0\.0\.1:\d+\/: app-a\/gone-/);
    assert.match(refused.stderr, /there is no terminal to ask/);
    assert.match(refused.stderr, /custom-actions deploy --delete --yes/);
    assert.equal((await listed()).length, 2);
    const yes = await runCli(['deploy', '--delete', '--yes'], { cwd: dir, env: fixture.env });
    assert.equal(yes.code, 0, yes.output);
    assert.equal((await listed()).length, 1);
  });

  it('on a terminal, asks: answered no, nothing is deleted (exit 1); answered yes, it is', async () => {
    const { dir, listed } = await projectWithGoneFolder();
    const no = await onTerminal(['deploy', '--delete'], 'n', { cwd: dir, env: fixture.env });
    assert.equal(no.code, 1, no.output);
    assert.match(no.output, /Delete 1 action on .*Go on\? \[y\/N\]/s);
    assert.match(no.output, /Nothing done\./);
    assert.equal((await listed()).length, 2);
    const yes = await onTerminal(['deploy', '--delete'], 'y', { cwd: dir, env: fixture.env });
    assert.equal(yes.code, 0, yes.output);
    assert.match(yes.output, /deleted\s+app-a\/gone-/);
    assert.equal((await listed()).length, 1);
  });
  it('on a protected target, --delete asks once, naming both the protected target and what it deletes', async () => {
    const dir = fixture.scratch.dir();
    writeFileSync(
      path.join(dir, 'customactions.yaml'),
      stringify({
        baseUrl: 'local-sandbox',
        applications: [{ id: 'app-a', folder: 'app-a' }],
        targets: { prod: { baseUrl: fixture.sandbox.url, default: true, protected: true, applications: { 'app-a': 'app-a' } } },
      }),
    );
    const keys = ['pgone-' + path.basename(dir).slice(-6), 'pkept-' + path.basename(dir).slice(-6)];
    for (const key of keys) writeAction(dir, 'app-a', actionMetadata({ key }), textMain(key));
    assert.equal((await runCli(['deploy', '--yes'], { cwd: dir, env: fixture.env })).code, 0);
    rmSync(path.join(dir, 'app-a', keys[0]!), { recursive: true });

    const refused = await runCli(['deploy', '--delete'], { cwd: dir, env: fixture.env });
    assert.equal(refused.code, 2, refused.output);
    assert.match(refused.stderr, /Target prod \(.*\) is protected\. Delete 1 action on .*: app-a\/pgone-/);
    assert.match(refused.stderr, /Nothing written to protected target prod: it needs a confirmation/);
    assert.match(refused.stderr, /custom-actions deploy --delete --target prod --yes/);

    const no = await onTerminal(['deploy', '--delete'], 'n', { cwd: dir, env: fixture.env });
    assert.equal(no.code, 1, no.output);
    assert.equal(no.output.split('[y/N]').length - 1, 1, `asked more than once: ${no.output}`);
    assert.match(no.output, /is protected\. Delete 1 action on /);
    const yes = await onTerminal(['deploy', '--delete'], 'y', { cwd: dir, env: fixture.env });
    assert.equal(yes.code, 0, yes.output);
    assert.equal(yes.output.split('[y/N]').length - 1, 1, `asked more than once: ${yes.output}`);
    assert.match(yes.output, /deleted\s+app-a\/pgone-/);
  });
});
