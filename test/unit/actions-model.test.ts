import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ApiError } from '../../src/core/client';
import { type LockEntry } from '../../src/core/deploy/lock';
import { ActionsModel, type ActionsChange, type ModelSources } from '../../src/extension/model/actionsModel';
import { type RemoteAction } from '../../src/extension/model/entries';
import { type LocalAction } from '../../src/extension/localActions';
import { type Application } from '../../src/extension/project';

/** The part of a URI the model reads. */
function uri(path: string): vscode.Uri {
  const make = (p: string): vscode.Uri =>
    ({ scheme: 'file', authority: '', path: p, with: (c: { path: string }) => make(c.path), toString: () => `file://${p}` }) as unknown as vscode.Uri;
  return make(path);
}

function application(id: string, root = '/ws', folder = id): Application {
  const project = { root: uri(root), name: root.slice(root.lastIndexOf('/') + 1) } as Application['project'];
  return { id, folder, label: id.toUpperCase(), folderUri: uri(`${root}/${folder}`), project, uid: `file://${root}\n${id}` } as Application;
}

function remote(id: string, key: string, name = key): RemoteAction {
  return { id, key, name, description: '', eventsUrls: { Test: `http://s/${id}/test`, Live: `http://s/${id}/live` } };
}

function local(app: Application, folderName: string, key = folderName, name?: string): LocalAction {
  const folder = uri(`${app.folderUri.path}/${folderName}`);
  return { folder, file: uri(`${folder.path}/action.yaml`), key, name, metadata: undefined, problemCount: 0 };
}

/** A server and a workspace the test edits; counts the server's list calls. */
function fixture() {
  const apps = [application('billing'), application('crm')];
  const server = new Map<string, RemoteAction[]>(apps.map((a) => [a.id, []]));
  const folders = new Map<string, LocalAction[]>(apps.map((a) => [a.id, []]));
  // The lock's entries, by application.
  const locks = new Map<string, LockEntry[]>();
  const calls: string[] = [];
  const scans: string[] = [];
  let failWith: unknown;
  const sources: ModelSources = {
    applications: () => Promise.resolve(apps),
    listRemote: (app) => {
      calls.push(app.id);
      return failWith === undefined ? Promise.resolve([...(server.get(app.id) ?? [])]) : Promise.reject(failWith);
    },
    scanLocal: (app) => {
      scans.push(app.id);
      return Promise.resolve([...(folders.get(app.id) ?? [])]);
    },
    readLocal: (folder) => Promise.resolve([...folders.values()].flat().find((a) => a.folder.path === folder.path)),
    folderNames: (app) => Promise.resolve((folders.get(app.id) ?? []).map((a) => a.folder.path).join('\n')),
    locked: (app) => Promise.resolve([...(locks.get(app.id) ?? [])]),
  };
  const model = new ActionsModel(sources);
  const changes: ActionsChange[] = [];
  model.onDidChange((c) => changes.push(c));
  return { apps, server, folders, locks, calls, scans, model, changes, fail: (error: unknown) => (failWith = error) };
}

