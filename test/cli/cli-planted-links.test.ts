// Round three (docs/security.md): every write of the command line goes through the core's write guard,
// temporary files included. A clone ships links at the names the command once used for its temporary
// files and at the names it writes; nothing lands outside the project, and no file is left a link.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { runCli, suiteSandbox, textMain, writeAction, writeProject } from './support';
import { putOnServer, RunningCli } from './server';

const PLANTED = actionMetadata({ key: 'planted', result: { type: 'text' } });
const CODE = textMain('from the server');

describe('custom-actions writes nothing through a link a clone planted', function () {
  const suite = suiteSandbox();
  before(async () => {
    await putOnServer(suite.sandbox, 'app-a', PLANTED, CODE);
  });

  /** A project of app-a with the action's folder made, and a folder outside it. */
  function clone(): { dir: string; folder: string; outside: string } {
    const dir = suite.scratch.dir();
    writeProject(dir, suite.sandbox.url);
    const folder = path.join(dir, 'app-a', 'planted');
    mkdirSync(folder, { recursive: true });
    return { dir, folder, outside: suite.scratch.dir() };
  }

  it('pull: links at the temporary names of the process are not followed, and main.ts and the lock are files', async () => {
    const { dir, folder, outside } = clone();
    const pull = new RunningCli(['pull'], { cwd: dir, env: suite.env });
    // Planted as the process starts, long before it writes: the names it used were `<file>.<pid>.tmp`.
    const pid = pull.child.pid!;
    const planted = [path.join(folder, 'main.ts'), path.join(folder, 'action.yaml'), path.join(dir, 'customactions.lock.json')];
    for (const [i, file] of planted.entries()) symlinkSync(path.join(outside, `stolen-${i}`), `${file}.${pid}.tmp`);
    const { code } = await pull.exited;
    assert.equal(code, 0, pull.stdout + pull.stderr);
    for (const [i] of planted.entries())
      assert.equal(existsSync(path.join(outside, `stolen-${i}`)), false, `written through the link ${planted[i]}.${pid}.tmp`);
    for (const file of planted) assert.ok(lstatSync(file).isFile(), `${file} is a file`);
    assert.equal(readFileSync(path.join(folder, 'main.ts'), 'utf8'), CODE);
  });

  it('pull --force: main.ts planted as a link out of the project is refused, and the file it points to is untouched', async () => {
    const { dir, folder, outside } = clone();
    const target = path.join(outside, 'bashrc');
    writeFileSync(target, 'mine\n');
    symlinkSync(target, path.join(folder, 'main.ts'));
    const result = await runCli(['pull', '--force'], { cwd: dir, env: suite.env });
    assert.notEqual(result.code, 0, result.output);
    assert.match(result.output, /main\.ts/);
    assert.equal(readFileSync(target, 'utf8'), 'mine\n');
  });

  it('pull --force: main.ts planted as a link inside the project is replaced by a file, and what it pointed to is untouched', async () => {
    const { dir, folder } = clone();
    const notes = path.join(dir, 'notes.txt');
    writeFileSync(notes, 'notes\n');
    symlinkSync(notes, path.join(folder, 'main.ts'));
    const result = await runCli(['pull', '--force'], { cwd: dir, env: suite.env });
    assert.equal(result.code, 0, result.output);
    assert.ok(lstatSync(path.join(folder, 'main.ts')).isFile(), 'main.ts is no longer a link');
    assert.equal(readFileSync(notes, 'utf8'), 'notes\n');
  });

  it('deploy and pull: a lock planted as a link out of the project is not written', async () => {
    const { dir, outside } = clone();
    writeAction(dir, 'app-a', actionMetadata({ key: 'local-one', result: { type: 'text' } }), textMain('local'));
    const target = path.join(outside, 'lock.json');
    symlinkSync(target, path.join(dir, 'customactions.lock.json'));
    for (const args of [['deploy'], ['pull', '--force']]) {
      const result = await runCli(args, { cwd: dir, env: suite.env });
      assert.notEqual(result.code, 0, `${args.join(' ')}: ${result.output}`);
      assert.equal(existsSync(target), false, `${args.join(' ')} wrote the lock through the link`);
    }
  });

  it('test --output: a JUnit file planted as a link out of the project is not written', async () => {
    const { dir, outside } = clone();
    writeAction(dir, 'app-a', actionMetadata({ key: 'local-two', result: { type: 'text' } }), textMain('x'));
    mkdirSync(path.join(dir, 'reports'));
    const target = path.join(outside, 'junit.xml');
    symlinkSync(target, path.join(dir, 'reports', 'junit.xml'));
    const result = await runCli(['test', '--reporter', 'junit', '--output', 'reports/junit.xml'], { cwd: dir, env: suite.env });
    assert.notEqual(result.code, 0, result.output);
    assert.equal(existsSync(target), false, 'the report was written through the link');
  });
});
