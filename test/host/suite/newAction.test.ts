import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../../src/core/client';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { type ActionNode, type ApplicationNode } from '../../../src/extension/tree/nodes';
import { NotificationSpy } from '../notifications';
import { api, eventually, workspaceRoot } from '../support';

const APP = 'test-app';

/** New Action against the sandbox the extension starts for the fixture, and a Run right after it. */
describe('New Action, then Run at once (sandbox)', function () {
  this.timeout(120_000);
  let services: Services;
  let app: Application;
  /** Keys this suite made, removed from the server and the workspace after it: other suites expect an empty application. */
  const keys: string[] = [];

  const folderOf = (key: string) => vscode.Uri.joinPath(workspaceRoot(), 'actions', key);

  async function appNode(): Promise<ApplicationNode> {
    const node = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === APP);
    assert.ok(node, `${APP} in the tree`);
    return node;
  }

  async function actionNode(key: string): Promise<ActionNode> {
    services.model.refresh();
    const node = (await services.tree.getChildren(await appNode())).find((n): n is ActionNode => n.kind === 'action' && n.key === key);
    assert.ok(node?.remote, `${key} is on the server`);
    return node;
  }

  before(async () => {
    services = (await api()).services;
    app = (await appNode()).app;
  });

  after(async () => {
    await vscode.commands.executeCommand('customActions.stopAllWatching');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const listed = await services.connections.call(app, (c) => c.listActions(APP));
    for (const a of listed.filter((l) => keys.includes(l.key))) await services.connections.call(app, (c) => c.deleteAction(a.id));
    for (const key of keys) await vscode.workspace.fs.delete(folderOf(key), { recursive: true }).then(undefined, () => undefined);
    services.model.refresh();
  });

  it('New Action pushes the template main.ts with the action, so Run works at once and returns the result', async () => {
    const spy = new NotificationSpy();
    try {
      keys.push('run-new');
      await vscode.commands.executeCommand('customActions.newAction', await appNode(), { key: 'run-new', name: 'Run new', developerEmail: 'dev@example.com' });
      const node = await actionNode('run-new');
      const template = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folderOf('run-new'), 'main.ts')));
      assert.equal(await services.connections.call(app, (c) => c.getImplementation(node.remote?.id ?? '')), template, 'the server holds main.ts');
      // The server had no code: the push asked that it still had none, so it says it was checked.
      assert.doesNotMatch(services.deploy.status.text, /unchecked/);
      assert.ok(spy.matching(/Created run-new in Test App with the code of its main\.ts/).length === 1, spy.shown.map((s) => s.message).join(' | '));

      const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', node, 'Test', { input: 'hello' });
      assert.ok(event, `the run returned its event; shown: ${spy.shown.map((s) => s.message).join(' | ')}`);
      assert.equal(event.ok, true, event.error?.message);
      assert.equal(event.result, '', "the template's empty text");
      assert.deepEqual(
        spy.shown.filter((s) => s.severity !== 'information').map((s) => s.message),
        [],
        'no warning or error on the way',
      );
    } finally {
      spy.dispose();
    }
  });

  it('a run of an action without code tells to save main.ts or run Push Implementation, and nothing about a taken key', async () => {
    keys.push('run-nocode');
    await services.connections.call(app, (c) =>
      c.createAction(APP, {
        key: 'run-nocode',
        name: 'Run no code',
        description: '',
        developerEmail: 'dev@example.com',
        parameters: [{ name: 'input', type: 'text' }],
        result: { type: 'text' },
      }),
    );
    const node = await actionNode('run-nocode');
    const spy = new NotificationSpy();
    try {
      const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', node, 'Test', { input: 'x' });
      assert.equal(event, undefined);
      const shown = await eventually(() => spy.matching(/Running the action failed/)[0], 'the error of the run');
      assert.equal(shown.severity, 'error');
      assert.match(shown.message, /HTTP 409/);
      assert.match(shown.message, /has no code on the server yet/);
      assert.match(shown.message, /Save its main\.ts or run "Custom Actions: Push Implementation"/);
      assert.doesNotMatch(shown.message, /PUT it to|exists already/);
    } finally {
      spy.dispose();
    }
  });
});
