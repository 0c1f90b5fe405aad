import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../../../src/core/schema';
import { type ActionNode, type ApplicationNode, type TreeNode } from '../../../src/extension/tree/nodes';
import { api, eventually, workspaceRoot } from '../support';
import { NotificationSpy } from '../notifications';

/**
 * The applications tree and the action commands against the real sandbox, started by the extension
 * itself because the fixture's customactions.yaml says `baseUrl: local-sandbox`. Each test makes the
 * actions it needs under keys of its own, so the tests hold in any order and beside other suites.
 */
describe('Applications tree and action commands (sandbox)', function () {
  this.timeout(120_000);

  async function appNode(id: string): Promise<ApplicationNode> {
    const { services } = await api();
    const roots = await services.tree.getChildren();
    const node = roots.find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === id);
    assert.ok(node, `application ${id} in the tree`);
    return node;
  }

  async function actions(id: string): Promise<TreeNode[]> {
    const { services } = await api();
    services.model.refresh();
    return services.tree.getChildren(await appNode(id));
  }

  async function action(appId: string, key: string): Promise<ActionNode | undefined> {
    return (await actions(appId)).find((n): n is ActionNode => n.kind === 'action' && n.key === key);
  }

  async function client(appId: string) {
    const { services } = await api();
    return services.connections.client((await appNode(appId)).app);
  }

  let made = 0;
  /** A key no other test uses. */
  function uniqueKey(prefix: string): string {
    return `${prefix}-${Date.now().toString(36)}-${++made}`;
  }

  function folderOf(key: string): vscode.Uri {
    return vscode.Uri.joinPath(workspaceRoot(), 'actions', key);
  }

  /** An action only in the workspace: its action.yaml, nothing on the server. */
  async function localOnly(key: string, name = 'Local only'): Promise<ActionNode> {
    const yaml = `key: ${key}\nname: ${name}\ndescription: ""\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n`;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folderOf(key), 'action.yaml'), new TextEncoder().encode(yaml));
    return eventually(async () => action('test-app', key), `${key} in the tree`);
  }

  /** An action in the workspace and on the server, made with New Action as a user would. */
  async function synced(key: string, name: string): Promise<ActionNode> {
    await vscode.commands.executeCommand('customActions.newAction', await appNode('test-app'), { key, name, developerEmail: 'dev@example.com' });
    return eventually(async () => {
      const node = await action('test-app', key);
      return node?.state === 'synced' ? node : undefined;
    }, `${key} synced`);
  }

  it('shows the applications of customactions.yaml', async () => {
    const { services } = await api();
    const roots = await services.tree.getChildren();
    assert.deepEqual(
      roots.map((n) => (n.kind === 'application' ? n.app.label : n.kind)),
      ['Test App', 'Other App'],
    );
  });

  it('starts the sandbox on first expand and keeps a key per application only in SecretStorage', async () => {
    const { services } = await api();
    const children = await actions('test-app');
    assert.equal(services.sandbox.state.kind, 'running');
    assert.ok(
      children.every((c) => c.kind === 'action' || (c.kind === 'message' && c.text === 'No actions yet')),
      JSON.stringify(children.map((c) => (c.kind === 'message' ? c.text : c.kind))),
    );
    const key = await services.keys.get(LOCAL_SANDBOX, 'test-app');
    assert.ok(key && key.length >= 16, 'a key was stored');
    assert.ok(await services.keys.get(LOCAL_SANDBOX, 'other-app'));
    const files = await vscode.workspace.findFiles('**/*');
    for (const file of files) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      assert.ok(!text.includes(key), `${file.path} holds no key`);
    }
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration().inspect('customActions')).includes(key));
  });

  it('New Action writes the folder and creates the action on the server', async () => {
    const key = uniqueKey('greet');
    await vscode.commands.executeCommand('customActions.newAction', await appNode('test-app'), { key, name: 'Greet', developerEmail: 'dev@example.com' });
    for (const file of ['action.yaml', 'main.ts', 'action.generated.ts']) await vscode.workspace.fs.stat(vscode.Uri.joinPath(folderOf(key), file));
    const listed = await (await client('test-app')).listActions('test-app');
    assert.ok(listed.some((a) => a.key === key));
    const node = await action('test-app', key);
    assert.equal(node?.state, 'synced');
    assert.ok(node?.remote?.eventsUrls.Test && node.remote.eventsUrls.Live);
  });

  it('shows an action only in the workspace as not created, and Create on Server creates it', async () => {
    const key = uniqueKey('local-only');
    const node = await localOnly(key);
    assert.equal(node.state, 'local');
    await vscode.commands.executeCommand('customActions.createOnServer', node);
    assert.equal((await action('test-app', key))?.state, 'synced');
  });

  it('shows an action only on the server, and Pull Action brings its full metadata and code', async () => {
    const c = await client('test-app');
    const key = uniqueKey('server-only');
    const metadata = {
      key,
      name: 'Server only',
      description: 'made elsewhere',
      developerEmail: 'dev@example.com',
      parameters: [{ name: 'n', type: 'number' as const }],
      result: { type: 'number' as const },
    };
    const created = await c.createAction('test-app', metadata);
    await c.putImplementation(created.id, 'export function main(n: number): number {\n  return n * 2;\n}\n');
    const node = await action('test-app', key);
    assert.equal(node?.state, 'remote');
    await vscode.commands.executeCommand('customActions.pullAction', node);
    const folder = folderOf(key);
    const yaml = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'action.yaml')));
    assert.match(yaml, /description: made elsewhere/);
    assert.match(yaml, /- name: n\n\s+type: number/);
    const code = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'main.ts')));
    assert.equal(code, 'export function main(n: number): number {\n  return n * 2;\n}\n');
    assert.equal((await action('test-app', key))?.state, 'synced');
  });

  it('marks a name changed locally', async () => {
    const key = uniqueKey('renamed');
    await synced(key, 'Greet');
    const file = vscode.Uri.joinPath(folderOf(key), 'action.yaml');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text.replace('name: Greet', 'name: Greet Everyone')));
    const node = await eventually(async () => {
      const found = await action('test-app', key);
      return found?.state === 'changed' ? found : undefined;
    }, 'the changed name');
    assert.equal(node?.change, 'name changed locally (server: Greet)');
  });

  it('keeps applications apart: a key of one application does not see the other', async () => {
    const key = uniqueKey('only-in-test-app');
    await synced(key, 'Only in Test App');
    const other = await actions('other-app');
    assert.ok(
      other.every((n) => n.kind !== 'action' || n.key !== key),
      'other-app has no actions of test-app',
    );
  });

  it('on a refused key (401) shows it on the node, prompts once for many failures, and recovers with a new key', async () => {
    const { services } = await api();
    const good = await services.keys.get(LOCAL_SANDBOX, 'test-app');
    assert.ok(good);
    // The prompt is a warning with a button: the spy counts it and leaves it open until the end.
    const spy = new NotificationSpy();
    try {
      await services.keys.set(LOCAL_SANDBOX, 'test-app', 'not-a-valid-key-0000');
      const app = await appNode('test-app');
      services.model.refresh();
      const results = await Promise.all([1, 2, 3].map(() => services.tree.getChildren(app)));
      for (const children of results) {
        assert.deepEqual(
          children.map((c) => (c.kind === 'message' ? `${c.icon}: ${c.text}` : c.kind)),
          ['key: The key was refused: sign in again'],
        );
      }
      assert.equal(spy.matching(/refused the key/).length, 1, 'one prompt for three refused requests');
      await services.keys.set(LOCAL_SANDBOX, 'test-app', good);
      assert.ok(
        (await actions('test-app')).every((n) => n.kind !== 'message' || n.icon !== 'key'),
        'the new key is taken',
      );
    } finally {
      spy.dispose();
      await services.keys.set(LOCAL_SANDBOX, 'test-app', good);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('Delete Action deletes on the server and keeps the local folder unless asked', async () => {
    const key = uniqueKey('to-delete');
    await vscode.commands.executeCommand('customActions.createOnServer', await localOnly(key));
    const node = await eventually(async () => {
      const found = await action('test-app', key);
      return found?.state === 'synced' ? found : undefined;
    }, `${key} on the server`);
    await vscode.commands.executeCommand('customActions.deleteAction', node, { confirmed: true });
    const listed = await (await client('test-app')).listActions('test-app');
    assert.ok(!listed.some((a) => a.key === key));
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(folderOf(key), 'action.yaml'));
    assert.equal((await action('test-app', key))?.state, 'local');
  });

  it('shows the error on the node, with Retry, when the server is gone', async () => {
    const { services } = await api();
    const key = uniqueKey('survives-a-stop');
    await synced(key, 'Survives a Stop');
    await vscode.commands.executeCommand('customActions.stopSandbox');
    assert.equal(services.sandbox.state.kind, 'stopped');
    // The next expand starts it again: a stopped sandbox is not an error for the user.
    const children = await actions('test-app');
    assert.ok(children.some((n) => n.kind === 'action' && n.key === key && n.state === 'synced'));
    assert.equal(services.sandbox.state.kind, 'running');
  });
});
