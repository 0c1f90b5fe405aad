// A merge that changed customactions.lock.json on both sides: reported at line:column, with a fix git accepts on a conflicted file.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';

describe('custom-actions and a merge conflict in customactions.lock.json', function () {
  const fixture = suiteSandbox();
  const gitEnv = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

  function git(dir: string, ...args: string[]): string {
    return execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...gitEnv },
      encoding: 'utf8',
    });
  }

  it('names the first marker at line:column, and the fix it gives is one git accepts; then the command runs again', async () => {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    const key = `lock-conflict-${Date.now()}`;
    writeAction(dir, 'app-a', actionMetadata({ key }), textMain('base'));
    assert.equal((await runCli(['deploy'], { cwd: dir, env: fixture.env })).code, 0);
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    // Two branches deploy the same action: each commit changes the same lines of the lock.
    git(dir, 'checkout', '-qb', 'feature');
    writeAction(dir, 'app-a', actionMetadata({ key }), textMain('feature'));
    assert.equal((await runCli(['deploy'], { cwd: dir, env: fixture.env })).code, 0);
    git(dir, 'commit', '-qam', 'feature');
    git(dir, 'checkout', '-q', 'main');
    writeAction(dir, 'app-a', actionMetadata({ key }), textMain('main'));
    // The server moved (feature's deploy): main's deploy of its own text is held, so it forces, as a team would after a look.
    assert.equal((await runCli(['deploy', '--force', '--yes'], { cwd: dir, env: fixture.env })).code, 0);
    git(dir, 'commit', '-qam', 'main');
    const merge = spawnSync('git', ['merge', 'feature'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, ...gitEnv }, encoding: 'utf8' });
    assert.notEqual(merge.status, 0, 'the merge was expected to conflict');
    const lockText = readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8');
    const markerLine = lockText.split('\n').findIndex((l) => l.startsWith('<<<<<<<')) + 1;
    assert.ok(markerLine > 0, lockText);

    const status = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.equal(status.code, 2, status.output);
    assert.ok(
      status.stderr.includes(`customactions.lock.json:${markerLine}:1: customactions.lock.json is invalid: it holds git's conflict markers`),
      status.stderr,
    );
    assert.doesNotMatch(status.stderr, /position \d+/);
    // The old advice is one git refuses on a conflicted file; the new one is not.
    const refused = spawnSync('git', ['checkout', '--', 'customactions.lock.json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    });
    assert.notEqual(refused.status, 0);
    const hint = /git checkout --theirs -- customactions\.lock\.json \(or --ours\), then git add customactions\.lock\.json/.exec(status.stderr);
    assert.ok(hint, status.stderr);
    git(dir, 'checkout', '--theirs', '--', 'customactions.lock.json');
    git(dir, 'add', 'customactions.lock.json');
    assert.doesNotMatch(git(dir, 'status', '--porcelain', '--', 'customactions.lock.json'), /^UU/);
    JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8'));
    // main.ts is still in conflict (that is the person's to merge): the lock no longer stops the command.
    writeFileSync(path.join(dir, 'app-a', key, 'main.ts'), textMain('merged'));
    const again = await runCli(['status', key], { cwd: dir, env: fixture.env });
    assert.equal(again.code, 1, again.output);
    assert.match(again.stdout, new RegExp(`differs +app-a/${key}  code changed`));
  });

  it('a lock that is not JSON is named at line:column, not at a character offset', async () => {
    const dir = fixture.scratch.dir();
    writeProject(dir, fixture.sandbox.url);
    writeFileSync(path.join(dir, 'customactions.lock.json'), '{\n  "version": 1,\n  "servers": {,}\n}\n');
    const result = await runCli(['status'], { cwd: dir, env: fixture.env });
    assert.equal(result.code, 2, result.output);
    assert.match(result.stderr, /customactions\.lock\.json:3:\d+: customactions\.lock\.json is invalid: not JSON/);
    assert.match(result.stderr, /git restore --source=HEAD --staged --worktree customactions\.lock\.json/);
  });
});
