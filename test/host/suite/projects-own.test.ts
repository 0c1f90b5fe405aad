import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../../../src/core/schema';
import { type Application, type Project } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { type PromoteResult } from '../../../src/extension/targets/promote';
import { actionMetadata } from '../../support/metadata';
import { NotificationSpy } from '../notifications';
import { api, eventually, fixtureApplication, workspaceRoot } from '../support';
import { closeEditors, readText as read, sandboxKeyAt, writeText as write } from '../suiteFixture';

const code = (word: string) => `export function main(): string {\n  return '${word}';\n}\n`;

/** A project nested in the workspace's folder, read beside the fixture's (its watcher is projects.test.ts's subject, not this file's). */
async function nestedProject(services: Services, root: vscode.Uri, text: string): Promise<Project> {
  await write(vscode.Uri.joinPath(root, 'customactions.yaml'), text);
  await services.project.reload();
  let seen = '';
  const check = async () => {
    const all = await services.project.all();
    const found = all.find((p) => p.root.toString() === root.toString());
    seen = found?.kind === 'invalid' ? found.message : `not among ${all.map((p) => p.root.path).join(', ')}`;
    return found?.kind === 'ok' ? found : undefined;
  };
  return eventually(check, `the project of ${root.path}`).catch((error: unknown) => {
    throw new Error(`${String(error)}: ${seen}`);
  });
}

/** Opens a file of a project in an editor: the commands and the status bar then mean that project. */
async function edit(uri: vscode.Uri): Promise<void> {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  await eventually(() => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() || undefined, `${uri.path} active`);
}

/**
 * Promote in a second project (nested in the fixture's folder) works on that project: its targets, its
 * applications, its lock, never the first project's (which names no targets at all). Its targets are
 * the extension's sandbox four ways: `default` is the local sandbox itself (other-app), `staging` and
 * `production` the same process by its URL, other-app being test-app on production, and `scratch` the
 * local sandbox again, other-app being scratch-app there (which no project's active target names).
 */
describe('Several projects: Promote in the second project', function () {
  this.timeout(180_000);
  let services: Services;
  let outerTestApp: Application;
  let outerOtherApp: Application;
  let inner: Project;
  const root = () => vscode.Uri.joinPath(workspaceRoot(), 'nested-promote');
  const made: { app: Application; key: string }[] = [];
  const keysSet: { server: string; id: string }[] = [];

  const idOf = async (app: Application, key: string) => (await services.connections.call(app, (c) => c.listActions(app.id))).find((a) => a.key === key)?.id;
  /** An action of the sandbox's other-app running `text` (other-app on the nested project's default and staging targets). */
  async function onOtherApp(key: string, text: string): Promise<void> {
    const { id } = await services.connections.call(outerOtherApp, (c) => c.createAction('other-app', actionMetadata({ key })));
    made.push({ app: outerOtherApp, key });
    await services.connections.call(outerOtherApp, (c) => c.putImplementation(id, text));
  }
  async function promote(arg: object): Promise<PromoteResult> {
    await edit(vscode.Uri.joinPath(root(), 'customactions.yaml'));
    const spy = new NotificationSpy((m) => (m.modal ? 'Promote to production' : undefined));
    try {
      const result = await vscode.commands.executeCommand<PromoteResult | undefined>('customActions.promote', arg);
      assert.ok(result, `Promote ended without a result: ${JSON.stringify(spy.shown.filter((m) => m.severity === 'error').map((m) => m.message))}`);
      return result;
    } finally {
      spy.dispose();
    }
  }

  before(async () => {
    services = (await api()).services;
    outerTestApp = await fixtureApplication(services, 'test-app');
    outerOtherApp = await fixtureApplication(services, 'other-app');
    const { actual } = await services.connections.baseUrl(outerTestApp);
    for (const id of ['test-app', 'other-app']) {
      if (!(await services.keys.has(actual, id))) keysSet.push({ server: actual, id });
      await sandboxKeyAt(services, actual, id);
    }
    inner = await nestedProject(
      services,
      root(),
      `baseUrl: ${LOCAL_SANDBOX}\napplications:\n  - id: other-app\n    name: Nested\n    folder: ops\n` +
        `targets:\n  staging:\n    baseUrl: ${actual}\n  production:\n    baseUrl: ${actual}\n    applications:\n      other-app: test-app\n` +
        `  scratch:\n    baseUrl: ${LOCAL_SANDBOX}\n    applications:\n      other-app: scratch-app\n`,
    );
  });

  after(async () => {
    await closeEditors();
    for (const { app, key } of made)
      for (const on of [app, outerTestApp]) {
        const id = await idOf(on, key).catch(() => undefined);
        if (id !== undefined) await services.connections.call(on, (c) => c.deleteAction(id)).catch(() => undefined);
      }
    for (const { server, id } of keysSet) await services.keys.delete(server, id);
    await vscode.workspace.fs.delete(root(), { recursive: true }).then(undefined, () => undefined);
    await services.project.reload();
    services.model.refresh();
  });

  it("promotes the second project's actions, from its staging to its production, and records them in its own lock", async () => {
    assert.equal(services.project.projects.length, 2, 'the fixture and the nested project');
    assert.equal((await services.project.all())[0]?.root.toString(), workspaceRoot().toString(), 'the fixture is the first project');
    await onOtherApp('nested-promo', code('nested'));
    const result = await promote({ from: 'staging', to: 'production', actions: ['nested-promo'] });
    assert.equal(result.verdict, 'ready');
    assert.deepEqual(
      result.outcomes?.map((o) => [o.application, o.key]),
      [['test-app', 'nested-promo']],
      "production's id of the nested project's application",
    );
    const id = await idOf(outerTestApp, 'nested-promo');
    assert.ok(id, 'the action is on production (test-app)');
    assert.equal(await services.connections.call(outerTestApp, (c) => c.getImplementation(id)), code('nested'));
    const lock = await read(vscode.Uri.joinPath(inner.root, 'customactions.lock.json'));
    assert.match(lock, /"test-app"[\s\S]*"nested-promo"/, "the nested project's lock holds production's base");
    const outerLock = await read(vscode.Uri.joinPath(workspaceRoot(), 'customactions.lock.json')).catch(() => '');
    assert.ok(!outerLock.includes('nested-promo'), "the first project's lock is untouched");
  });

  it('promotes from a target that is the local sandbox: the source read through the running sandbox with its own key', async () => {
    await onOtherApp('nested-sandbox', code('from the sandbox'));
    const result = await promote({ from: 'default', to: 'production', actions: ['nested-sandbox'] });
    assert.equal(result.verdict, 'ready');
    assert.deepEqual(
      result.outcomes?.map((o) => [o.application, o.key]),
      [['test-app', 'nested-sandbox']],
    );
    const id = await idOf(outerTestApp, 'nested-sandbox');
    assert.ok(id, 'the action is on production (test-app)');
    assert.equal(await services.connections.call(outerTestApp, (c) => c.getImplementation(id)), code('from the sandbox'));
    const lock = await read(vscode.Uri.joinPath(inner.root, 'customactions.lock.json'));
    assert.match(lock, /"nested-sandbox"/, "production's base recorded in the nested project's lock");
  });

  // Last: it restarts the sandbox, whose new port the staging and production above do not follow.
  it("from a local sandbox target with an application the running sandbox lacks: one restart, which keeps every project's applications", async () => {
    const starts: string[] = [];
    const listener = services.sandbox.onDidChangeState((state) => void (state.kind === 'starting' && starts.push(state.kind)));
    try {
      const result = await promote({ from: 'scratch', to: 'default', actions: ['nothing-here'] });
      assert.equal(result.verdict, 'empty', 'scratch-app holds no action');
      // The first project's applications are still served: a request of theirs starts nothing.
      await services.connections.call(outerTestApp, (c) => c.listActions('test-app'));
      await services.connections.call(outerOtherApp, (c) => c.listActions('other-app'));
      assert.deepEqual(starts, ['starting'], "one start, with the target's application and every project's");
    } finally {
      listener.dispose();
    }
  });
});

