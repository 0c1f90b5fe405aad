import * as assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import * as vscode from 'vscode';
import { type ActionNode, type ApplicationNode } from '../../../src/extension/tree/nodes';
import { HOSTILE_APP, type HostileProject, useHostileProject } from '../hostileProject';
import { NotificationSpy, type Shown } from '../notifications';
import { api, eventually, workspaceRoot } from '../support';

const SERVER_CODE = 'export function main(): string {\n  return "the server\'s code";\n}\n';
const LOCAL_CODE = 'export function main(): string {\n  return "my work, not pushed";\n}\n';

function metadata(key: string): Record<string, unknown> {
  return { key, name: key, description: 'from the server', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } };
}

function actionYaml(key: string): string {
  return `key: ${key}\nname: ${key}\ndescription: local\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n`;
}

async function read(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

async function write(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

/**
 * Pull against a server that lists what it likes (a node:http server on 127.0.0.1, test/host/hostileProject.ts).
 * The folder of a pulled action is named after the server's key; Pull must write nowhere but a
 * direct child of the application's folder, and replace nothing local without asking.
 */
describe('Security: Pull writes only inside the workspace and never over local work unasked', function () {
  this.timeout(120_000);
  let project: HostileProject;

  before(async () => {
    project = await useHostileProject();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await project.restore();
  });

  async function actionNodes(): Promise<ActionNode[]> {
    const { services } = await api();
    services.model.refresh();
    const roots = await services.tree.getChildren();
    const app = roots.find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === HOSTILE_APP);
    assert.ok(app, 'the hostile application in the tree');
    return (await services.tree.getChildren(app)).filter((n): n is ActionNode => n.kind === 'action');
  }

  async function nodeOf(id: string): Promise<ActionNode> {
    return eventually(async () => (await actionNodes()).find((n) => n.remote?.id === id), `the node of ${id}`);
  }

  async function pull(node: ActionNode, answer: (shown: Shown) => string | undefined = () => undefined): Promise<Shown[]> {
    const capture = new NotificationSpy(answer);
    try {
      await vscode.commands.executeCommand('customActions.pullAction', node);
      return capture.shown;
    } finally {
      capture.dispose();
    }
  }

  it('a key that climbs out (../../outside/evil) writes nothing outside and shows the action as invalid', async () => {
    project.server.actions = [{ id: 'h-out', key: '../../outside/evil', metadata: metadata('evil'), code: SERVER_CODE }];
    const outside = vscode.Uri.joinPath(workspaceRoot(), '..', 'outside');
    const node = await nodeOf('h-out');
    const shown = await pull(node);
    assert.equal(await read(vscode.Uri.joinPath(outside, 'evil', 'main.ts')), undefined, 'no main.ts outside the workspace');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(outside)), 'nothing outside the workspace at all');
    assert.equal(node.state, 'invalid', 'shown as an action with an invalid key');
    const told = shown.find((m) => /cannot be pulled/.test(m.message));
    assert.ok(told, `the user is told why: ${JSON.stringify(shown)}`);
    assert.ok(
      !project.server.requests.some((r) => r.path === '/api/actions/h-out' || r.path === '/api/actions/h-out/implementation'),
      'nothing is even read for it',
    );
  });

  it('a key with a trailing slash does not hide the local action, and Pull does not write over its main.ts', async () => {
    const folder = vscode.Uri.joinPath(project.appFolder, 'score-lead');
    await write(vscode.Uri.joinPath(folder, 'action.yaml'), actionYaml('score-lead'));
    await write(vscode.Uri.joinPath(folder, 'main.ts'), LOCAL_CODE);
    project.server.actions = [{ id: 'h-slash', key: 'score-lead/', metadata: metadata('score-lead'), code: SERVER_CODE }];
    const node = await nodeOf('h-slash');
    await pull(node, () => 'Replace');
    assert.equal(await read(vscode.Uri.joinPath(folder, 'main.ts')), LOCAL_CODE, 'the local main.ts is untouched');
    assert.equal(await read(vscode.Uri.joinPath(folder, 'action.yaml')), actionYaml('score-lead'));
    assert.equal(node.state, 'invalid');
    const local = (await actionNodes()).find((n) => n.key === 'score-lead');
    assert.equal(local?.state, 'local', 'the local action is shown as it is: not on the server under that key');
  });

  it('a key two folders declare: both rows marked, and Pull of the server’s action writes into neither, naming both', async () => {
    const [one, two] = ['shared-a', 'shared-a-copy'].map((name) => vscode.Uri.joinPath(project.appFolder, name)) as [vscode.Uri, vscode.Uri];
    for (const folder of [one, two]) {
      await write(vscode.Uri.joinPath(folder, 'action.yaml'), actionYaml('shared-a'));
      await write(vscode.Uri.joinPath(folder, 'main.ts'), LOCAL_CODE);
    }
    project.server.actions = [{ id: 'h-shared', key: 'shared-a', metadata: metadata('shared-a'), code: SERVER_CODE }];
    const node = await nodeOf('h-shared');
    assert.equal(node.state, 'remote');
    assert.deepEqual(
      (await actionNodes()).filter((n) => n.key === 'shared-a' && n.local).map((n) => [n.state, n.local?.folder.path.split('/').pop()]),
      [
        ['shared', 'shared-a'],
        ['shared', 'shared-a-copy'],
      ],
    );
    const shown = await pull(node, () => 'Replace');
    assert.ok(
      shown.some((m) => m.severity === 'error' && /cannot be pulled: the key "shared-a" is declared in 2 folders here/.test(m.message)),
      JSON.stringify(shown.map((m) => m.message)),
    );
    for (const folder of [one, two]) assert.equal(await read(vscode.Uri.joinPath(folder, 'main.ts')), LOCAL_CODE, `${folder.path} is untouched`);
    for (const folder of [one, two]) await vscode.workspace.fs.delete(folder, { recursive: true });
  });

  it('a folder that exists without action.yaml: Pull asks before replacing its main.ts, and replaces only when told', async () => {
    const folder = vscode.Uri.joinPath(project.appFolder, 'fresh');
    await write(vscode.Uri.joinPath(folder, 'main.ts'), LOCAL_CODE);
    project.server.actions = [{ id: 'h-fresh', key: 'fresh', metadata: metadata('fresh'), code: SERVER_CODE }];
    const node = await nodeOf('h-fresh');
    assert.equal(node.state, 'remote');

    const declined = await pull(node, () => undefined);
    const question = declined.find((m) => m.modal);
    assert.ok(question, `a modal question: ${JSON.stringify(declined)}`);
    assert.match(question.message, /main\.ts/);
    assert.ok(question.items.includes('Replace'), 'a clear choice');
    assert.equal(await read(vscode.Uri.joinPath(folder, 'main.ts')), LOCAL_CODE, 'dismissed: nothing replaced');
    assert.equal(await read(vscode.Uri.joinPath(folder, 'action.yaml')), undefined, 'dismissed: nothing written at all');

    await pull(node, (m) => (m.modal ? 'Replace' : undefined));
    assert.equal(await read(vscode.Uri.joinPath(folder, 'main.ts')), SERVER_CODE);
    assert.match((await read(vscode.Uri.joinPath(folder, 'action.yaml'))) ?? '', /description: from the server/);
  });

  it('Compare opens each difference, local against the server’s, and asks again without a modal', async () => {
    const main = vscode.Uri.joinPath(project.appFolder, 'compare', 'main.ts');
    await write(main, LOCAL_CODE);
    project.server.actions = [{ id: 'h-compare', key: 'compare', metadata: metadata('compare'), code: SERVER_CODE }];
    const shown = await pull(await nodeOf('h-compare'), (m) => (m.modal ? 'Compare' : 'Replace'));
    const diff = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .map((t) => t.input)
      .find((input): input is vscode.TabInputTextDiff => input instanceof vscode.TabInputTextDiff && input.original.toString() === main.toString());
    assert.ok(diff, 'a diff of main.ts is open');
    assert.equal((await vscode.workspace.openTextDocument(diff.modified)).getText(), SERVER_CODE, 'the right side is the server’s code');
    assert.ok(
      shown.some((m) => !m.modal && m.items.includes('Replace')),
      'asked again, without a modal',
    );
    assert.equal(await read(main), SERVER_CODE, 'replaced once the user said so');
  });

  it('Compare, then the question closed: the local files stay, as it says, and pulling again asks again', async () => {
    const main = vscode.Uri.joinPath(project.appFolder, 'compare-later', 'main.ts');
    await write(main, LOCAL_CODE);
    project.server.actions = [{ id: 'h-compare-later', key: 'compare-later', metadata: metadata('compare-later'), code: SERVER_CODE }];
    const closed = await pull(await nodeOf('h-compare-later'), (m) => (m.modal ? 'Compare' : undefined));
    const question = closed.find((m) => !m.modal && m.items.includes('Replace'));
    assert.ok(question, `asked after Compare: ${JSON.stringify(closed)}`);
    assert.match(question.message, /Closing this keeps them; pulling again asks again\./);
    assert.equal(await read(main), LOCAL_CODE, 'closed: the local main.ts is kept');
    const again = await pull(await nodeOf('h-compare-later'), (m) => (m.modal ? 'Replace' : undefined));
    assert.ok(
      again.some((m) => m.modal && m.items.includes('Replace')),
      'pulling again asks again',
    );
    assert.equal(await read(main), SERVER_CODE, 'replaced once the user said so');
  });

  it('does not write through a symbolic link planted where the action’s folder goes', async () => {
    const elsewhere = vscode.Uri.joinPath(workspaceRoot(), '..', 'link-target');
    await vscode.workspace.fs.createDirectory(elsewhere);
    try {
      await symlink(elsewhere.fsPath, vscode.Uri.joinPath(project.appFolder, 'linked').fsPath, 'dir');
      project.server.actions = [{ id: 'h-linked', key: 'linked', metadata: metadata('linked'), code: SERVER_CODE }];
      const shown = await pull(await nodeOf('h-linked'), () => 'Replace');
      assert.deepEqual(await vscode.workspace.fs.readDirectory(elsewhere), [], 'nothing written where the link points');
      assert.ok(
        shown.some((m) => m.severity === 'error' && /symbolic link/.test(m.message)),
        JSON.stringify(shown),
      );
    } finally {
      await vscode.workspace.fs.delete(elsewhere, { recursive: true });
    }
  });

  it('asks nothing when the local files already are the server’s', async () => {
    project.server.actions = [{ id: 'h-same', key: 'same', metadata: metadata('same'), code: SERVER_CODE }];
    const first = await pull(await nodeOf('h-same'), () => 'Replace');
    assert.equal(await read(vscode.Uri.joinPath(project.appFolder, 'same', 'main.ts')), SERVER_CODE);
    const again = await pull(await nodeOf('h-same'), () => 'Replace');
    assert.deepEqual(
      [...first, ...again].filter((m) => m.modal),
      [],
      'no question when nothing local differs',
    );
  });

  it('never touches a file with unsaved changes in an editor', async () => {
    // VS Code for the Web saves after a second by default; on a busy machine that came before the
    // pull, which then rightly asked (and was told Replace) about a saved change. Unsaved changes are
    // what this holds to, so they stay unsaved here.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      await pullOverUnsavedChanges();
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  async function pullOverUnsavedChanges(): Promise<void> {
    const folder = vscode.Uri.joinPath(project.appFolder, 'dirty');
    const main = vscode.Uri.joinPath(folder, 'main.ts');
    await write(vscode.Uri.joinPath(folder, 'action.yaml'), actionYaml('dirty'));
    await write(main, LOCAL_CODE);
    const document = await vscode.workspace.openTextDocument(main);
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(main, new vscode.Position(0, 0), '// unsaved\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(document.isDirty);
    project.server.actions = [{ id: 'h-dirty', key: 'dirty', metadata: metadata('dirty'), code: SERVER_CODE }];
    const shown = await pull(await nodeOf('h-dirty'), () => 'Replace');
    assert.equal(await read(main), LOCAL_CODE, 'the file on disk is unchanged');
    assert.equal(document.getText(), '// unsaved\n' + LOCAL_CODE, 'the editor keeps its unsaved text');
    assert.ok(document.isDirty);
    assert.ok(
      shown.some((m) => /unsaved/.test(m.message)),
      `the user is told: ${JSON.stringify(shown)}`,
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  it('refuses an action whose metadata names another key than the list did', async () => {
    project.server.actions = [{ id: 'h-other', key: 'listed', metadata: metadata('other'), code: SERVER_CODE }];
    const shown = await pull(await nodeOf('h-other'), () => 'Replace');
    assert.equal(await read(vscode.Uri.joinPath(project.appFolder, 'listed', 'action.yaml')), undefined);
    assert.equal(await read(vscode.Uri.joinPath(project.appFolder, 'listed', 'main.ts')), undefined);
    assert.ok(
      shown.some((m) => m.severity === 'error' && /listed/.test(m.message) && /other/.test(m.message)),
      JSON.stringify(shown),
    );
  });
});
