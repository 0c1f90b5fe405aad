import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { NotificationSpy } from '../notifications';
import { type Services } from '../../../src/extension/services';
import { api, eventually, restoreProjectFile, workspaceRoot } from '../support';
import { closeEditors, keepProjectFile, projectFile, writeText } from '../suiteFixture';

/** What each message asks the user to add. */
const ADD = 'Add a targets section naming each server (staging, production) with its baseUrl and application ids.';

type Offered = vscode.QuickPickItem & { readonly target?: { readonly name: string } };

/** Answers the next quick picks with the item `choose` names; what each offered is kept. */
function stubQuickPick(choose: (items: readonly Offered[]) => Offered | undefined): { offered: Offered[][]; dispose(): void } {
  const window = vscode.window as { showQuickPick: unknown };
  const original = window.showQuickPick;
  const offered: Offered[][] = [];
  window.showQuickPick = async (items: readonly Offered[] | Thenable<readonly Offered[]>) => {
    const list = await items;
    offered.push([...list]);
    return choose(list);
  };
  return { offered, dispose: () => (window.showQuickPick = original) };
}

const PICKS_KEY = 'customActions.targetPicks';

describe('Switch Target', function () {
  this.timeout(120_000);
  let services: Services;
  const project = keepProjectFile();
  const write = (text: string) => writeText(projectFile(), text);
  const picks = () => services.context.workspaceState.get<Record<string, string>>(PICKS_KEY) ?? {};

  before(async () => {
    services = (await api()).services;
  });

  it('offers the targets (the active one checked, the protected one locked), remembers the pick, and names it in the view', async () => {
    const { actual } = await services.connections.baseUrl();
    await write(
      project.text +
        `\ntargets:\n  staging:\n    baseUrl: ${actual}\n    applications:\n      test-app: other-app\n  production:\n    baseUrl: ${actual}\n    protected: true\n`,
    );
    await services.project.reload();
    const before = await services.project.only();
    assert.ok(before.kind === 'ok' && before.target.target.name === 'default', 'the file says no default: its own target is active');
    assert.equal(services.treeView.title, 'default');
    assert.match(services.testing.profiles.server?.label ?? '', /\(default\)/);

    const pick = stubQuickPick((items) => items.find((i) => i.target?.name === 'staging'));
    try {
      assert.equal(await vscode.commands.executeCommand('customActions.switchTarget'), 'staging');
    } finally {
      pick.dispose();
    }
    const items = pick.offered[0] ?? [];
    assert.deepEqual(
      items.map((i) => i.target?.name),
      ['default', 'staging', 'production'],
    );
    assert.match(items[0]!.label, /^\$\(check\) default/, 'the active target is checked');
    assert.doesNotMatch(items[1]!.label, /check/);
    assert.match(items[2]!.label, /\$\(lock\)/, 'the protected target is marked');
    assert.match(items[2]!.description ?? '', /protected/);

    const state = await services.project.only();
    assert.ok(state.target.target.name === 'staging');
    assert.equal(state.applications.find((a) => a.projectId === 'test-app')?.id, 'other-app', 'the ids of staging');
    assert.equal(picks()[projectFile().toString()], 'staging', "remembered in the workspace's state, for this project file");
    assert.equal(services.treeView.title, 'staging');
    assert.match(services.testing.profiles.server?.label ?? '', /\(staging\)/);

    // A file read again keeps the pick (a new session reads the same workspace state).
    await services.project.reload();
    const again = await services.project.only();
    assert.ok(again.kind === 'ok' && again.target.target.name === 'staging');

    await services.project.pickTarget('production');
    assert.equal(services.treeView.title, 'production (protected)');
  });

  it('forgets a picked target the file no longer has, works on the default and says so', async () => {
    const { actual } = await services.connections.baseUrl();
    await write(project.text + `\ntargets:\n  staging:\n    baseUrl: ${actual}\n    applications:\n      test-app: other-app\n`);
    await services.project.pickTarget('staging');
    const spy = new NotificationSpy();
    try {
      await write(project.text + `\ntargets:\n  qa:\n    baseUrl: ${actual}\n`);
      await services.project.reload();
      const state = await services.project.only();
      assert.ok(state.kind === 'ok', 'still a valid project, not a problem');
      assert.equal(state.target.target.name, 'default');
      assert.equal(picks()[projectFile().toString()], undefined, 'the pick is cleared');
      await eventually(() => spy.matching(/The target staging is no longer in customactions\.yaml/).length === 1 || undefined, 'the user is told');
      assert.equal(services.treeView.title, 'default');
    } finally {
      spy.dispose();
    }
  });

  it('keeps the newest of two quick picks: an older read never undoes a newer one', async () => {
    const { actual } = await services.connections.baseUrl();
    await write(project.text + `\ntargets:\n  staging:\n    baseUrl: ${actual}\n`);
    await services.project.reload();
    const [first, second] = await Promise.all([services.project.pickTarget('staging'), services.project.pickTarget('default')]);
    assert.ok(first.kind === 'ok' && second.kind === 'ok');
    assert.equal((await services.project.only()).target.target.name, 'default');
    assert.equal(first.target.target.name, 'default', 'the older call answers with the newer state');
  });

  it('is not offered in a project without targets', async () => {
    await restoreProjectFile(services, project.text);
    assert.equal(services.treeView.title, 'Custom Actions');
    assert.equal(services.testing.profiles.server?.label, 'Test environment');
  });
});

