import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../../../src/core/schema';
import { type ActionNode, type ApplicationNode, type TreeNode } from '../../../src/extension/tree/nodes';
import { api, eventually, workspaceRoot } from '../support';

/**
 * The applications tree and the action commands against the real sandbox, started by the extension
 * itself because the fixture's customactions.yaml says `baseUrl: local-sandbox`.
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

  it('shows the applications of customactions.yaml', async () => {
    const { services } = await api();
    const roots = await services.tree.getChildren();
    assert.deepEqual(
      roots.map((n) => (n.kind === 'application' ? n.app.label : n.kind)),
      ['Test App', 'Other App'],
    );
    assert.equal(services.tree.state, 'ready');
  });

  it('starts the sandbox on first expand and keeps a key per application only in SecretStorage', async () => {
    const { services } = await api();
    const children = await actions('test-app');
    assert.equal(services.sandbox.state.kind, 'running');
    assert.deepEqual(
      children.map((c) => (c.kind === 'message' ? c.text : c.kind)),
      ['No actions yet'],
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
    await vscode.commands.executeCommand('customActions.newAction', await appNode('test-app'), {
      key: 'greet',
      name: 'Greet',
      developerEmail: 'dev@example.com',
    });
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', 'greet');
    for (const file of ['action.yaml', 'main.ts', 'action.generated.ts']) await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, file));
    const listed = await (await client('test-app')).listActions('test-app');
    assert.deepEqual(
      listed.map((a) => a.key),
      ['greet'],
    );
    const node = await action('test-app', 'greet');
    assert.equal(node?.state, 'synced');
    assert.ok(node?.remote?.eventsUrls.Test && node.remote.eventsUrls.Live);
  });

  it('shows an action only in the workspace as not created, and Create on Server creates it', async () => {
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', 'local-only');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder, 'action.yaml'),
      new TextEncoder().encode('key: local-only\nname: Local only\ndescription: ""\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n'),
    );
    const node = await eventually(async () => action('test-app', 'local-only'), 'the local action in the tree');
    assert.equal(node.state, 'local');
    await vscode.commands.executeCommand('customActions.createOnServer', node);
    assert.equal((await action('test-app', 'local-only'))?.state, 'synced');
  });

  it('shows an action only on the server, and Pull Action brings its full metadata and code', async () => {
    const c = await client('test-app');
    const metadata = {
      key: 'server-only',
      name: 'Server only',
      description: 'made elsewhere',
      developerEmail: 'dev@example.com',
      parameters: [{ name: 'n', type: 'number' as const }],
      result: { type: 'number' as const },
    };
    const created = await c.createAction('test-app', metadata);
    await c.putImplementation(created.id, 'export function main(n: number): number {\n  return n * 2;\n}\n');
    const node = await action('test-app', 'server-only');
    assert.equal(node?.state, 'remote');
    await vscode.commands.executeCommand('customActions.pullAction', node);
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', 'server-only');
    const yaml = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'action.yaml')));
    assert.match(yaml, /description: made elsewhere/);
    assert.match(yaml, /- name: n\n\s+type: number/);
    const code = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'main.ts')));
    assert.equal(code, 'export function main(n: number): number {\n  return n * 2;\n}\n');
    assert.equal((await action('test-app', 'server-only'))?.state, 'synced');
  });

  it('marks a name changed locally', async () => {
    const file = vscode.Uri.joinPath(workspaceRoot(), 'actions', 'greet', 'action.yaml');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text.replace('name: Greet', 'name: Greet Everyone')));
    const node = await action('test-app', 'greet');
    assert.equal(node?.state, 'changed');
    assert.equal(node?.change, 'name changed locally (server: Greet)');
  });

  it('keeps applications apart: a key of one application does not see the other', async () => {
    const other = await actions('other-app');
    assert.ok(
      other.every((n) => n.kind !== 'action'),
      'other-app has no actions of test-app',
    );
  });

  it('on a refused key (401) shows it on the node, prompts once for many failures, and recovers with a new key', async () => {
    const { services } = await api();
    const good = await services.keys.get(LOCAL_SANDBOX, 'test-app');
    assert.ok(good);
    let prompts = 0;
    const listener = services.connections.onDidPromptForKey(() => prompts++);
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
      assert.equal(prompts, 1, 'one prompt for three refused requests');
      await services.keys.set(LOCAL_SANDBOX, 'test-app', good);
      assert.ok((await actions('test-app')).some((n) => n.kind === 'action'));
    } finally {
      listener.dispose();
      await services.keys.set(LOCAL_SANDBOX, 'test-app', good);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('Delete Action deletes on the server and keeps the local folder unless asked', async () => {
    const node = await action('test-app', 'local-only');
    await vscode.commands.executeCommand('customActions.deleteAction', node, { confirmed: true });
    const listed = await (await client('test-app')).listActions('test-app');
    assert.ok(!listed.some((a) => a.key === 'local-only'));
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(workspaceRoot(), 'actions', 'local-only', 'action.yaml'));
    assert.equal((await action('test-app', 'local-only'))?.state, 'local');
  });

  it('shows the error on the node, with Retry, when the server is gone', async () => {
    const { services } = await api();
    await vscode.commands.executeCommand('customActions.stopSandbox');
    assert.equal(services.sandbox.state.kind, 'stopped');
    // The next expand starts it again: a stopped sandbox is not an error for the user.
    const children = await actions('test-app');
    assert.ok(children.some((n) => n.kind === 'action'));
    assert.equal(services.sandbox.state.kind, 'running');
  });
});
