import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeHash } from '../../../src/core/deploy/base';
import { LOCAL_SANDBOX } from '../../../src/core/schema';
import { historyItems } from '../../../src/extension/deploy/historyView';
import { lastInputs, rememberInputs } from '../../../src/extension/events/lastInputs';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { lockedAction, lockedPart, readLock } from '../lockFile';
import { api, codeWith, eventually, fixtureApplication } from '../support';
import { actionFolder, spyPerTest, numberAction, projectOn, type ProjectElsewhere, writeActionFiles, writeText } from '../suiteFixture';

const APP = 'test-app';
const KEY = 'scoped-deploy';

const metadata = numberAction(KEY, { name: 'Scoped deploy', description: 'An action whose past belongs to one server.' });

/**
 * Issue #25, 4 and 5: what the extension remembers of one server is never offered to another, and a
 * merge never trusts a base the server makes up. "Another server" is the same sandbox behind a proxy:
 * the same application and action ids under another base URL, as a workspace pointed elsewhere sees.
 */
describe('Security: deploy records stay with their server, and Merge trusts no base it is handed', function () {
  this.timeout(180_000);
  let services: Services;
  let sandboxApp: Application;
  let app: Application;
  let proxy: FaultProxy;
  let project: ProjectElsewhere;
  let id: string;
  /** While set, the proxy answers every read of a kept version of the code with this text: a made-up base. */
  let madeUpBase: string | undefined;
  const secretCode = codeWith("'sandbox secret'.length", '7');
  const folder = () => actionFolder(KEY);
  const main = () => vscode.Uri.joinPath(folder(), 'main.ts');

  before(async () => {
    services = (await api()).services;
    sandboxApp = await fixtureApplication(services, APP);
    // Pushed from here to the sandbox: a history entry, a base and remembered inputs of that server.
    await writeActionFiles(folder(), metadata, secretCode);
    id = (await services.connections.call(sandboxApp, (c) => c.createAction(APP, metadata))).id;
    services.model.refresh();
    assert.equal((await services.deploy.pushCode(main(), secretCode)).kind, 'pushed');
    const sandbox = (await services.connections.baseUrl()).logical;
    await eventually(
      async () => ((await services.deploy.actionHistory({ server: sandbox, appId: sandboxApp.id }, id)).length === 1 ? true : undefined),
      'the push in the history of the sandbox',
    );
    await lockedPart(services, sandboxApp, id, 'implementation', (b) => b?.etag !== undefined, 'a base of the sandbox in the lock');
    await rememberInputs(services, { remoteId: id, key: KEY, at: folder() }, { n: 42 });
    assert.deepEqual(lastInputs(services, { remoteId: id, key: KEY, at: folder() }), { n: 42 });

    // The workspace now points at another server that uses the same ids.
    const { actual } = await services.connections.baseUrl();
    proxy = await startFaultProxy({
      target: actual,
      rate: 0,
      seed: 1,
      rewrite: (method, path) =>
        method === 'GET' && madeUpBase !== undefined && /^\/api\/actions\/[^/]+\/versions\/implementation\/\d+$/.test(path)
          ? Buffer.from(madeUpBase)
          : undefined,
    });
    project = await projectOn(services, proxy.url);
    app = project.app;
    services.model.refresh();
  });

  // Whatever the tests make the extension show is answered by nobody, and their editors are closed.
  spyPerTest(() => undefined);

  afterEach(() => {
    madeUpBase = undefined;
  });

  after(async () => {
    await project.restore();
    await services.connections.call(sandboxApp, (c) => c.deleteAction(id)).catch(() => undefined);
    await vscode.workspace.fs.delete(folder(), { recursive: true }).then(undefined, () => undefined);
    services.model.refresh();
    await proxy.close();
  });

  it("offers none of the other server's history, base or inputs for the same ids, so Redeploy cannot send its code", async () => {
    const action = await eventually(async () => {
      const found = await services.model.actionAt(main());
      return found?.local && found.remote ? { ...found, local: found.local, remote: found.remote } : undefined;
    }, 'the action seen through the other server');
    assert.equal(action.remote.id, id, 'the same id on the other server');
    const items = await historyItems(services, { action, parts: ['implementation'] });
    assert.deepEqual(
      items.filter((i) => i.source === 'local'),
      [],
      'no push to the sandbox is offered here',
    );
    assert.equal(await lockedAction(services, app, id), undefined, "the sandbox's base is not this server's");
    assert.ok((await readLock()).keys(LOCAL_SANDBOX, APP).length > 0, "the sandbox's bases are kept in the lock, under its name");
    assert.deepEqual(lastInputs(services, { remoteId: id, key: KEY, at: folder() }), {}, "the inputs entered for the sandbox's action are not offered");
    // Back on the sandbox, its records are there again: scoped, not lost.
    const sandboxHistory = await services.deploy.actionHistory({ server: LOCAL_SANDBOX, appId: APP }, id);
    assert.equal(sandboxHistory[0]?.content, secretCode);
  });

  it("merges against no base when the server's base is not the one recorded here: the user's change shows as a conflict", async () => {
    // A base of this server, recorded by a push from here.
    const first = codeWith('1', '7');
    await writeText(main(), first);
    // No base of this server: the server holds code this workspace never had here, so the push is held, not sent.
    assert.equal((await services.deploy.pushCode(main(), first)).kind, 'held');
    assert.equal(await services.connections.call(app, (c) => c.getImplementation(id)), secretCode, 'nothing sent');
    await services.deploy.overwrite(folder(), 'implementation');
    assert.equal(await services.connections.call(app, (c) => c.getImplementation(id)), first, 'Overwrite replaced the version it was told about');
    await lockedPart(services, app, id, 'implementation', (b) => b?.hash === codeHash(first), 'a base of this server in the lock');
    await services.connections.call(app, (c) => c.putImplementation(id, codeWith('1', '70')));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main()), { preview: false });
    const mine = codeWith('10', '7');
    assert.ok(await editor.edit((b) => b.replace(editor.document.validateRange(new vscode.Range(0, 0, 99, 0)), mine)));
    const held = await services.deploy.pushCode(main(), mine);
    assert.equal(held.kind, 'held', 'held: the action changed on the server');

    // The server hands the user's own text as the base: merged against it, the user's change would vanish.
    madeUpBase = mine;
    const outcome = await services.deploy.merge({ app, folder: folder(), id, part: 'implementation', label: KEY });
    assert.equal(outcome.kind, 'merged');
    const text = editor.document.getText();
    assert.ok(outcome.kind === 'merged' && outcome.conflicts > 0, `every difference is a conflict:\n${text}`);
    assert.ok(text.includes('const a = 10;'), "the user's change is in the result");
    assert.match(text, /^<<<<<<< Local/m);
    assert.equal(await services.connections.call(app, (c) => c.getImplementation(id)), codeWith('1', '70'), 'nothing pushed');
  });
});