describe('Switch Target and Promote where no project names targets', function () {
  this.timeout(120_000);
  let services: Services;
  const project = keepProjectFile();
  const nested = () => vscode.Uri.joinPath(workspaceRoot(), 'nested-untargeted');
  let spy: NotificationSpy;
  let picks: ReturnType<typeof stubQuickPick>;

  before(async () => {
    services = (await api()).services;
  });

  beforeEach(async () => {
    await restoreProjectFile(services, project.text);
    // No editor decides the project: the command finds it among the workspace's.
    await closeEditors();
    spy = new NotificationSpy();
    picks = stubQuickPick(() => undefined);
  });

  afterEach(async () => {
    picks.dispose();
    spy.dispose();
    await closeEditors();
    await vscode.workspace.fs.delete(nested(), { recursive: true }).then(undefined, () => undefined);
    await services.project.reload();
  });

  /** Runs both commands; each ends without a result and asks nothing, and the errors each showed are returned. */
  async function runBoth(): Promise<string[]> {
    for (const command of ['customActions.switchTarget', 'customActions.promote'])
      assert.equal(await vscode.commands.executeCommand(command), undefined, `${command} ended without a result`);
    assert.deepEqual(picks.offered, [], 'nothing was offered to pick');
    return spy.shown.filter((m) => m.severity === 'error').map((m) => m.message);
  }

  it('with one project: says that its customactions.yaml names no targets', async () => {
    assert.deepEqual(await runBoth(), Array(2).fill('customactions.yaml names no targets. ' + ADD));
  });

  it('with several projects: says that none of them names targets, not that there is no project; of the file being edited, that its project names none', async () => {
    // A second project on the same sandbox, with an application it already serves: nothing restarts.
    const file = vscode.Uri.joinPath(nested(), 'customactions.yaml');
    await writeText(file, 'baseUrl: local-sandbox\napplications:\n  - id: other-app\n    name: Ops\n    folder: ops\n');
    await eventually(async () => ((await services.project.all()).length === 2 ? true : undefined), 'two projects');
    assert.deepEqual(await runBoth(), Array(2).fill('None of the 2 projects of this workspace names targets in its customactions.yaml. ' + ADD));

    spy.shown.length = 0;
    await vscode.window.showTextDocument(file);
    assert.deepEqual(await runBoth(), Array(2).fill('customactions.yaml of nested-untargeted names no targets. ' + ADD));
  });
});
