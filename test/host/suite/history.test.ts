import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DeployHistoryStore } from '../../../src/extension/deploy/historyStore';
import { PUSH_NOW, TAKE_INTO_EDITOR } from '../../../src/extension/deploy/deployer';
import { COMPARE } from '../../../src/extension/deploy/conflicts';
import { historyItems, openHistoryItem, REDEPLOY, RESTORE } from '../../../src/extension/deploy/historyView';
import { type Application } from '../../../src/extension/project';
import { type ActionNode, type ApplicationNode, type HistoryNode, type VersionNode } from '../../../src/extension/tree/nodes';
import { type Services } from '../../../src/extension/services';
import { lockedPart } from '../lockFile';
import { type NotificationSpy } from '../notifications';
import { api, eventually, fixtureApplication, removeActions, staysTrue } from '../support';
import { actionFolder, codeReturning, mainOf, numberAction, spyPerTest, writeActionFiles, writeText } from '../suiteFixture';

const APP = 'test-app';

const metadataOf = (key: string) => numberAction(key, { name: `History ${key}`, description: 'An action with a past.' });

describe('Safe deploy: deploy history', function () {
  this.timeout(180_000);
  let services: Services;
  let app: Application;
  let spy: NotificationSpy;
  const created: string[] = [];
  const keys = new Set<string>();
  const onServer = (id: string) => services.connections.call(app, (c) => c.getImplementation(id));

  /** An action pushed three times from here: v1, v2, v3 (the last is what the server and the file hold). */
  async function pushedThrice(key: string): Promise<{ id: string; versions: string[] }> {
    keys.add(key);
    const metadata = metadataOf(key);
    const versions = [codeReturning('n + 1'), codeReturning('n + 2'), codeReturning('n + 3')];
    await writeActionFiles(actionFolder(key), metadata);
    const { id } = await services.connections.call(app, (c) => c.createAction(APP, metadata));
    created.push(id);
    services.model.refresh();
    for (const code of versions) {
      await writeText(mainOf(key), code);
      const result = await services.deploy.pushCode(mainOf(key), code);
      assert.equal(result.kind, 'pushed', JSON.stringify(result));
    }
    // Each push's entry is recorded behind it: the three are listed once the last has been.
    const server = (await services.connections.baseUrl()).logical;
    await eventually(
      async () => ((await services.deploy.actionHistory({ server, appId: app.id }, id)).length === versions.length ? true : undefined),
      'the three pushes in the history',
    );
    return { id, versions };
  }

  async function located(key: string) {
    const action = await services.model.actionAt(mainOf(key));
    assert.ok(action?.local && action.remote, `${key} is in the workspace and on the server`);
    return { action: { ...action, local: action.local, remote: action.remote }, parts: ['implementation'] as const };
  }

  before(async () => {
    services = (await api()).services;
    app = await fixtureApplication(services, APP);
  });

  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  spyPerTest((s) => (spy = s));

  after(() => removeActions(services, app, created, [...keys].map(actionFolder)));

  it('records every accepted push, lists the local and the server-side versions, and survives a new store over the same storage', async () => {
    const { id, versions } = await pushedThrice('history-record');
    const target = (await services.connections.baseUrl()).logical;
    const entries = await services.deploy.actionHistory({ server: target, appId: app.id }, id);
    assert.deepEqual(
      entries.map((e) => e.content),
      [...versions].reverse(),
      'newest first, exactly what was sent',
    );
    assert.ok(entries.every((e) => e.part === 'implementation' && e.target === target && e.etag !== undefined && e.actionKey === 'history-record'));
    assert.ok(
      entries.slice(0, 2).every((e) => e.checked),
      'the pushes after the first were checked against their base',
    );

    // What a restart of the host does to the history: a store made anew over the same storage reads it
    // back, once the file written behind the pushes holds them.
    const reopened = () => new DeployHistoryStore(services.context.globalStorageUri, services.log).entries({ server: target, appId: app.id }, id);
    await eventually(async () => ((await reopened()).length === entries.length ? true : undefined), 'the history on disk');
    assert.deepEqual(await reopened(), entries);

    // One push is one row: the server's version it made (the same tag) is named on the row of the push.
    const items = await historyItems(services, await located('history-record'));
    assert.deepEqual(
      items.map((i) => i.source),
      ['local', 'local', 'local'],
      'no second row for the versions the pushes made',
    );
    assert.match(items[0]?.description ?? '', /pushed from this machine to .* · server version 3 by custom-actions-vscode/, 'both facts on one row');
    assert.match(items[0]?.row.description ?? '', /· pushed from here · server version 3 by custom-actions-vscode$/);
    assert.equal(await items[items.length - 1]?.content(), versions[0]);

    // A version the server kept that was not pushed from here has a row of its own.
    await services.connections.call(app, (c) => c.putImplementation(id, codeReturning('n + 4')));
    const after = await historyItems(services, await located('history-record'));
    assert.deepEqual(
      after.map((i) => i.source),
      ['server', 'local', 'local', 'local'],
    );
  });

  it('shows a History row under the action in the tree; a version row opens its diff with the file and restores it unpushed', async () => {
    const { id, versions } = await pushedThrice('history-tree');
    const appRow = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === APP);
    assert.ok(appRow);
    const actionRow = await eventually(
      async () =>
        (await services.tree.getChildren(appRow)).find((n): n is ActionNode => n.kind === 'action' && n.key === 'history-tree' && n.remote !== undefined),
      'the action in the tree',
    );
    const history = (await services.tree.getChildren(actionRow)).find((n): n is HistoryNode => n.kind === 'history');
    assert.ok(history, 'a History row beside Test and Live');
    assert.equal(services.tree.getTreeItem(history).label, 'History');
    const rows = (await services.tree.getChildren(history)).filter((n): n is VersionNode => n.kind === 'version');
    assert.deepEqual(
      await Promise.all(rows.filter((r) => r.item.source === 'local').map((r) => r.item.content())),
      [...versions].reverse(),
      'the pushes from here, newest first',
    );
    assert.ok(
      rows.filter((r) => r.item.part === 'implementation').every((r) => r.item.source === 'local'),
      'each push once: the server versions they made are named on their rows',
    );
    assert.ok(
      rows.some((r) => r.item.part === 'metadata' && r.item.source === 'server'),
      "the server's version of the metadata created there has a row of its own",
    );
    const oldest = rows.filter((r) => r.item.source === 'local').at(-1);
    assert.ok(oldest);
    const item = services.tree.getTreeItem(oldest);
    assert.doesNotMatch(String(item.label), /\$\(/, 'no icon syntax shown as text');
    assert.equal(item.label, 'main.ts', 'the file first, so a narrow view cuts the time rather than which file it is');
    // A push of a moment ago: the time of day alone (the date only once it is another day's).
    assert.match(String(item.description), /^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2} · pushed from here · server version 1 by custom-actions-vscode$/);
    assert.equal(item.command?.command, 'customActions.openHistoryVersion');

    const opened = vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    const asked = await eventually(() => spy.matching(/Redeploy it to the server/).at(-1), 'the offer to redeploy or restore');
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'the version is shown in a diff with the file');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), versions[0]);
    asked.answer(RESTORE);
    await opened;
    const editor = await eventually(
      () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === mainOf('history-tree').toString() && d.getText() === versions[0]),
      'the old version in the editor',
    );
    assert.equal(await onServer(id), versions[2], 'restored, not pushed');
    await vscode.window.showTextDocument(editor);
  });

  it('the History row follows a push of code without a Refresh: the new version is listed at once', async () => {
    const { id } = await pushedThrice('history-follow');
    const appRow = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === APP);
    assert.ok(appRow);
    const actionRow = await eventually(
      async () =>
        (await services.tree.getChildren(appRow)).find((n): n is ActionNode => n.kind === 'action' && n.key === 'history-follow' && n.remote !== undefined),
      'the action in the tree',
    );
    const history = (await services.tree.getChildren(actionRow)).find((n): n is HistoryNode => n.kind === 'history');
    assert.ok(history);
    const code = async () =>
      (await services.tree.getChildren(history)).filter((n): n is VersionNode => n.kind === 'version' && n.item.part === 'implementation');
    assert.equal((await code()).length, 3);
    const fired: unknown[] = [];
    const listening = services.tree.onDidChangeTreeData((node) => fired.push(node));
    try {
      const fourth = codeReturning('n + 4');
      await writeText(mainOf('history-follow'), fourth);
      assert.equal((await services.deploy.pushCode(mainOf('history-follow'), fourth)).kind, 'pushed');
      await eventually(() => (fired.includes(history) ? true : undefined), 'the History row told to show its versions again');
      const rows = await code();
      assert.equal(rows.length, 4);
      assert.equal(await rows[0]?.item.content(), fourth, 'the new push on top');
      // A redeploy too.
      fired.length = 0;
      const where = await located('history-follow');
      const oldest = (await historyItems(services, where)).at(-1);
      assert.ok(oldest);
      await services.deploy.redeploy(app, actionFolder('history-follow'), id, 'history-follow', 'implementation', await oldest.content());
      await eventually(() => (fired.includes(history) ? true : undefined), 'the History row follows the redeploy');
    } finally {
      listening.dispose();
    }
  });

  it('after Redeploy This Version the editor is told to differ from the server, an auto-save does not push it back, and Take into Editor brings the version in', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const { id, versions } = await pushedThrice('history-rollback');
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(mainOf('history-rollback')), { preview: false });
      const where = await located('history-rollback');
      const oldest = (await historyItems(services, where)).at(-1);
      assert.ok(oldest);
      const opened = openHistoryItem(services, where, oldest);
      (await eventually(() => spy.matching(/Redeploy it to the server/).at(-1), 'the offer to redeploy')).answer(REDEPLOY);
      await opened;
      assert.equal(await onServer(id), versions[0], 'redeployed');
      const told = await eventually(
        () => spy.matching(/Redeployed the chosen version of main\.ts of history-rollback/).at(-1),
        'the editor and the server differ, said',
      );
      assert.deepEqual(told.items, [TAKE_INTO_EDITOR, 'Compare']);
      assert.match(services.deploy.status.text, /main\.ts of history-rollback differs from the server/);
      assert.equal(services.deploy.status.click?.command, 'customActions.heldSaveChoices', 'the choices stay in the status bar');
      assert.deepEqual(services.deploy.heldChoices(mainOf('history-rollback')), [TAKE_INTO_EDITOR, COMPARE, PUSH_NOW], 'held as a redeploy is');

      // The next keystroke, and auto-save after it: the newer code does not go back over the redeploy.
      await vscode.window.showTextDocument(editor.document, { preview: false });
      editor.selection = new vscode.Selection(1, 0, 1, 0);
      await vscode.commands.executeCommand('type', { text: '  // typed after the rollback\n' });
      await eventually(() => (!editor.document.isDirty ? true : undefined), 'auto-saved');
      await staysTrue(async () => (await onServer(id)) === versions[0], 'the redeployed version stays on the server', 3_000);

      told.answer(TAKE_INTO_EDITOR);
      await eventually(() => (editor.document.getText() === versions[0] ? true : undefined), 'the redeployed version in the editor');
      assert.deepEqual(services.deploy.heldChoices(mainOf('history-rollback')), [], 'nothing held any more');
      await eventually(() => (!editor.document.isDirty ? true : undefined), 'auto-saved');
      await staysTrue(async () => (await onServer(id)) === versions[0], 'the server keeps the version', 1_500);
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Compare with Server on main.ts shows what the server holds now beside the file, and Pull from Server in that diff takes it', async () => {
    const { id } = await pushedThrice('history-compare');
    const theirs = codeReturning('n + 100 /* a colleague */');
    await services.connections.call(app, (c) => c.putImplementation(id, theirs));
    const shown = await vscode.commands.executeCommand<string[]>('customActions.compareWithServer', mainOf('history-compare'));
    assert.deepEqual(shown, ['implementation']);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), theirs, "the server's code on the left");
    assert.equal(input.modified.toString(), mainOf('history-compare').toString(), 'the file on the right');

    // Pull from Server, from the editor title of that diff (the server's side is the argument). The
    // file is at its base (the last push): nobody's work is lost, so the pull asks nothing, as the
    // command line's pull replaces it without --force (one plan, src/core/deploy/pull.ts).
    await vscode.commands.executeCommand('customActions.pullFromDiff', input.original);
    assert.equal(spy.matching(/Pull "history-compare" from the server\?/).length, 0, 'no question: main.ts held no change of its own');
    const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(mainOf('history-compare')));
    assert.equal(onDisk, theirs, "the file holds the server's code");
    const server = await services.connections.call(app, (c) => c.getImplementationVersioned(id));
    await lockedPart(services, app, id, 'implementation', (b) => b?.etag === server.etag, 'the next push is checked against what was pulled');
  });

  it('Redeploy This Version puts the old code back on the server, through the conflict check', async () => {
    const { id, versions } = await pushedThrice('history-redeploy');
    const where = await located('history-redeploy');
    const items = (await historyItems(services, where)).filter((i) => i.source === 'local');
    const first = items[items.length - 1];
    assert.ok(first);
    const opened = openHistoryItem(services, where, first);
    const asked = await eventually(() => spy.matching(/Redeploy it to the server/).at(-1), 'the offer to redeploy or restore');
    assert.deepEqual(asked.items, [REDEPLOY, RESTORE]);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'the version is shown in a diff with the file');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), versions[0]);
    assert.equal(input.modified.toString(), mainOf('history-redeploy').toString());
    asked.answer(REDEPLOY);
    await opened;
    assert.equal(await onServer(id), versions[0], 'read back from the server');
    assert.doesNotMatch(services.deploy.status.text, /unchecked/, 'checked against the base');

    // A colleague changes it: an old version is not redeployed over that unseen.
    await services.connections.call(app, (c) => c.putImplementation(id, codeReturning('n + 100')));
    const held = await services.deploy.redeploy(app, actionFolder('history-redeploy'), id, 'history-redeploy', 'implementation', versions[1] as string);
    assert.equal(held.kind, 'held');
    assert.equal(await onServer(id), codeReturning('n + 100'));
    // Settled, so no held push is left in the status bar: Overwrite puts the file over the colleague's.
    (await eventually(() => spy.matching(/history-redeploy changed on the server/).at(-1), 'the conflict offered')).answer('Overwrite');
    await eventually(async () => ((await onServer(id)) === versions[2] ? true : undefined), 'the file overwrote it');
  });

  it('Retry after a failed redeploy sends the version again, not the file', async () => {
    const { id, versions } = await pushedThrice('history-retry');
    // The file now differs from the server (a change on disk, which never pushes): a Retry that sent the file would be seen.
    await writeText(mainOf('history-retry'), versions[0] as string);
    const refused = 'export function main(n: number): number {\n  return n +;\n}\n';
    const failed = await services.deploy.redeploy(app, actionFolder('history-retry'), id, 'history-retry', 'implementation', refused);
    assert.equal(failed.kind, 'failed', 'the server refuses code that does not parse');
    const notFailed = /The code of history-retry was not pushed/;
    (await eventually(() => spy.matching(notFailed).at(-1), 'the failure offering Retry')).answer('Retry');
    // The answered notification is closed: a second failure of the retry tells again.
    await eventually(() => (spy.matching(notFailed).length === 2 ? true : undefined), 'the same version sent again, and refused again');
    assert.equal(await onServer(id), versions[2], 'neither the refused version nor the file reached the server');
  });

  it('Deploy History… on main.ts opens the picked version beside the file, and Restore to Editor brings it in without pushing', async () => {
    const { id, versions } = await pushedThrice('history-restore');
    // Half-typed code: an auto-save of it (code-server saves after a delay) is refused, so whatever reaches the server was pushed.
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(mainOf('history-restore')), { preview: false });
    assert.ok(
      await editor.edit((b) =>
        b.replace(editor.document.validateRange(new vscode.Range(0, 0, 99, 0)), 'export function main(n: number): number {\n  return n +;\n}\n'),
      ),
    );
    const command = vscode.commands.executeCommand('customActions.deployHistory', mainOf('history-restore'));
    // The quick pick lists the newest first: version 3 (pushed from here, and kept by the server).
    const asked = await eventually(async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return spy.matching(/Redeploy it to the server/).at(-1);
    }, 'a version picked and shown');
    asked.answer(RESTORE);
    await command;
    await eventually(() => (editor.document.getText() === versions[2] ? true : undefined), 'the version in the editor');
    assert.equal(await onServer(id), versions[2], 'nothing was pushed');
  });
});
