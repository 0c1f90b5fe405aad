import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeHash, metadataHash } from '../../../src/core/deploy/base';
import { LOCAL_SANDBOX } from '../../../src/core/schema';
import { generateTypes } from '../../../src/core/typegen';
import { serializeActionYaml } from '../../../src/core/workspace';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { actionMetadata } from '../../support/metadata';
import { PushProxy } from '../../support/pushProxy';
import { NotificationSpy, type Shown } from '../notifications';
import { api, eventually, staysTrue, workspaceRoot } from '../support';

const APP = 'test-app';
const codeReturning = (expression: string) => `export function main(n: number): number {\n  return ${expression};\n}\n`;

describe('Save on a protected target', function () {
  this.timeout(180_000);
  let services: Services;
  let app: Application;
  let proxy: PushProxy;
  let projectText: string;
  let spy: NotificationSpy | undefined;
  const created: string[] = [];
  const folders = new Set<string>();

  const projectUri = () => vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml');
  const folderOf = (key: string) => vscode.Uri.joinPath(workspaceRoot(), 'actions', key);
  const mainUri = (key: string) => vscode.Uri.joinPath(folderOf(key), 'main.ts');
  const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const onServer = (id: string) => services.connections.call(app, (c) => c.getImplementation(id));

  /** An action in the workspace and on production (the sandbox behind the proxy), with `code` on both. */
  async function action(key: string, code: string): Promise<string> {
    folders.add(key);
    const metadata = actionMetadata({ key, parameters: [{ name: 'n', type: 'number', description: 'A number' }], result: { type: 'number', description: '' } });
    await write(vscode.Uri.joinPath(folderOf(key), 'action.yaml'), serializeActionYaml(metadata));
    await write(vscode.Uri.joinPath(folderOf(key), 'action.generated.ts'), generateTypes(metadata));
    await write(mainUri(key), code);
    const made = await services.connections.call(app, (c) => c.createAction(APP, metadata));
    created.push(made.id);
    const put = await services.connections.call(app, (c) => c.putImplementation(made.id, code));
    services.deploy.recordBases(
      app,
      { id: made.id, key },
      { metadata: { etag: made.etag, hash: metadataHash(metadata) }, implementation: { etag: put.etag, hash: codeHash(code) } },
    );
    services.model.refresh();
    return made.id;
  }

  /** Opens `uri` once the document holds what is on disk, puts `text` in it and saves it by hand. */
  async function saveAs(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
    const onDisk = await read(uri);
    const document = await eventually(async () => {
      const opened = await vscode.workspace.openTextDocument(uri);
      return opened.getText() === onDisk ? opened : undefined;
    }, `${uri.path} as written`);
    const e = await vscode.window.showTextDocument(document, { preview: false });
    const whole = e.document.validateRange(new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0));
    assert.ok(await e.edit((b) => b.replace(whole, text)));
    if (!(await e.document.save())) await eventually(async () => (!e.document.isDirty || (await e.document.save()) ? true : undefined), 'saved', 10_000);
    return e.document;
  }

  /** The offer a save on production makes, once it is shown. */
  const offer = (s: NotificationSpy): Promise<Shown> =>
    eventually(() => s.shown.find((m) => !m.modal && m.items.includes('Push to production…')), 'the offer to push to production');

  before(async () => {
    services = (await api()).services;
    const { actual } = await services.connections.baseUrl();
    const key = await services.keys.get(LOCAL_SANDBOX, APP);
    assert.ok(key, 'the sandbox minted a key');
    proxy = new PushProxy(new URL(actual));
    const base = await proxy.start();
    await services.keys.set(base, APP, key);
    projectText = await read(projectUri());
    // production, the default, protected: the sandbox behind a proxy that counts the pushes.
    await write(projectUri(), projectText + `\ntargets:\n  production:\n    baseUrl: ${base}\n    default: true\n    protected: true\n`);
    const state = await services.project.reload();
    assert.ok(state.kind === 'ok' && state.target.target.name === 'production' && state.target.target.protected && state.baseUrl === base);
    const found = state.applications.find((a) => a.id === APP);
    assert.ok(found);
    app = found;
  });

  afterEach(async () => {
    spy?.dispose();
    spy = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    for (const id of created) await services.connections.call(app, (c) => c.deleteAction(id)).catch(() => undefined);
    for (const key of folders) await vscode.workspace.fs.delete(folderOf(key), { recursive: true }).then(undefined, () => undefined);
    await services.project.pickTarget(undefined);
    await write(projectUri(), projectText);
    await services.project.reload();
    services.model.refresh();
    await proxy.close();
  });

  it('pushes nothing by itself, offers Push to production…, and pushes once the modal is answered', async () => {
    const id = await action('protected-yes', codeReturning('n'));
    spy = new NotificationSpy();
    const before = proxy.implementationPuts(id);
    const text = codeReturning('n + 1 /* for production */');
    await saveAs(mainUri('protected-yes'), text);
    const offered = await offer(spy);
    assert.match(offered.message, /Saved, not pushed: the target production is protected/);
    await staysTrue(() => proxy.implementationPuts(id) === before, 'no push while the offer waits', 1_500);
    assert.equal(await onServer(id), codeReturning('n'));

    offered.answer('Push to production…');
    const asked = await eventually(() => spy!.shown.find((m) => m.modal), 'the modal confirmation');
    assert.match(asked.message, /Push this change to the protected target production\?/);
    assert.deepEqual(asked.items, ['Push to production']);
    assert.equal(proxy.implementationPuts(id), before, 'nothing pushed before the confirmation');
    asked.answer('Push to production');
    await eventually(async () => ((await onServer(id)) === text ? true : undefined), 'the saved text on production');
    assert.equal(proxy.implementationPuts(id) - before, 1, 'one push');
  });

  it('pushes nothing when the modal is dismissed, and the edit stays saved in the file', async () => {
    const id = await action('protected-no', codeReturning('n'));
    spy = new NotificationSpy();
    const before = proxy.implementationPuts(id);
    const text = codeReturning('n + 2 /* not for production */');
    const document = await saveAs(mainUri('protected-no'), text);
    (await offer(spy)).answer('Push to production…');
    const asked = await eventually(() => spy!.shown.find((m) => m.modal), 'the modal confirmation');
    asked.answer(undefined);
    await staysTrue(() => proxy.implementationPuts(id) === before, 'no push after the dismissal', 2_000);
    assert.equal(await onServer(id), codeReturning('n'));
    assert.equal(document.getText(), text, 'the editor keeps the edit');
    assert.equal(document.isDirty, false);
    assert.equal(await read(mainUri('protected-no')), text, 'the file holds it');
  });

  it('pushes nothing to production when the target was switched before the confirmation', async () => {
    const id = await action('protected-switched', codeReturning('n'));
    spy = new NotificationSpy();
    const before = proxy.implementationPuts(id);
    await saveAs(mainUri('protected-switched'), codeReturning('n + 3'));
    (await offer(spy)).answer('Push to production…');
    const asked = await eventually(() => spy!.shown.find((m) => m.modal), 'the modal confirmation');
    await services.project.pickTarget('default');
    asked.answer('Push to production');
    await eventually(() => spy!.matching(/Nothing pushed to production: the target is now default/)[0], 'the user is told');
    assert.equal(proxy.implementationPuts(id), before);
    await services.project.pickTarget('production');
  });
});
