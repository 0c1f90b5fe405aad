import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Application, type Project } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { type ProjectNode } from '../../../src/extension/tree/nodes';
import { api, eventually, fixtureApplication, workspaceRoot } from '../support';
import { actionAsPulled, codeReturning, numberAction, openAsWritten, readText, sandboxKeyAt, saveText, writeText } from '../suiteFixture';

/**
 * A project nested in the workspace's folder (its own customactions.yaml) is a project of its own: it
 * appears without a reload, the tree shows a row per project, a file of it belongs to it (its server,
 * its application, its lock), and it goes when its file goes. Its server is the sandbox again by its
 * URL, so what went where is told by the server's name and the application (other-app, which the
 * outer project also lists: the same id in two projects stays two applications).
 */
describe('Several projects: a nested project of its own (sandbox)', function () {
  this.timeout(180_000);
  let services: Services;
  const nested = () => vscode.Uri.joinPath(workspaceRoot(), 'nested-ops');
  const made: { app: Application; id: string }[] = [];
  const folders: vscode.Uri[] = [];

  before(async () => {
    services = (await api()).services;
  });

  after(async () => {
    for (const { app, id } of made) await services.connections.call(app, (c) => c.deleteAction(id)).catch(() => undefined);
    for (const folder of [...folders, nested()]) await vscode.workspace.fs.delete(folder, { recursive: true }).then(undefined, () => undefined);
    await services.project.reload();
    services.model.refresh();
  });

  /** An action on the server and in `folder`, its bases recorded as after a Pull. */
  async function action(app: Application, folder: vscode.Uri, key: string): Promise<{ id: string; main: vscode.Uri }> {
    folders.push(folder);
    const id = await actionAsPulled(services, app, folder, numberAction(key, { name: `Project ${key}` }), codeReturning('n'));
    made.push({ app, id });
    return { id, main: vscode.Uri.joinPath(folder, 'main.ts') };
  }

  const save = async (uri: vscode.Uri, text: string) => saveText(await openAsWritten(uri), text);

  it('appears as a second project in the tree, each save goes to its own server and application, each lock is its own, and it goes with its file', async () => {
    const outer = await fixtureApplication(services, 'other-app');
    // The nested project's server: the sandbox by its URL, with the key the sandbox minted for other-app.
    const { actual } = await services.connections.baseUrl(outer);
    await sandboxKeyAt(services, actual, 'other-app');
    await writeText(
      vscode.Uri.joinPath(nested(), 'customactions.yaml'),
      `baseUrl: ${actual}\napplications:\n  - id: other-app\n    name: Ops\n    folder: ops\n`,
    );

    // Found by the watcher: no reload, no command.
    const projects = await eventually(async () => ((await services.project.all()).length === 2 ? services.project.projects : undefined), 'two projects');
    const inner = projects.find((p): p is Project => p.kind === 'ok' && p.root.path.endsWith('/nested-ops'));
    assert.ok(inner, 'the nested folder is a project');
    assert.equal(inner.name, 'nested-ops');
    assert.equal(inner.baseUrl, actual);
    const roots = await eventually(async () => {
      const nodes = await services.tree.getChildren();
      return nodes.length === 2 && nodes.every((n) => n.kind === 'project') ? (nodes as ProjectNode[]) : undefined;
    }, 'a row per project');
    assert.deepEqual(
      roots.map((n) => n.project.root.toString()),
      [workspaceRoot().toString(), inner.root.toString()],
      'the workspace folder first, the nested project after it',
    );
    const below = await services.tree.getChildren(roots[1]);
    assert.deepEqual(
      below.map((n) => (n.kind === 'application' ? n.app.label : n.kind)),
      ['Ops'],
      "the nested project's applications below its row",
    );
    const innerApp = inner.applications[0]!;
    assert.notEqual(innerApp.uid, outer.uid, 'other-app of each project is an application of its own');

    // A save in each goes to its own server and application.
    const outerAction = await action(outer, vscode.Uri.joinPath(workspaceRoot(), 'other', 'proj-outer'), 'proj-outer');
    const innerAction = await action(innerApp, vscode.Uri.joinPath(nested(), 'ops', 'proj-inner'), 'proj-inner');
    services.model.refresh();
    assert.equal((await services.model.fileAt(innerAction.main))?.app.uid, innerApp.uid, "the nested file is the nested project's");
    assert.equal((await services.model.fileAt(outerAction.main))?.app.uid, outer.uid);
    await save(outerAction.main, codeReturning('n + 1'));
    await save(innerAction.main, codeReturning('n + 2'));
    await eventually(
      async () => ((await services.connections.call(outer, (c) => c.getImplementation(outerAction.id))) === codeReturning('n + 1') ? true : undefined),
      "the outer save on the outer project's application",
    );
    await eventually(
      async () => ((await services.connections.call(innerApp, (c) => c.getImplementation(innerAction.id))) === codeReturning('n + 2') ? true : undefined),
      "the nested save on the nested project's application",
    );
    // Each project's history and lock name its own server.
    const innerHistory = await services.deploy.actionHistory({ server: actual.replace(/\/$/, ''), appId: 'other-app' }, innerAction.id);
    const history = innerHistory.length > 0 ? innerHistory : await services.deploy.actionHistory({ server: actual, appId: 'other-app' }, innerAction.id);
    assert.ok(history.length > 0, "the nested push is in the history under the nested project's server");
    const innerLock = await eventually(async () => {
      const text = await readText(vscode.Uri.joinPath(nested(), 'customactions.lock.json')).catch(() => '');
      return text.includes('proj-inner') ? text : undefined;
    }, "the nested project's own lock");
    assert.ok(!innerLock.includes('proj-outer'), "the outer action is not in the nested project's lock");
    const outerLock = await readText(vscode.Uri.joinPath(workspaceRoot(), 'customactions.lock.json')).catch(() => '');
    assert.ok(!outerLock.includes('proj-inner'), "the nested action is not in the outer project's lock");

    // Its file gone, it is gone: the tree is one project's again, as it always looked.
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(nested(), 'customactions.yaml'));
    await eventually(async () => ((await services.project.all()).length === 1 ? true : undefined), 'one project again');
    await eventually(async () => ((await services.tree.getChildren()).every((n) => n.kind === 'application') ? true : undefined), 'applications as roots');
    assert.equal(await services.model.fileAt(innerAction.main), undefined, 'a file of the removed project belongs to none');
  });

  it('tells no change when a project file is read again as it was: a save of the same text or of a comment lists nothing again', async () => {
    const uri = vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml');
    const text = await readText(uri);
    await services.project.reload();
    // What the tree and the status bar ask of a project's Uris (their string, their path) changes nothing either.
    for (const p of services.project.projects)
      void [p.uri.toString(), p.root.fsPath, ...(p.kind === 'ok' ? p.applications.map((a) => a.folderUri.toString()) : [])];
    let changes = 0;
    const listening = services.project.onDidChange(() => changes++);
    try {
      // The same bytes (the watcher reads the file again), then a comment only: the project reads alike.
      await writeText(uri, text);
      await services.project.reload();
      await writeText(uri, `${text}# a comment changes nothing a project is\n`);
      await services.project.reload();
      assert.equal(changes, 0, 'a project read alike was told as changed (every application listed again)');
      // A change a project is made of is told.
      await writeText(uri, text.replace('name: Other App', 'name: Other App Renamed'));
      await services.project.reload();
      assert.ok(changes >= 1, 'a renamed application was not told');
    } finally {
      listening.dispose();
      await writeText(uri, text);
      await services.project.reload();
    }
  });
});
