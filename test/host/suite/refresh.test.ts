import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ActionNode, type ApplicationNode, type TreeNode } from '../../../src/extension/tree/nodes';
import { api, eventually, EXTENSION_ID } from '../support';

const APP = 'test-app';
const KEY = 'refresh-test-stale';

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}

/**
 * The view's title-bar Refresh is handed the focused row as its argument (VS Code does that for view
 * title actions); it must refresh everything all the same, while a row's own Refresh stays a row's.
 */
describe('Refresh: the title bar refreshes everything, a row itself (sandbox)', function () {
  this.timeout(120_000);

  async function appNode(): Promise<ApplicationNode> {
    const { services } = await api();
    const node = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === APP);
    assert.ok(node, `${APP} in the tree`);
    return node;
  }

  async function shownAction(): Promise<ActionNode | undefined> {
    const { services } = await api();
    return (await services.tree.getChildren(await appNode())).find((n): n is ActionNode => n.kind === 'action' && n.key === KEY);
  }

  /** What the tree fires while `run` runs (and after, until something fired, when `untilFired`): `undefined` means everything. */
  async function firedDuring(run: () => Thenable<unknown>, untilFired = false): Promise<(TreeNode | undefined)[]> {
    const { services } = await api();
    const fired: (TreeNode | undefined)[] = [];
    const listener = services.tree.onDidChangeTreeData((node) => fired.push(node));
    try {
      await run();
      if (untilFired) await eventually(() => (fired.length > 0 ? true : undefined), 'a change event');
    } finally {
      listener.dispose();
    }
    return fired;
  }

  after(async () => {
    const { services } = await api();
    const app = (await appNode()).app;
    const listed = await services.connections.call(app, (c) => c.listActions(APP));
    for (const a of listed.filter((a) => a.key === KEY)) await services.connections.call(app, (c) => c.deleteAction(a.id));
    services.model.refresh();
  });

  it('Refresh from the title bar, handed the focused row, refetches every list', async function () {
    // A list read for reasons of its own (a project file put back by the suite before, seen late by the
    // workspace's watcher) can come between the delete and the check that the cache is stale; the test
    // then proves nothing of Refresh and tries again.
    this.retries(2);
    const { services } = await api();
    const app = (await appNode()).app;
    const created = await services.connections.call(app, (c) =>
      c.createAction(APP, { key: KEY, name: 'Stale', description: '', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } }),
    );
    services.model.refresh(app);
    const row = await eventually(shownAction, 'the action in the tree');
    // Gone behind the extension's back (another window, the platform's UI): the cached list is stale.
    await services.connections.call(app, (c) => c.deleteAction(created.id));
    assert.ok(await shownAction(), 'still shown from the cached list');
    // Refreshes of everything that come together are one change event, a moment later: wait for it.
    const fired = await firedDuring(() => vscode.commands.executeCommand('customActions.refresh', row), true);
    assert.ok(fired.length > 0 && fired.every((n) => n === undefined), `the whole tree, not a row: ${fired.map((n) => n?.kind).join(', ')}`);
    assert.equal(await shownAction(), undefined, 'the list was fetched again');
  });

  it("a row's Refresh refreshes that row only", async () => {
    const app = await appNode();
    const fired = await firedDuring(() => vscode.commands.executeCommand('customActions.refreshItem', app));
    assert.deepEqual(fired, [app]);
  });

  it('contributes the two as separate commands: Refresh in the title bar, the row one on rows', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { menus: Record<string, MenuItem[]> } };
    const title = pkg.contributes.menus['view/title'] ?? [];
    const rows = pkg.contributes.menus['view/item/context'] ?? [];
    assert.ok(title.some((m) => m.command === 'customActions.refresh'));
    assert.deepEqual(
      rows.filter((m) => m.command === 'customActions.refresh'),
      [],
      'no row invokes the title-bar command',
    );
    assert.ok(rows.some((m) => m.command === 'customActions.refreshItem' && m.when?.includes('viewItem == application')));
  });
});
