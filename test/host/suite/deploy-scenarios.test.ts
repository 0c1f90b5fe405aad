import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeHash } from '../../../src/core/deploy/base';
import { type Verdict } from '../../../src/core/deploy/outcome';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { DEPLOY_SCENARIOS, type DeployScenario, type ScenarioChange, type ScenarioFile, scenarioTitle } from '../../support/deployScenarios';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { actionMetadata } from '../../support/metadata';
import { lockedPart } from '../lockFile';
import { type NotificationSpy } from '../notifications';
import { api, eventually, removeActions } from '../support';
import { actionFolder, spyPerTest, projectOn, type ProjectElsewhere, replaceText, writeActionFiles, writeText } from '../suiteFixture';

const APP = 'test-app';

/**
 * One decision, two faces (issue #37): the rows test/cli/cli-scenarios.test.ts runs through the
 * command line's deploy, here saved in a real editor. Each row's action is made and deployed as the
 * editor does (Create on Server), changed as the row says (edits typed in the editor, a colleague's push
 * or delete through the client), saved by hand, and the verdict read from what the user is shown (the
 * notification a save by hand raises) and what the server holds. The project points at a proxy in front
 * of the extension's sandbox that drops the connections of the row whose connection is lost.
 */
describe('One decision, two faces: the scenario table through a save in the editor', function () {
  this.timeout(240_000);
  let services: Services;
  let app: Application;
  let spy: NotificationSpy;
  let proxy: FaultProxy;
  let project: ProjectElsewhere;
  /** The action ids whose requests lose their connection. */
  const dropping = new Set<string>();
  const created: string[] = [];
  const folders = new Set<string>();

  const fileOf = (key: string, file: ScenarioFile) => vscode.Uri.joinPath(actionFolder(key), file);
  const exists = (uri: vscode.Uri) =>
    vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );

  before(async () => {
    services = (await api()).services;
    // Saved by hand only: VS Code for the Web's auto-save would save (quietly) before the test does.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const { actual } = await services.connections.baseUrl();
    proxy = await startFaultProxy({
      target: actual,
      rate: 1,
      seed: 37,
      kinds: ['reset-before'],
      spare: (_method, p) => ![...dropping].some((id) => p.startsWith(`/api/actions/${id}`)),
    });
    project = await projectOn(services, proxy.url);
    app = project.app;
  });

  afterEach(() => dropping.clear());

  spyPerTest((s) => (spy = s));

  after(async () => {
    await removeActions(services, app, created, [...folders].map(actionFolder));
    await project.restore();
    await proxy.close();
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  const idOf = async (key: string) => (await services.connections.call(app, (c) => c.listActions(APP))).find((a) => a.key === key)?.id;

  /** The row's action in the workspace, and on the server as Create on Server makes it, with its bases in the lock. */
  async function action(row: DeployScenario, key: string): Promise<string | undefined> {
    folders.add(key);
    const metadata = actionMetadata({ key });
    await writeActionFiles(actionFolder(key), metadata, row.firstCode);
    services.model.refresh();
    if (!row.deployed) return undefined;
    await vscode.commands.executeCommand('customActions.createOnServer', fileOf(key, 'action.yaml'));
    const id = await idOf(key);
    assert.ok(id, `${key} was created`);
    created.push(id);
    const first = row.firstCode;
    await lockedPart(services, app, id, 'metadata', (b) => b?.etag !== undefined, 'the metadata base in the lock');
    await lockedPart(
      services,
      app,
      id,
      'implementation',
      (b) => (first === undefined ? b?.absent === true : b?.hash === codeHash(first)),
      'the code base in the lock',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    return id;
  }

  /** A change of the row, made as the editor's user meets it: typed in the editor, or a colleague's through the client. */
  async function perform(change: ScenarioChange, key: string, id: string | undefined): Promise<void> {
    switch (change.kind) {
      case 'edit': {
        const uri = fileOf(key, change.file);
        if (!(await exists(uri))) await writeText(uri, '');
        const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
        await replaceText(editor, change.edit(editor.document.getText()));
        return;
      }
      case 'colleague-pushes':
        assert.ok(id);
        await services.connections.call(app, (c) => c.putImplementation(id, change.code));
        return;
      case 'delete-folder':
        await vscode.workspace.fs.delete(actionFolder(key), { recursive: true });
        services.model.refresh(app);
        return;
      case 'copy-folder':
        folders.add(`${key}-copy`);
        await vscode.workspace.fs.copy(actionFolder(key), actionFolder(`${key}-copy`));
        return;
      case 'delete-on-server':
        assert.ok(id);
        await services.connections.call(app, (c) => c.deleteAction(id));
        // The next read of the list (a refresh, the tree) tells the model, as it does for a user.
        services.model.refresh(app);
        await services.model.actions(app);
        return;
    }
  }

  /** Saves `file` by hand in its editor: `document.save()` when edited, else the Save command (which saves as it is). */
  async function saveByHand(uri: vscode.Uri): Promise<string> {
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    if (document.isDirty) assert.ok(await document.save(), 'saved');
    else await vscode.commands.executeCommand('workbench.action.files.save');
    return document.getText();
  }

  /** What the save came to, as the user is told it (a save by hand notifies all but a push) and as the server holds it. */
  function outcome(key: string, id: string | undefined, file: ScenarioFile, saved: string): Promise<Verdict> {
    const told = (pattern: RegExp) => spy.matching(pattern).length > 0;
    return eventually(async () => {
      if (told(new RegExp(`^${key} (changed on the server|on the server holds)`))) return 'held';
      if (told(new RegExp(`of ${key} (still holds conflict markers|has \\d+ errors?)`))) return 'refused';
      if (told(new RegExp(`action\\.yaml of ${key} was not pushed`))) return 'refused';
      if (told(new RegExp(`of ${key} was not pushed: the key "${key}" is also declared in`))) return 'refused';
      if (told(new RegExp(`^${key} does not exist on the server yet`))) return 'not-on-server';
      if (told(new RegExp(`^The (code|metadata) of ${key} was not pushed`))) return 'failed';
      const status = services.deploy.status.text;
      if (new RegExp(`of ${key} is up to date`).test(status)) return 'unchanged';
      if (id === undefined || !new RegExp(`Pushed \\w+ of ${key}\\b`).test(status)) return undefined;
      const holds =
        file === 'main.ts'
          ? (await services.connections.call(app, (c) => c.getImplementation(id))) === saved
          : (await services.connections.call(app, (c) => c.listActions(APP))).find((a) => a.id === id)?.name === 'Renamed';
      return holds ? 'updated' : undefined;
    }, `what the save of ${key}'s ${file} came to`);
  }

  for (const [i, row] of DEPLOY_SCENARIOS.entries()) {
    it(scenarioTitle(row), async () => {
      const key = `scenario-${i}`;
      const id = await action(row, key);
      for (const change of row.changes) await perform(change, key, id);
      if (row.dropped && id) dropping.add(id);
      const uri = fileOf(key, row.saves);
      const expected = row.save?.verdict ?? row.verdict;
      if (!(await exists(uri))) {
        assert.equal(expected, 'no save', `${row.saves} of ${key} is gone, so nothing can save it`);
        return;
      }
      const saved = await saveByHand(uri);
      assert.equal(await outcome(key, id, row.saves, saved), expected, 'the save in the editor');
      if (expected === 'held' && id) assert.notEqual(await services.connections.call(app, (c) => c.getImplementation(id)), saved, 'nothing was pushed');
    });
  }
});