/** A loopback port nothing listens on: a request there is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

/**
 * The status bar names the project of the file being edited, and whether that project's server
 * answered: the first project's requests (the sandbox answering) never mark a second project's
 * server, which nothing listens on, as reachable.
 */
describe("Several projects: the status bar tells the shown project's server", function () {
  this.timeout(120_000);
  let services: Services;
  const root = () => vscode.Uri.joinPath(workspaceRoot(), 'nested-far');
  let far: string;

  before(async () => {
    services = (await api()).services;
    far = `http://127.0.0.1:${await closedPort()}`;
  });

  after(async () => {
    await closeEditors();
    await services.keys.delete(far, 'far-app');
    await vscode.workspace.fs.delete(root(), { recursive: true }).then(undefined, () => undefined);
    await services.project.reload();
    services.model.refresh();
  });

  it("shows the second project's server unreachable while the first project's answers, and each its own when its file is edited", async () => {
    const outer = await fixtureApplication(services, 'test-app');
    await services.keys.set(far, 'far-app', 'a key');
    const inner = await nestedProject(services, root(), `baseUrl: ${far}\napplications:\n  - id: far-app\n    folder: far\n`);
    const farApp = inner.applications[0]!;
    const item = services.statusBar.item;
    const port = new URL(far).port;

    await edit(vscode.Uri.joinPath(root(), 'customactions.yaml'));
    await eventually(() => item.text.includes(`127.0.0.1:${port}`) || undefined, 'the status bar names the nested project');
    await assert.rejects(services.connections.call(farApp, (c) => c.listActions('far-app')));
    const tooltip = () => (typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? ''));
    await eventually(() => /\(unreachable: /.test(tooltip()) || undefined, `the nested project's server unreachable: ${tooltip()}`);

    // The first project's server answers: the nested project's mark stays its own.
    await services.connections.call(outer, (c) => c.listActions('test-app'));
    assert.match(tooltip(), /\(unreachable: /, 'the first project answering does not make the second one reachable');
    assert.doesNotMatch(tooltip(), /\(reachable\)/);

    // The fixture's file: its own server's mark, learnt from that request.
    await edit(vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml'));
    await eventually(() => /Local Sandbox/.test(item.text) || undefined, 'the status bar names the first project');
    assert.match(tooltip(), /\(reachable\)/, "the first project's server answered");
    assert.doesNotMatch(tooltip(), /unreachable/);

    // And back: the nested project's server is still the one that did not answer.
    await edit(vscode.Uri.joinPath(root(), 'customactions.yaml'));
    await eventually(() => item.text.includes(`127.0.0.1:${port}`) || undefined, 'the status bar names the nested project again');
    assert.match(tooltip(), /\(unreachable: /);
  });
});