describe('ActionsModel', () => {
  it('matches no folder of a key two folders declare with the server action: each is a row of its own, marked', async () => {
    const { apps, server, folders, model } = fixture();
    const [billing] = apps as [Application];
    server.set('billing', [remote('1', 'refund')]);
    folders.set('billing', [local(billing, 'refund'), local(billing, 'refund-copy', 'Refund'), local(billing, 'draft')]);
    const entries = await model.actions(billing);
    assert.deepEqual(
      entries.map((e) => [e.key, e.local?.folder.path.split('/').pop(), e.state, e.change]),
      [
        ['draft', 'draft', 'local', undefined],
        ['refund', 'refund', 'shared', 'key also declared in refund-copy'],
        ['refund', undefined, 'remote', undefined],
        ['Refund', 'refund-copy', 'shared', 'key also declared in refund'],
      ],
    );
  });

  it('names the other folders that declare a key a save is about to push (any case), scanning once until the folders change', async () => {
    const { apps, folders, scans, model } = fixture();
    const [billing] = apps as [Application];
    folders.set('billing', [local(billing, 'send-invoice'), local(billing, 'refund')]);
    const folderOf = (name: string) => uri(`${billing.folderUri.path}/${name}`);
    assert.equal(await model.sameKeyFolders(billing, folderOf('send-invoice'), 'send-invoice'), undefined);
    // The folder is taken to declare what its save pushes, whatever the last scan read there.
    const renamed = await model.sameKeyFolders(billing, folderOf('send-invoice'), 'Refund');
    assert.deepEqual(
      renamed?.map((a) => a.folder.path),
      [folderOf('refund').path],
    );
    assert.deepEqual(scans, ['billing'], 'one scan for both saves');
    // A copy of a folder the watcher has not told of yet: the folder list differs, so it is scanned anew.
    folders.set('billing', [...folders.get('billing')!, local(billing, 'send-invoice-copy', 'send-invoice')]);
    const copied = await model.sameKeyFolders(billing, folderOf('send-invoice'), 'send-invoice');
    assert.deepEqual(
      copied?.map((a) => a.folder.path),
      [folderOf('send-invoice-copy').path],
    );
    assert.deepEqual(scans, ['billing', 'billing']);
    // A key changed in another folder's action.yaml is told by the watcher (localChanged).
    folders.set('billing', [local(billing, 'send-invoice'), local(billing, 'refund'), local(billing, 'send-invoice-copy', 'copy')]);
    await model.localChanged(uri(`${billing.folderUri.path}/send-invoice-copy/action.yaml`));
    assert.equal(await model.sameKeyFolders(billing, folderOf('send-invoice'), 'send-invoice'), undefined);
  });

  it('merges the server list with the folders and fetches a list once until something changes', async () => {
    const { apps, server, folders, calls, model } = fixture();
    const [billing] = apps as [Application];
    server.set('billing', [remote('1', 'send-invoice'), remote('2', 'refund')]);
    folders.set('billing', [local(billing, 'send-invoice'), local(billing, 'draft')]);
    const entries = await model.actions(billing);
    assert.deepEqual(
      entries.map((e) => [e.key, e.state]),
      [
        ['draft', 'local'],
        ['refund', 'remote'],
        ['send-invoice', 'synced'],
      ],
    );
    await model.actions(billing);
    assert.deepEqual(calls, ['billing']);
  });

  it('answers which action a file, a folder or an application folder belongs to', async () => {
    const { apps, server, folders, model } = fixture();
    const [billing] = apps as [Application];
    server.set('billing', [remote('1', 'send-invoice')]);
    folders.set('billing', [local(billing, 'send-invoice')]);
    assert.equal((await model.actionAt(uri('/ws/billing/send-invoice/main.ts')))?.remote?.id, '1');
    assert.equal((await model.actionAt(uri('/ws/billing/send-invoice/inputs/a.json')))?.key, 'send-invoice');
    assert.equal((await model.actionAt(uri('/ws/billing/send-invoice')))?.key, 'send-invoice', 'the folder itself');
    assert.equal(await model.actionAt(uri('/ws/billing/notes.md')), undefined);
    assert.equal((await model.applicationOf(uri('/ws/crm/x/main.ts')))?.id, 'crm');
    assert.equal(await model.applicationOf(uri('/ws/crmx/main.ts')), undefined, 'a folder whose name starts the same is another folder');
    assert.equal((await model.fileAt(uri('/ws/billing/send-invoice/main.ts')))?.folder.path, '/ws/billing/send-invoice');
    assert.equal(await model.fileAt(uri('/ws/billing/send-invoice/inputs/a.json')), undefined, 'not directly in the action folder');
  });

  it('a create reads the list again and fires for that application only', async () => {
    const { apps, server, folders, calls, model, changes } = fixture();
    const [billing] = apps as [Application];
    folders.set('billing', [local(billing, 'draft')]);
    assert.equal((await model.actions(billing))[0]?.state, 'local');
    server.set('billing', [remote('9', 'draft')]);
    model.created(billing);
    assert.deepEqual(changes, [{ app: billing }]);
    assert.equal((await model.actions(billing))[0]?.state, 'synced');
    assert.deepEqual(calls, ['billing', 'billing']);
  });

  it("matches a folder whose key was changed in it to the action the lock records for the folder, by the core's rule", async () => {
    const { apps, server, folders, locks, model } = fixture();
    const [billing] = apps as [Application];
    server.set('billing', [remote('1', 'send-invoice')]);
    // Deployed from the folder send-invoice under its key (an entry without a folder is of the folder named by its key).
    locks.set('billing', [{ key: 'send-invoice', id: '1' }]);
    folders.set('billing', [local(billing, 'send-invoice', 'send-bill')]);
    const [entry] = await model.actions(billing);
    assert.equal(entry?.state, 'changed');
    assert.equal(entry?.change, 'key changed here (server: send-invoice)');
    assert.equal(await model.idFor(billing, uri('/ws/billing/send-invoice'), 'send-bill'), '1');
    // Another folder that declares the server's key is that action's: the changed folder is a new one.
    folders.set('billing', [local(billing, 'send-invoice', 'send-bill'), local(billing, 'copy', 'send-invoice')]);
    assert.equal(await model.idFor(billing, uri('/ws/billing/send-invoice'), 'send-bill'), undefined);
    // Without the lock's entry, nothing tells which action the folder was: none.
    folders.set('billing', [local(billing, 'send-invoice', 'send-bill')]);
    locks.set('billing', []);
    assert.equal(await model.idFor(billing, uri('/ws/billing/send-invoice'), 'send-bill'), undefined);
    assert.equal((await model.actions(billing)).find((e) => e.key === 'send-bill')?.state, 'local');
  });

  it('resolves an id by key, reading the list again once on a miss', async () => {
    const { apps, server, calls, model } = fixture();
    const [billing] = apps as [Application];
    await model.actions(billing);
    server.set('billing', [remote('5', 'late')]);
    assert.equal(await model.idFor(billing, uri('/ws/billing/late'), 'late'), '5');
    assert.equal(await model.idFor(billing, uri('/ws/billing/late'), 'late'), '5');
    assert.deepEqual(calls, ['billing', 'billing']);
  });

  it('fires when a list read again comes back different, and not when it is the same', async () => {
    const { apps, server, model, changes } = fixture();
    const [billing] = apps as [Application];
    await model.actions(billing);
    await model.idFor(billing, uri('/ws/billing/x'), 'x');
    assert.deepEqual(changes, []);
    server.set('billing', [remote('1', 'x')]);
    await model.idFor(billing, uri('/ws/billing/x'), 'x');
    assert.deepEqual(changes, [{ app: billing }]);
  });

  it('a list asked for before a delete does not answer for after it', async () => {
    const { apps, server, model } = fixture();
    const [billing] = apps as [Application];
    server.set('billing', [remote('1', 'gone')]);
    const before = model.actions(billing);
    server.set('billing', []);
    model.deleted(billing);
    await before;
    assert.deepEqual(await model.actions(billing), []);
  });

  it('tells which actions a list read again no longer holds, across a refresh, and forgets their drift', async () => {
    const { apps, server, model } = fixture();
    const [billing, crm] = apps as [Application, Application];
    const removed: { app: string; ids: readonly string[] }[] = [];
    model.onDidRemoveActions(({ app, ids }) => removed.push({ app: app.id, ids }));
    server.set('billing', [remote('1', 'keep'), remote('2', 'deleted-elsewhere'), remote('3', 'deleted-here')]);
    server.set('crm', [remote('9', 'other')]);
    await Promise.all([model.actions(billing), model.actions(crm)]);
    assert.deepEqual(removed, [], 'a first list removes nothing');
    model.serverChanged(billing, '2', true);
    server.set('billing', [remote('1', 'keep')]);
    model.deleted(billing);
    await model.actions(billing);
    assert.deepEqual(removed, [{ app: 'billing', ids: ['2', '3'] }]);
    model.refresh();
    await Promise.all([model.actions(billing), model.actions(crm)]);
    assert.equal(removed.length, 1, 'told once');
    server.set('billing', [remote('1', 'keep'), remote('2', 'deleted-elsewhere')]);
    model.refresh(billing);
    const back = await model.actions(billing);
    assert.equal(back.find((e) => e.key === 'deleted-elsewhere')?.outOfStep, undefined, 'an id listed again starts in step');
  });

  it('a code push does not read the list again; a metadata push does', async () => {
    const { apps, model, calls, changes } = fixture();
    const [billing] = apps as [Application];
    await model.actions(billing);
    model.pushed(billing, 'code');
    await model.actions(billing);
    assert.deepEqual(changes, []);
    model.pushed(billing, 'metadata');
    await model.actions(billing);
    assert.deepEqual(changes, [{ app: billing }]);
    assert.deepEqual(calls, ['billing', 'billing']);
  });

  it('an unreachable server is noted once, everything is shown anew, and a refresh of everything clears it', async () => {
    const { apps, model, changes, fail } = fixture();
    const [billing] = apps as [Application];
    const down = new ApiError({ kind: 'network', operation: 'listActions' });
    fail(down);
    await assert.rejects(model.actions(billing));
    await assert.rejects(model.actions(billing));
    await Promise.resolve();
    assert.equal(model.unreachable, down);
    assert.deepEqual(changes, [{}]);
    fail(undefined);
    model.refresh();
    assert.equal(model.unreachable, undefined);
  });

  it('tells of a changed action.yaml the application that holds it', async () => {
    const { apps, model, changes } = fixture();
    await model.localChanged(uri('/ws/crm/a/action.yaml'));
    await model.localChanged(uri('/elsewhere/action.yaml'));
    assert.deepEqual(changes, [{ app: apps[1] }]);
  });

  it('finds the action of an input set only where input sets go, and only in a folder holding action.yaml', async () => {
    const { apps, folders, model } = fixture();
    const [billing] = apps as [Application];
    folders.set('billing', [local(billing, 'refund')]);
    const found = await model.inputSetAt(uri('/ws/billing/refund/inputs/typical.json'));
    assert.equal(found?.action.key, 'refund');
    assert.equal(found?.app.id, 'billing');
    for (const elsewhere of [
      '/ws/billing/refund/typical.json',
      '/ws/billing/refund/inputs/deeper/x.json',
      '/ws/billing/refund/inputs/x.txt',
      '/ws/billing/draft/inputs/x.json',
      '/elsewhere/refund/inputs/x.json',
    ])
      assert.equal(await model.inputSetAt(uri(elsewhere)), undefined, elsewhere);
  });

  it('finds a file in the applications of its nearest project: a project nested in an application folder owns its files', async () => {
    // /ws lists "tools" (folder tools); /ws/tools/admin is a project of its own, listing "ops" (folder ops).
    const outer = application('tools');
    const inner = application('ops', '/ws/tools/admin');
    const twin = application('tools', '/ws/tools/admin', 'tools');
    const model = new ActionsModel({
      applications: () => Promise.resolve([outer, inner, twin]),
      listRemote: () => Promise.resolve([]),
      scanLocal: () => Promise.resolve([]),
      readLocal: () => Promise.resolve(undefined),
      folderNames: () => Promise.resolve(''),
      locked: () => Promise.resolve([]),
    });
    const inOps = await model.fileAt(uri('/ws/tools/admin/ops/refund/main.ts'));
    assert.equal(inOps?.app, inner, "the nested project's application, not the outer folder's");
    assert.equal(inOps?.folder.path, '/ws/tools/admin/ops/refund');
    assert.equal((await model.fileAt(uri('/ws/tools/score/main.ts')))?.app, outer);
    assert.equal((await model.fileAt(uri('/ws/tools/admin/tools/x/main.ts')))?.app, twin, 'the same id in two projects: the nearest');
    assert.equal(await model.fileAt(uri('/ws/tools/admin/customactions.yaml')), undefined, "the nested project's own file is no action file of the outer one");
    assert.equal(await model.applicationOf(uri('/ws/tools/admin/notes/readme.md')), undefined);
  });

  it("gives no file of a nested project whose file is invalid to the outer project's application: a save there pushes nowhere", async () => {
    // /ws lists "tools"; /ws/tools/admin holds a customactions.yaml that does not parse (no applications).
    const outer = application('tools');
    const sources = {
      applications: () => Promise.resolve([outer]),
      listRemote: () => Promise.resolve([]),
      scanLocal: () => Promise.resolve([]),
      readLocal: () => Promise.resolve(undefined),
      folderNames: () => Promise.resolve(''),
      locked: () => Promise.resolve([]),
    };
    const broken = { root: uri('/ws/tools/admin') };
    const model = new ActionsModel({ ...sources, projects: () => Promise.resolve([outer.project, broken]) });
    assert.equal(await model.fileAt(uri('/ws/tools/admin/main.ts')), undefined, "the outer project's application took the nested project's file");
    assert.equal(await model.applicationOf(uri('/ws/tools/admin/main.ts')), undefined);
    assert.equal((await model.fileAt(uri('/ws/tools/score/main.ts')))?.app, outer, 'the outer project keeps its own files');
    // Without the list of every project, the broken one is not known (what the guard above is for).
    const blind = new ActionsModel(sources);
    assert.equal((await blind.fileAt(uri('/ws/tools/admin/main.ts')))?.app, outer);
  });

  it('finds the action folder of an event by application (its uid: two projects may share an id) and key, never by a path the server names', async () => {
    const { apps, folders, model } = fixture();
    const [billing] = apps as [Application];
    folders.set('billing', [local(billing, 'refund-folder', 'refund')]);
    assert.equal((await model.localAction(billing.uid, 'refund'))?.action.folder.path, '/ws/billing/refund-folder');
    assert.equal(await model.localAction('billing', 'refund'), undefined, 'the bare id names no project');
    assert.equal(await model.localAction(billing.uid.replace('billing', 'crm'), 'refund'), undefined);
    assert.equal(await model.localAction(billing.uid, '../crm'), undefined);
  });
});
