import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeHash, metadataHash } from '../../../src/core/deploy/base';
import { serializeActionYaml } from '../../../src/core/workspace';
import { type HostMessage, type StateMessage } from '../../../src/core/webview';
import { type DeployFeature } from '../../../src/extension/deploy';
import { MERGE, OVERWRITE } from '../../../src/extension/deploy/conflicts';
import { FormSession } from '../../../src/extension/form/session';
import { PULLED_SCHEME } from '../../../src/extension/heldTexts';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { lockedAction, lockedPart } from '../lockFile';
import { type NotificationSpy } from '../notifications';
import { api, codeWith, eventually, fixtureApplication, regainWindowFocus, removeActions, staysTrue } from '../support';
import {
  actionFolder,
  spyPerTest,
  mainOf,
  numberAction,
  projectOn,
  type ProjectElsewhere,
  readText,
  saveText,
  writeActionFiles,
  writeText,
} from '../suiteFixture';

const APP = 'test-app';

const metadataOf = (key: string, resultDescription = '') =>
  numberAction(key, { name: `Conflict ${key}`, description: 'An action two people deploy.', result: { type: 'number', description: resultDescription } });

/**
 * Safe deploy against the extension's sandbox: a direct REST write stands in for a colleague who
 * deployed the same action in between.
 */
