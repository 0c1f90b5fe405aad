// Issue #28: the editor and the command line deploy against one base, customactions.lock.json. The
// built `custom-actions` runs as a process on the fixture project, pointed at the extension's own
// sandbox by its URL, and the editor saves the same action: each is checked against the other's base.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeHash } from '../../../src/core/deploy/base';
import { DeployLock, LOCK_FILE } from '../../../src/core/deploy/lock';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { lockedAction, lockedPart, readLock } from '../lockFile';
import { type NotificationSpy } from '../notifications';
import { EXTENSION_ID, api, codeWith, eventually, fixtureApplication, regainWindowFocus, removeActions, runCli, staysTrue, workspaceRoot } from '../support';
import { spyPerTest, numberAction, projectOn, type ProjectElsewhere, readText, replaceText, writeActionFiles, writeText } from '../suiteFixture';

const APP = 'test-app';
const KEY = 'cli-lock';

const metadata = numberAction(KEY, { name: 'Deployed from both sides', description: 'An action the command line and the editor both deploy.' });

describe('The command line and the editor deploy against one base (customactions.lock.json)', function () {
  this.timeout(180_000);
  let services: Services;
  let app: Application;
  let project: ProjectElsewhere;
  let key: string;
  let cli: string;
  let id: string | undefined;
  let spy: NotificationSpy;
  const root = () => workspaceRoot();
  const lockUri = () => vscode.Uri.joinPath(root(), LOCK_FILE);
  const folder = () => vscode.Uri.joinPath(root(), 'actions', KEY);
  const main = () => vscode.Uri.joinPath(folder(), 'main.ts');
  const onServer = () => services.connections.call(app, (c) => c.getImplementationVersioned(id!));

  const run = (...args: string[]) => runCli(cli, args, root().fsPath, { CUSTOM_ACTIONS_KEY: key });

  /** The editor saves `text` as main.ts, as a person does (a save by hand). */
  async function save(text: string): Promise<void> {
    const e = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main()), { preview: false });
    await replaceText(e, text);
    await eventually(async () => ((await e.document.save()) || !e.document.isDirty ? true : undefined), 'saved');
  }

  const statusText = () => services.deploy.status.text;

  before(async () => {
    services = (await api()).services;
    await fixtureApplication(services, APP);
    const { actual } = await services.connections.baseUrl();
    // The sandbox named by its URL, as a team's server is: the command line and the editor name it alike.
    project = await projectOn(services, actual);
    app = project.app;
    key = project.key;
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    cli = path.join(extension.extensionPath, 'dist', 'cli.js');
    await writeActionFiles(folder(), metadata, codeWith('1', '7'));
    services.model.refresh();
  });

  spyPerTest((s) => (spy = s));

  after(async () => {
    await removeActions(services, app, id === undefined ? [] : [id], [folder()]);
    await project.restore();
  });

  it('a save in the editor is checked against the base a command-line deploy wrote', async () => {
    const deployed = await run('deploy', '-a', APP, '--', KEY);
    assert.equal(deployed.code, 0, deployed.stderr);
    const entry = (await readLock()).get((await services.project.only()).baseUrl, APP, KEY);
    assert.ok(entry?.implementation?.etag, `the command line wrote the base of ${KEY}: ${JSON.stringify(entry)}`);
    id = entry.id;
    services.model.refresh();

    const mine = codeWith('2', '7');
    await save(mine);
    await eventually(async () => ((await onServer()).code === mine ? true : undefined), 'the save on the server');
    await eventually(() => (new RegExp(`Pushed code of ${KEY}`).test(statusText()) ? true : undefined), 'the status bar says pushed');
    assert.doesNotMatch(statusText(), /unchecked/, "checked against the command line's base (If-Match)");
    assert.equal(spy.matching(/changed on the server|never pulled or pushed/).length, 0, 'no conflict');
  });

  it('a save in the editor updates the lock: the command line then finds the action in step and sends nothing', async () => {
    assert.ok(id);
    const server = await onServer();
    await lockedPart(
      services,
      app,
      id,
      'implementation',
      (b) => b?.etag === server.etag && b?.hash === codeHash(server.code ?? ''),
      'the lock holds what the save pushed',
    );
    const status = await run('status', '-a', APP, '--', KEY);
    assert.equal(status.code, 0, `in step: ${status.stdout}${status.stderr}`);
    const versions = (await services.connections.call(app, (c) => c.listVersions(id!))).length;
    const again = await run('--json', 'deploy', '-a', APP, '--', KEY);
    assert.equal(again.code, 0, again.stderr);
    const result = JSON.parse(again.stdout) as { actions: { key: string; result: string }[] };
    assert.deepEqual(
      result.actions.map((a) => [a.key, a.result]),
      [[KEY, 'unchanged']],
    );
    assert.equal((await services.connections.call(app, (c) => c.listVersions(id!))).length, versions, 'no write reached the server');
  });

  it("a colleague's change made since the base both hold: the editor shows the conflict, the command line refuses with exit 4 and names it", async () => {
    assert.ok(id);
    const theirs = codeWith('1', '70');
    await services.connections.call(app, (c) => c.putImplementation(id!, theirs));
    const mine = codeWith('3', '7');
    await save(mine);
    const shown = await eventually(() => spy.matching(new RegExp(`${KEY} changed on the server`)).at(-1), 'the conflict told in the editor');
    assert.deepEqual(shown.items, ['Compare', 'Merge', 'Overwrite']);
    assert.match(statusText(), new RegExp(`${KEY} changed on the server`));
    assert.equal((await onServer()).code, theirs, "the colleague's code is kept");

    // main.ts holds the user's change, the lock the base the editor pushed: the command line is held too.
    const refused = await run('deploy', '-a', APP, '--', KEY);
    assert.equal(refused.code, 4, `${refused.stdout}${refused.stderr}`);
    assert.match(refused.stdout + refused.stderr, new RegExp(`${APP}/${KEY}`));
    assert.match(refused.stdout + refused.stderr, /changed on the server/);
    assert.equal((await onServer()).code, theirs, 'nothing written by the command line');
  });

  it("does not use another server's entries, nor a lock that does not parse, which it tells once and never overwrites", async () => {
    assert.ok(id);
    const here = (await services.project.only()).baseUrl;
    const entry = await lockedAction(services, app, id);
    assert.ok(entry);
    // The same entry, but under another origin only: it says nothing about this server.
    const elsewhere = DeployLock.empty().with('https://elsewhere.example', APP, KEY, entry);
    await writeText(lockUri(), elsewhere.serialize());
    await eventually(async () => ((await lockedAction(services, app, id!)) === undefined ? true : undefined), 'the lock of another server');
    const server = await onServer();
    const mine = codeWith('4', '7');
    await save(mine);
    await eventually(() => spy.matching(new RegExp(`${KEY} on the server holds code that this workspace never pulled or pushed`)).at(-1), 'held: no base here');
    assert.equal((await onServer()).code, server.code, 'nothing sent');

    // Not a lock: told once, naming the file, and left as it is.
    const broken = '{ "version": 1, "servers": ';
    await writeText(lockUri(), broken);
    const told = await eventually(() => spy.matching(new RegExp(`${LOCK_FILE}(:\\d+:\\d+)? is not a valid deploy lock`)).at(-1), 'the broken lock told');
    // The fix in git's words, the command line's too (core lockProblemFix).
    assert.match(told.message, /git restore --source=HEAD --staged --worktree customactions\.lock\.json/);
    await save(codeWith('5', '7'));
    await staysTrue(async () => (await readText(lockUri())) === broken, 'the broken lock is not overwritten', 1_000);
    assert.equal(spy.matching(/is not a valid deploy lock/).length, 1, 'told once');

    // Restored (as from git) with the server's version as the base: read again, and the next save goes through and is recorded.
    const now = await onServer();
    await writeText(
      lockUri(),
      DeployLock.empty()
        .with(here, APP, KEY, { ...entry, implementation: { etag: now.etag, hash: codeHash(now.code ?? '') } })
        .serialize(),
    );
    const fixed = codeWith('6', '7');
    await save(fixed);
    // The watcher tells of the restored file a moment later: until it does, the push is held and pushed again by hand.
    await eventually(async () => {
      if ((await onServer()).code !== fixed) await services.deploy.pushByHand(main());
      return (await onServer()).code === fixed ? true : undefined;
    }, 'a push against the restored lock');
    await lockedPart(services, app, id, 'implementation', (b) => b?.hash === codeHash(fixed), 'the lock written again');
  });

  it('takes the server version as the base of a file that holds exactly it when the file is brought up, so its save is checked, not held', async () => {
    assert.ok(id);
    await writeText(lockUri(), DeployLock.empty().serialize());
    // As the extension's store has it, not only the file: the store hears of the file from its watcher.
    await eventually(async () => ((await services.deploy.baseOf(app, id!))?.implementation === undefined ? true : undefined), 'no base in the store');
    const server = await onServer();
    await writeText(main(), server.code ?? '');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main()), { preview: false });
    // Brought up again (the window regains focus) until the emptied lock has reached the store: its watcher tells a moment later.
    // Against the version the server holds at each look: a push by hand of the test before, still on its
    // way under load, may land after `server` was read, with the same text under a newer version. Each
    // look is a few requests to a sandbox that shares two cores with the other stages of CI.
    await eventually(
      async () => {
        await regainWindowFocus();
        const now = await onServer();
        return now.code === server.code && (await lockedAction(services, app, id!))?.implementation?.etag === now.etag ? true : undefined;
      },
      "the server's version taken as the base",
      60_000,
    );
    const mine = codeWith('8', '7');
    await save(mine);
    await eventually(async () => ((await onServer()).code === mine ? true : undefined), 'the save on the server');
  });

  it('with no base in the lock, a save whose file held exactly the server version before it is pushed, checked, and becomes the base', async () => {
    assert.ok(id);
    const server = await onServer();
    await writeText(main(), server.code ?? '');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main()), { preview: false });
    // Emptied once the file is open, so the base can come only from the text the save replaces.
    await writeText(lockUri(), DeployLock.empty().serialize());
    await eventually(async () => ((await lockedAction(services, app, id!)) === undefined ? true : undefined), 'no base in the lock');
    const mine = codeWith('9', '7');
    await save(mine);
    await eventually(async () => ((await onServer()).code === mine ? true : undefined), 'the save on the server');
    await eventually(() => (new RegExp(`Pushed code of ${KEY}`).test(statusText()) ? true : undefined), 'the status bar says pushed');
    assert.doesNotMatch(statusText(), /unchecked/, 'checked: If-Match the version the file held');
    assert.equal(spy.matching(/changed on the server|never pulled or pushed/).length, 0, 'not held');
    await lockedPart(services, app, id, 'implementation', (b) => b?.hash === codeHash(mine), 'the pushed text recorded as the base');
  });

  it('a lock read in the middle of its write (a part, then the whole) is not taken as broken: no warning, and its bases are used', async () => {
    assert.ok(id);
    const before = await readFile(lockUri().fsPath, 'utf8').catch(() => undefined);
    const { baseUrl } = await services.project.only();
    const version = { etag: '"code-mid-write"', hash: codeHash('mid-write') };
    const whole = (await readLock()).with(baseUrl, app.id, KEY, { id, implementation: version }).serialize();
    // As a file is written by a tool that does not write whole files at once: its first part, then the
    // whole (cut inside a string of this test's own, so the problem it would be told as is one not told before).
    await writeFile(lockUri().fsPath, whole.slice(0, whole.indexOf('code-mid-write')));
    // Long enough for the watcher to tell of the empty file before the text is written (the store reads it then).
    await new Promise((resolve) => setTimeout(resolve, 700));
    await writeFile(lockUri().fsPath, whole);
    await eventually(
      async () => ((await services.deploy.baseOf(app, id!))?.implementation?.etag === version.etag ? true : undefined),
      'the base, read from the whole file',
    );
    await staysTrue(() => spy.matching(/is not a valid deploy lock/).length === 0, 'no warning of a broken lock', 1_500);
    if (before !== undefined) await writeFile(lockUri().fsPath, before);
  });

  it('never writes the lock through a link out of the workspace', async () => {
    assert.ok(id);
    const outside = await mkdtemp(path.join(tmpdir(), 'lock-outside-'));
    const target = path.join(outside, LOCK_FILE);
    const planted = DeployLock.empty().serialize();
    await writeFile(target, planted);
    try {
      await rm(lockUri().fsPath, { force: true });
      await symlink(target, lockUri().fsPath);
      // Pulled, so the action has a base to record afresh: the push that follows writes the lock.
      const server = await onServer();
      services.deploy.recordBases(
        app,
        { id: id!, key: KEY },
        { metadata: { etag: undefined, hash: 'unused' }, implementation: { etag: server.etag, hash: codeHash(server.code ?? '') } },
      );
      await eventually(
        () => spy.matching(new RegExp(`${LOCK_FILE} was not written: .*link to a place outside the workspace folder`)).at(-1),
        'the write refused',
      );
      assert.equal(await readFile(target, 'utf8'), planted, 'the file outside is untouched');
    } finally {
      await rm(lockUri().fsPath, { force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});
