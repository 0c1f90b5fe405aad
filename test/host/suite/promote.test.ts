import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DeployLock } from '../../../src/core/deploy/lock';
import { LOCAL_SANDBOX } from '../../../src/core/schema';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { type PromoteResult } from '../../../src/extension/targets/promote';
import { actionMetadata } from '../../support/metadata';
import { NotificationSpy } from '../notifications';
import { api, eventually, fixtureApplication, workspaceRoot } from '../support';

const code = (word: string) => `export function main(): string {\n  return '${word}';\n}\n`;

// staging and production as two applications of the extension's sandbox, by its URL: test-app is
// test-app on staging and other-app on production (protected), each with its own key (and the other way
// round for other-app, so no application is the same on both).
describe('Promote in the editor', function () {
  this.timeout(180_000);
  let services: Services;
  let projectText: string;
  let lockText: Uint8Array | undefined;
  let staging: Application;
  let production: Application;
  const made: { app: Application; id: string }[] = [];

  const projectUri = () => vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml');
  const lockUri = () => vscode.Uri.joinPath(workspaceRoot(), 'customactions.lock.json');
  const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const idOf = async (app: Application, key: string) => (await services.connections.call(app, (c) => c.listActions(app.id))).find((a) => a.key === key)?.id;
  const codeOf = async (app: Application, key: string) => {
    const id = await idOf(app, key);
    return id === undefined ? undefined : services.connections.call(app, (c) => c.getImplementation(id));
  };
  const run = async (arg: object, answer: string | undefined): Promise<{ result: PromoteResult; spy: NotificationSpy }> => {
    const spy = new NotificationSpy((m) => (m.modal ? answer : undefined));
    try {
      const result = await vscode.commands.executeCommand<PromoteResult | undefined>('customActions.promote', arg);
      assert.ok(result, `Promote ended without a result: ${JSON.stringify(spy.of('error').map((m) => m.message))}`);
      return { result, spy };
    } finally {
      spy.dispose();
    }
  };

  before(async () => {
    services = (await api()).services;
    staging = await fixtureApplication(services, 'test-app');
    production = await fixtureApplication(services, 'other-app');
    const { actual } = await services.connections.baseUrl();
    for (const id of ['test-app', 'other-app']) {
      const key = await services.keys.get(LOCAL_SANDBOX, id);
      assert.ok(key, `the sandbox minted a key for ${id}`);
      await services.keys.set(actual, id, key);
    }
    projectText = new TextDecoder().decode(await vscode.workspace.fs.readFile(projectUri()));
    lockText = await vscode.workspace.fs.readFile(lockUri()).then(
      (bytes) => bytes,
      () => undefined,
    );
    await write(
      projectUri(),
      projectText +
        `\ntargets:\n  staging:\n    baseUrl: ${actual}\n    default: true\n  production:\n    baseUrl: ${actual}\n    protected: true\n    applications:\n      test-app: other-app\n      other-app: test-app\n`,
    );
    await services.project.reload();
    const state = await services.project.only();
    assert.ok(state.kind === 'ok' && state.target.target.name === 'staging');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const { app, id } of made) await services.connections.call(app, (c) => c.deleteAction(id)).catch(() => undefined);
    await services.project.pickTarget(undefined);
    await write(projectUri(), projectText);
    if (lockText) await vscode.workspace.fs.writeFile(lockUri(), lockText);
    else await vscode.workspace.fs.delete(lockUri()).then(undefined, () => undefined);
    await services.project.reload();
    services.model.refresh();
  });

  async function onStaging(key: string, text: string): Promise<void> {
    const existing = await idOf(staging, key);
    const id = existing ?? (await services.connections.call(staging, (c) => c.createAction('test-app', actionMetadata({ key })))).id;
    if (!existing) made.push({ app: staging, id });
    await services.connections.call(staging, (c) => c.putImplementation(id, text));
  }

  it('shows the plan and the diff, asks in a modal (production is protected), then sends what staging runs and records production in the lock', async () => {
    await onStaging('promo-go', code('one'));
    const { result, spy } = await run({ from: 'staging', to: 'production', actions: ['promo-go'] }, 'Promote to production');
    assert.equal(result?.verdict, 'ready');
    assert.deepEqual(
      result.planned.map((o) => [o.application, o.key, o.dryRun]),
      [['other-app', 'promo-go', true]],
    );
    const asked = spy.shown.filter((m) => m.modal);
    assert.equal(asked.length, 1, 'one confirmation');
    assert.match(asked[0]!.message, /1 action of staging will be written to production \(.*\), a protected target\./);
    const plan = vscode.window.visibleTextEditors.map((e) => e.document.getText()).find((t) => t.startsWith('# Promote from staging'));
    assert.ok(plan, 'the plan is open in an editor');
    assert.match(plan, /^would-create\s+other-app\/promo-go/m);
    assert.match(plan, /^\s+\+\+\+ staging:test-app\/promo-go\/main\.ts$/m);
    assert.match(plan, /^\s+\+ {2}return 'one';$/m);

    assert.equal(await codeOf(production, 'promo-go'), code('one'), 'production runs what staging runs');
    const id = await idOf(production, 'promo-go');
    assert.ok(id);
    made.push({ app: production, id });
    const lock = new TextDecoder().decode(await vscode.workspace.fs.readFile(lockUri()));
    assert.match(lock, /"other-app"[\s\S]*"promo-go"/, 'the lock holds production’s base');
    await eventually(() => spy.shown.find((m) => /Promoted 1 action from staging to production/.test(m.message)), 'the user is told');
  });

  it('a change made in production since its base holds the promote: nothing written, the action named', async () => {
    // Its own action, promoted once so production has a base for it: the test stands alone.
    await onStaging('promo-held', code('one'));
    assert.equal((await run({ from: 'staging', to: 'production', actions: ['promo-held'] }, 'Promote to production')).result?.verdict, 'ready');
    const id = await idOf(production, 'promo-held');
    assert.ok(id, 'the first promote created it');
    made.push({ app: production, id });
    await services.connections.call(production, (c) => c.putImplementation(id, code('hotfix')));
    await onStaging('promo-held', code('two'));
    const { result, spy } = await run({ from: 'staging', to: 'production', actions: ['promo-held'] }, 'Promote to production');
    assert.equal(result?.verdict, 'held');
    assert.equal(spy.shown.filter((m) => m.modal).length, 0, 'nothing to confirm');
    await eventually(
      () => spy.shown.find((m) => m.severity === 'warning' && /Promote held, nothing written.*Held: other-app\/promo-held/.test(m.message)),
      'the held action named',
    );
    assert.equal(await codeOf(production, 'promo-held'), code('hotfix'), 'production keeps its change');
  });

  it("a key changed in its folder and deployed to staging renames production's action, as the command line's promote does", async () => {
    await onStaging('promo-wave', code('one'));
    assert.equal((await run({ from: 'staging', to: 'production', actions: ['promo-wave'] }, 'Promote to production')).result?.verdict, 'ready');
    const id = await idOf(production, 'promo-wave');
    assert.ok(id, 'the first promote created it');
    made.push({ app: production, id });
    // The folder promo-wave now declares promo-wave-hello, deployed to staging: staging's action renamed, its lock entry naming the folder.
    const stagingId = (await idOf(staging, 'promo-wave'))!;
    await services.connections.call(staging, (c) => c.updateAction(stagingId, actionMetadata({ key: 'promo-wave-hello' })));
    const { actual } = await services.connections.baseUrl();
    const parsed = DeployLock.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(lockUri())));
    assert.ok('lock' in parsed);
    const lock = parsed.lock.withAll(actual, [{ applicationId: 'test-app', key: 'promo-wave-hello', entry: { id: stagingId, folder: 'promo-wave' } }]);
    await write(lockUri(), lock.serialize());
    const { result } = await run({ from: 'staging', to: 'production', actions: ['promo-wave-hello'] }, 'Promote to production');
    assert.equal(result.verdict, 'ready');
    const listed = await services.connections.call(production, (c) => c.listActions(production.id));
    assert.equal(listed.find((a) => a.key === 'promo-wave-hello')?.id, id, "production's action, renamed, not a second one");
    assert.equal(
      listed.find((a) => a.key === 'promo-wave'),
      undefined,
    );
  });

  it('asks for a missing key of the destination in a password box, keeps it only once the server accepts it', async () => {
    const { actual } = await services.connections.baseUrl();
    const key = await services.keys.get(actual, 'other-app');
    assert.ok(key);
    await services.keys.delete(actual, 'other-app');
    const window = vscode.window as unknown as Record<string, unknown>;
    const original = window.showInputBox;
    const asked: { title?: string; password?: boolean }[] = [];
    window.showInputBox = (options: vscode.InputBoxOptions) => {
      asked.push({ title: options.title, password: options.password });
      return Promise.resolve(asked.length === 1 ? 'wrong-key-5e1d' : key);
    };
    try {
      await onStaging('promo-key', code('keyed'));
      const refusedSpy = new NotificationSpy();
      try {
        const refused = await vscode.commands.executeCommand<PromoteResult | undefined>('customActions.promote', {
          from: 'staging',
          to: 'production',
          actions: ['promo-key'],
        });
        assert.equal(refused, undefined, 'a refused key ends the promote');
        await eventually(() => refusedSpy.matching(/The key was not saved: the server refused it/).length === 1 || undefined, 'the refusal is said');
      } finally {
        refusedSpy.dispose();
      }
      assert.equal(await services.keys.has(actual, 'other-app'), false, 'a refused key is not kept');
      const { result } = await run({ from: 'staging', to: 'production', actions: ['promo-key'] }, 'Promote to production');
      assert.equal(result.verdict, 'ready');
      assert.deepEqual(asked, [
        { title: 'Key for other-app on target production', password: true },
        { title: 'Key for other-app on target production', password: true },
      ]);
      assert.equal(await services.keys.get(actual, 'other-app'), key, 'the accepted key is kept');
      assert.equal(await codeOf(production, 'promo-key'), code('keyed'));
      made.push({ app: production, id: (await idOf(production, 'promo-key'))! });
    } finally {
      window.showInputBox = original;
      await services.keys.set(actual, 'other-app', key);
    }
  });

  it('declined, writes nothing', async () => {
    await onStaging('promo-no', code('three'));
    const { result } = await run({ from: 'staging', to: 'production', actions: ['promo-no'] }, undefined);
    assert.equal(result?.verdict, 'declined');
    assert.equal(await idOf(production, 'promo-no'), undefined);
  });
});