describe('Safe deploy: conflicts with changes on the server', function () {
  this.timeout(180_000);
  let services: Services;
  let app: Application;
  let deploy: DeployFeature;
  let spy: NotificationSpy;
  const created: string[] = [];
  const folders = new Set<string>();

  const yamlUri = (key: string) => vscode.Uri.joinPath(actionFolder(key), 'action.yaml');
  const onServer = (id: string) => services.connections.call(app, (c) => c.getImplementation(id));
  /** The colleague: a write straight to the server, with no condition. */
  const colleaguePushes = (id: string, code: string) => services.connections.call(app, (c) => c.putImplementation(id, code));

  /** An action in the workspace and on the server with `code`, whose base is known (pushed once from here). */
  async function action(key: string, code: string): Promise<string> {
    folders.add(key);
    const metadata = metadataOf(key);
    await writeActionFiles(actionFolder(key), metadata, code);
    const { id } = await services.connections.call(app, (c) => c.createAction(APP, metadata));
    created.push(id);
    services.model.refresh();
    const first = await deploy.pushCode(mainOf(key), code);
    assert.equal(first.kind, 'pushed', `the first push went through: ${JSON.stringify(first)}`);
    await lockedPart(services, app, id, 'implementation', (b) => b?.etag !== undefined && b.hash === codeHash(code), 'the push recorded its base in the lock');
    return id;
  }

  async function editorOf(uri: vscode.Uri): Promise<vscode.TextEditor> {
    return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  }

  /** Saves `text` in the editor by hand, as the user would: the save pushes. */
  const save = saveText;

  /** Ctrl+S on the document, as the user saves by hand, once an auto-save of it (on by default here) is done. */
  async function saveByHand(document: vscode.TextDocument): Promise<void> {
    await eventually(() => (!document.isDirty ? true : undefined), 'auto-saved');
    await vscode.window.showTextDocument(document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.save');
  }

  /** action.yaml saved by hand as it is, as the user does: the save pushes it, and its base is in the lock. */
  async function metadataSaved(key: string, id: string): Promise<void> {
    await saveByHand((await editorOf(yamlUri(key))).document);
    await lockedPart(
      services,
      app,
      id,
      'metadata',
      (b) => b?.etag !== undefined && b.hash === metadataHash(metadataOf(key)),
      'the save of action.yaml recorded its base in the lock',
    );
  }

  const serverHolds = (id: string, code: string) =>
    eventually(async () => ((await onServer(id)) === code ? true : undefined), 'the server holds the pushed code');

  // The held push's notification, with its choices (each test's action has a key of its own).
  const offered = (key: string, kind: 'code' | 'metadata' = 'code') =>
    eventually(
      () =>
        spy
          .matching(new RegExp(`^${key} (changed on the server|on the server holds).*your ${kind} was not pushed`))
          .find((n) => n.items.includes(MERGE) && n.items.includes(OVERWRITE)),
      `the conflict of ${key} is offered`,
    );

  const notification = (pattern: RegExp) => eventually(() => spy.matching(pattern).at(-1), `a notification matching ${pattern}`);

  before(async () => {
    services = (await api()).services;
    app = await fixtureApplication(services, APP);
    deploy = services.deploy;
  });

  spyPerTest((s) => (spy = s));

  after(() => removeActions(services, app, created, [...folders].map(actionFolder)));

  it('checks the first code of an action created here: code a colleague pushed since the create is held, not replaced', async () => {
    const key = 'conflict-first';
    folders.add(key);
    const metadata = metadataOf(key);
    await writeActionFiles(actionFolder(key), metadata);
    services.model.refresh();
    // No main.ts yet, so Create on Server sends the metadata alone.
    await vscode.commands.executeCommand('customActions.createOnServer', yamlUri(key));
    const id = (await services.connections.call(app, (c) => c.listActions(APP))).find((a) => a.key === key)?.id;
    assert.ok(id, `${key} was created`);
    created.push(id);
    await lockedPart(services, app, id, 'implementation', (b) => b?.absent === true, 'known to have no code');
    const theirs = codeWith('1', '70');
    await colleaguePushes(id, theirs);
    const mine = codeWith('10', '7');
    await writeText(mainOf(key), codeWith('1', '7'));
    await save(await editorOf(mainOf(key)), mine);
    await offered(key);
    assert.equal(await onServer(id), theirs, "the colleague's code is still on the server");
    assert.equal(await readText(mainOf(key)), mine, 'the file is as the user saved it');
    assert.match(deploy.status.text, new RegExp(`${key} changed on the server`));
    // Settled, so no held push is left in the status bar: Overwrite replaces the version it was told about.
    (await notification(new RegExp(`${key} changed on the server`))).answer('Overwrite');
    await serverHolds(id, mine);
    await eventually(() => (/Pushed code of conflict-first/.test(deploy.status.text) ? true : undefined), 'the status bar says pushed');
    assert.doesNotMatch(deploy.status.text, /unchecked/, 'checked against the version it was told about');
  });

  it('holds a save when a colleague pushed since: nothing is pushed, the file is kept, the status says so', async () => {
    const mine = codeWith('1', '7');
    const id = await action('conflict-hold', mine);
    assert.doesNotMatch(deploy.status.text, /unchecked/, 'the first code was checked: the server held none');
    const theirs = codeWith('1', '70');
    await colleaguePushes(id, theirs);
    const e = await editorOf(mainOf('conflict-hold'));
    const local = codeWith('10', '7');
    await save(e, local);
    await offered('conflict-hold');
    assert.equal(await onServer(id), theirs, "the colleague's code is still on the server");
    assert.equal(await readText(mainOf('conflict-hold')), local, 'the file is as the user saved it');
    assert.match(deploy.status.text, /conflict-hold changed on the server/);
    const shown = await notification(/conflict-hold changed on the server/);
    assert.deepEqual(shown.items, ['Compare', 'Merge', 'Overwrite']);

    // Compare: the server's text on the left (a read-only document of the extension's own), the file on the right.
    shown.answer('Compare');
    const tab = await eventually(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input.original.scheme === PULLED_SCHEME ? input : undefined;
    }, 'the diff editor');
    assert.equal((await vscode.workspace.openTextDocument(tab.original)).getText(), theirs);
    assert.equal(tab.modified.toString(), mainOf('conflict-hold').toString());
    assert.equal(tab.original.path, mainOf('conflict-hold').path, 'the server cannot choose where its text is shown: the local path names it');

    // Settled, so no failure is left in the status bar for later suites: held again, then Overwrite.
    void deploy.pushCode(mainOf('conflict-hold'), local);
    await eventually(() => spy.matching(/conflict-hold changed on the server/)[1], 'held again').then((n) => n.answer('Overwrite'));
    await serverHolds(id, local);
  });

  it('lets a held push go from the status bar once the action is deleted on the server, when the list is read again', async () => {
    const key = 'conflict-deleted';
    const id = await action(key, codeWith('1', '7'));
    await colleaguePushes(id, codeWith('1', '70'));
    await save(await editorOf(mainOf(key)), codeWith('10', '7'));
    await offered(key);
    assert.match(deploy.status.text, new RegExp(`${key} changed on the server`));
    // The colleague deletes the action; the next read of the list (a refresh, the tree) tells the model.
    await services.connections.call(app, (c) => c.deleteAction(id));
    services.model.refresh(app);
    await services.model.actions(app);
    await eventually(() => (deploy.status.text.includes(key) ? undefined : true), 'the held push gone from the status bar');
    await eventually(async () => ((await lockedAction(services, app, id)) === undefined ? true : undefined), 'no base left in the lock');
    assert.equal(await readText(mainOf(key)), codeWith('10', '7'), 'the file is kept');
  });

  it('says in the tree and the status bar when an action changed on the server since the last push, until a push settles it', async () => {
    const id = await action('conflict-drift', codeWith('1', '7'));
    await colleaguePushes(id, codeWith('1', '70'));
    await editorOf(mainOf('conflict-drift'));
    // Brought up, its action is checked on the server; the window regaining focus checks it again at once.
    await regainWindowFocus();
    assert.equal((await services.model.actionAt(mainOf('conflict-drift')))?.outOfStep, true, 'the model (and so the tree) knows');
    assert.match(deploy.status.text, /conflict-drift changed on the server/);
    const merged = await deploy.merge({ app, folder: actionFolder('conflict-drift'), id, part: 'implementation', label: 'conflict-drift' });
    assert.equal(merged.kind, 'merged');
    const e = await editorOf(mainOf('conflict-drift'));
    await save(e, e.document.getText());
    await serverHolds(id, codeWith('1', '70'));
    await eventually(async () => ((await services.model.actionAt(mainOf('conflict-drift')))?.outOfStep ? undefined : true), 'in step again');
    // Checked again on the server: the base in the lock is the version the server holds, so nothing is out of step.
    const now = (await services.connections.call(app, (c) => c.getImplementationVersioned(id))).etag;
    assert.ok(now);
    await lockedPart(services, app, id, 'implementation', (b) => b?.etag === now, "the base is the server's version");
    await regainWindowFocus();
    assert.notEqual((await services.model.actionAt(mainOf('conflict-drift')))?.outOfStep, true, 'a check of the server finds it in step');
    assert.doesNotMatch(deploy.status.text, /conflict-drift changed on the server/);
  });

  it('Merge combines both changes into the file, and the save pushes it against the version merged with', async () => {
    const id = await action('conflict-merge', codeWith('1', '7'));
    const theirs = codeWith('1', '70');
    await colleaguePushes(id, theirs);
    const e = await editorOf(mainOf('conflict-merge'));
    await save(e, codeWith('10', '7'));
    await offered('conflict-merge');
    (await notification(/conflict-merge changed on the server/)).answer('Merge');
    const merged = codeWith('10', '70');
    await eventually(() => (e.document.getText() === merged ? true : undefined), 'the merged text in the editor');
    const theirEtag = (await services.connections.call(app, (c) => c.getImplementationVersioned(id))).etag;
    await lockedPart(services, app, id, 'implementation', (b) => b?.etag === theirEtag, 'the base is the version merged with');
    await save(e, merged);
    await serverHolds(id, merged);
    await eventually(() => (/Pushed code of conflict-merge/.test(deploy.status.text) ? true : undefined), 'the status bar says pushed');
    assert.doesNotMatch(deploy.status.text, /unchecked/, 'pushed with If-Match');
  });

  it('Merge marks lines both changed; nothing is pushed while the markers remain', async () => {
    const id = await action('conflict-markers', codeWith('1', '7'));
    const theirs = codeWith('1000', '7');
    await colleaguePushes(id, theirs);
    const e = await editorOf(mainOf('conflict-markers'));
    await save(e, codeWith('10', '7'));
    await offered('conflict-markers');
    const outcome = await deploy.merge({ app, folder: actionFolder('conflict-markers'), id, part: 'implementation', label: 'conflict-markers' });
    assert.deepEqual({ kind: outcome.kind, conflicts: outcome.kind === 'merged' ? outcome.conflicts : -1 }, { kind: 'merged', conflicts: 1 });
    const text = e.document.getText();
    assert.match(text, /^<<<<<<< Local/m);
    assert.match(text, /^\|\|\|\|\|\|\| Base/m);
    assert.match(text, /^>>>>>>> Server/m);
    assert.ok(text.includes('const a = 10;') && text.includes('const a = 1000;') && text.includes('const a = 1;'), 'local, server and base are all there');
    // Auto-save (on by default here) saves it first; then a save by hand, as Ctrl+S makes it (of a clean file too).
    await eventually(() => (!e.document.isDirty ? true : undefined), 'auto-saved');
    await vscode.window.showTextDocument(e.document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.save');
    await eventually(() => spy.matching(/^main\.ts of conflict-markers still holds conflict markers/).at(-1), 'the markers refused');
    assert.match(deploy.status.text, /conflict-markers not pushed/);
    assert.equal(await onServer(id), theirs, 'nothing was pushed while markers remain');
    const refused = await deploy.pushCode(e.document.uri, text);
    assert.equal(refused.kind, 'refused', 'not by hand either');
    const resolved = codeWith('1010', '7');
    await save(e, resolved);
    await serverHolds(id, resolved);
  });

  it('Overwrite pushes the file over the version it was told about, and only that one', async () => {
    const id = await action('conflict-overwrite', codeWith('1', '7'));
    await colleaguePushes(id, codeWith('1', '70'));
    const e = await editorOf(mainOf('conflict-overwrite'));
    const mine = codeWith('10', '7');
    await save(e, mine);
    await offered('conflict-overwrite');
    const shown = await notification(/conflict-overwrite changed on the server/);

    // A second colleague writes after the user was told: a late Overwrite must not replace that unseen.
    const later = codeWith('2', '70');
    await colleaguePushes(id, later);
    shown.answer('Overwrite');
    await eventually(() => (spy.matching(/conflict-overwrite changed on the server/).length === 2 ? true : undefined), 'held again');
    assert.equal(await onServer(id), later, 'the version written after the notification is kept');

    spy.matching(/conflict-overwrite changed on the server/)[1]?.answer('Overwrite');
    await eventually(async () => ((await onServer(id)) === mine ? true : undefined), 'the file overwrote the version the user saw');
  });

  it('keeps Merge and Overwrite reachable once the notification is gone: the status bar, the diff title and the tree', async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    const id = await action('conflict-reach', codeWith('1', '7'));
    await colleaguePushes(id, codeWith('1', '70'));
    const e = await editorOf(mainOf('conflict-reach'));
    await save(e, codeWith('10', '7'));
    await offered('conflict-reach');
    // Compare closes the notification: the choices must not go with it.
    (await notification(/conflict-reach changed on the server/)).answer('Compare');
    await eventually(() => (vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff ? true : undefined), 'the diff');
    assert.equal(deploy.status.click?.command, 'customActions.resolveConflict', 'a click on the status bar item offers the choices');
    assert.deepEqual(deploy.status.click?.arguments, [actionFolder('conflict-reach').toString(), 'code']);
    assert.doesNotMatch(deploy.status.tooltip, /notification/, 'the tooltip sends nobody to a notification that may be gone');
    assert.ok(deploy.standingConflict(actionFolder('conflict-reach'), 'implementation'), 'the held push stands for the diff title');
    const row = await eventually(async () => {
      const app = (await services.tree.getChildren()).find((n) => n.kind === 'application' && n.app.id === APP);
      const found = app && (await services.tree.getChildren(app)).find((n) => n.kind === 'action' && n.key === 'conflict-reach');
      return found && /;outOfStep$/.test(services.tree.getTreeItem(found).contextValue ?? '') ? found : undefined;
    }, 'the tree row offers Merge and Overwrite');
    assert.match(services.tree.getTreeItem(row).contextValue ?? '', /^action;\w+;local;remote;outOfStep$/);

    // Merge from the diff's title (its argument is the local side).
    await vscode.commands.executeCommand('customActions.mergeWithServer', mainOf('conflict-reach'));
    const merged = codeWith('10', '70');
    await eventually(() => (e.document.getText() === merged ? true : undefined), 'the merge in the editor');
    // Overwrite from the tree pushes the file as saved (here by auto-save, VS Code for the Web's default) over the version told.
    await eventually(() => (!e.document.isDirty ? true : undefined), 'auto-saved');
    await vscode.commands.executeCommand('customActions.overwriteServer', row);
    await serverHolds(id, merged);
    await eventually(() => (deploy.standingConflict(actionFolder('conflict-reach'), 'implementation') ? undefined : true), 'nothing held any more');
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('with auto-save on, a Merge is pushed by the save by hand the message asks for, never by an auto-save', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const id = await action('conflict-autosave', codeWith('1', '7'));
      const theirs = codeWith('1', '70');
      await colleaguePushes(id, theirs);
      const e = await editorOf(mainOf('conflict-autosave'));
      await save(e, codeWith('10', '7'));
      await offered('conflict-autosave');
      (await notification(/conflict-autosave changed on the server/)).answer('Merge');
      const said = await notification(/Merged the server's main\.ts of conflict-autosave/);
      assert.match(said.message, /auto-save does not push it: review it, then save by hand \(Ctrl\+S\) to push/);
      const merged = codeWith('10', '70');
      await eventually(() => (e.document.getText() === merged ? true : undefined), 'the merge in the editor');
      await eventually(() => (!e.document.isDirty ? true : undefined), 'auto-saved');
      await staysTrue(async () => (await onServer(id)) === theirs, 'the auto-saved merge is not pushed', 3_000);
      assert.match(deploy.status.text, /Merged main\.ts of conflict-autosave: save by hand to push/);
      // A save by hand (Ctrl+S saves a clean file too, as a save by hand): now it goes.
      await vscode.window.showTextDocument(e.document, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.save');
      await serverHolds(id, merged);
      assert.deepEqual(deploy.heldChoices(mainOf('conflict-autosave')), []);
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('with auto-save on, a Merge that leaves markers is pushed by no save until they are resolved', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const id = await action('conflict-automarkers', codeWith('1', '7'));
      const theirs = codeWith('1000', '7');
      await colleaguePushes(id, theirs);
      const e = await editorOf(mainOf('conflict-automarkers'));
      await save(e, codeWith('10', '7'));
      await offered('conflict-automarkers');
      await vscode.commands.executeCommand('customActions.mergeWithServer', mainOf('conflict-automarkers'));
      await eventually(() => (/^<<<<<<< Local/m.test(e.document.getText()) ? true : undefined), 'the markers in the editor');
      await eventually(() => (!e.document.isDirty ? true : undefined), 'auto-saved');
      await vscode.commands.executeCommand('workbench.action.files.save');
      await staysTrue(async () => (await onServer(id)) === theirs, 'neither the auto-save nor the save by hand pushes markers', 3_000);
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('holds action.yaml the same way, and Merge brings the server metadata in through the text', async () => {
    const key = 'conflict-metadata';
    await action(key, codeWith('1', '7'));
    const id = created[created.length - 1] as string;
    // The metadata base comes from a save of action.yaml.
    await metadataSaved(key, id);
    await services.connections.call(app, (c) => c.updateAction(id, metadataOf(key, 'Changed by a colleague.')));
    const e = await editorOf(yamlUri(key));
    await save(e, serializeActionYaml({ ...metadataOf(key), name: 'Renamed here' }));
    await offered(key, 'metadata');
    const server = await services.connections.call(app, (c) => c.getAction(id));
    assert.equal(server.name, `Conflict ${key}`, 'the rename was not pushed');
    assert.equal((server.result as { description?: string } | undefined)?.description, 'Changed by a colleague.');

    (await notification(/conflict-metadata changed on the server/)).answer('Merge');
    await eventually(
      () => (/Changed by a colleague/.test(e.document.getText()) && /Renamed here/.test(e.document.getText()) ? true : undefined),
      'both in action.yaml',
    );
    // A merge is pushed by a save by hand only (auto-saves of it are held): Ctrl+S once auto-save is done.
    await saveByHand(e.document);
    const after = await eventually(async () => {
      const now = await services.connections.call(app, (c) => c.getAction(id));
      return now.name === 'Renamed here' ? now : undefined;
    }, 'the merged metadata pushed');
    assert.deepEqual([after.name, (after.result as { description?: string } | undefined)?.description], ['Renamed here', 'Changed by a colleague.']);
  });

  it('holds a save made through the metadata form the same way, and the form shows the merged metadata', async () => {
    const key = 'conflict-form';
    const id = await action(key, codeWith('1', '7'));
    await metadataSaved(key, id);
    await services.connections.call(app, (c) => c.updateAction(id, metadataOf(key, 'Changed by a colleague.')));
    // The form's session on action.yaml, with a stand-in for its webview that keeps what the host sends
    // it; the file is in a tab, as it is when the form shows it (a save with no editor showing the file is
    // a tool's, and is not pushed).
    const { document } = await editorOf(yamlUri(key));
    const posted: HostMessage[] = [];
    const incoming = new vscode.EventEmitter<unknown>();
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const form = new FormSession(
      document,
      { postMessage: (m: HostMessage) => (posted.push(m), Promise.resolve(true)), onDidReceiveMessage: incoming.event },
      { log, openText: () => Promise.resolve() },
    );
    try {
      form.receive({ type: 'ready' });
      form.receive({ type: 'edit', version: document.version, seq: 1, value: { ...metadataOf(key), name: 'Renamed in the form' } });
      await eventually(() => (/Renamed in the form/.test(document.getText()) ? true : undefined), 'the form edit in action.yaml');
      assert.ok(await document.save(), 'saved');
      await offered(key, 'metadata');
      assert.equal((await services.connections.call(app, (c) => c.getAction(id))).name, `Conflict ${key}`, 'the rename was not pushed');
      assert.match(document.getText(), /Renamed in the form/, 'the form edit is kept');

      (await notification(new RegExp(`${key} changed on the server`))).answer('Merge');
      const shown = await eventually(() => {
        const last = posted.filter((m): m is StateMessage => m.type === 'state').at(-1);
        const value = last?.value as { name?: string; result?: { description?: string } } | undefined;
        return value?.name === 'Renamed in the form' && value.result?.description === 'Changed by a colleague.' ? last : undefined;
      }, 'the form given the merged metadata');
      assert.equal(shown.origin, 'external', 'a change the form did not make');
      await saveByHand(document);
      await eventually(
        async () => ((await services.connections.call(app, (c) => c.getAction(id))).name === 'Renamed in the form' ? true : undefined),
        'pushed',
      );
    } finally {
      form.dispose();
      incoming.dispose();
    }
  });
});

describe('Safe deploy: a server without conditional writes', function () {
  this.timeout(120_000);
  let services: Services;
  let proxy: FaultProxy;
  let project: ProjectElsewhere;
  let app: Application;
  let id: string | undefined;
  const key = 'unconditional-deploy';
  const folder = () => actionFolder(key);

  before(async () => {
    services = (await api()).services;
    const { actual } = await services.connections.baseUrl();
    // The sandbox behind a proxy that takes conditional writes out of its capability document.
    proxy = await startFaultProxy({
      target: actual,
      rate: 0,
      seed: 1,
      rewrite: (method, path, body) => {
        if (method !== 'GET' || path !== '/api') return undefined;
        const index = JSON.parse(body.toString('utf8')) as { extensions?: Record<string, unknown> };
        delete index.extensions?.conditionalWrites;
        return Buffer.from(JSON.stringify(index));
      },
    });
    project = await projectOn(services, proxy.url);
    app = project.app;
  });

  after(async () => {
    await removeActions(services, app, id === undefined ? [] : [id], [folder()]);
    await project.restore();
    await proxy.close();
  });

  it('reads the server before a write it cannot make conditional: pushes over the base unchecked, and holds a colleague change', async () => {
    const metadata = metadataOf(key);
    const first = codeWith('1', '7');
    await writeActionFiles(folder(), metadata, first);
    id = (await services.connections.call(app, (c) => c.createAction(APP, metadata))).id;
    services.model.refresh();
    const main = vscode.Uri.joinPath(folder(), 'main.ts');
    assert.equal((await services.deploy.pushCode(main, first)).kind, 'pushed');
    assert.match(services.deploy.status.text, /unchecked/, 'the server could not check the write');
    const created = id;
    const second = codeWith('1', '8');
    assert.equal((await services.deploy.pushCode(main, second)).kind, 'pushed', 'the server held the base: replaced');
    assert.equal(await services.connections.call(app, (c) => c.getImplementation(created)), second);
    const theirs = codeWith('1', '70');
    await services.connections.call(app, (c) => c.putImplementation(created, theirs));
    const result = await services.deploy.pushCode(main, codeWith('10', '7'));
    assert.equal(result.kind, 'held', `held: the read found a version other than the base: ${JSON.stringify(result)}`);
    assert.equal(await services.connections.call(app, (c) => c.getImplementation(created)), theirs, "the colleague's code is kept");
    assert.match(services.deploy.status.text, /unconditional-deploy changed on the server/);
  });
});
