import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type TreeNode } from '../../../src/extension/tree/nodes';
import { api, eventually } from '../support';

/**
 * The local sandbox starts while the user reads the applications, not on the first expand, and is
 * not started again behind the back of a user who stopped it. A start is timed, and what it makes the
 * tree do reaches VS Code as one refresh.
 */
describe('Local sandbox: started ahead of the first expand (sandbox)', function () {
  this.timeout(120_000);

  // A watch polls through the sandbox and would start it again itself: none is left from other suites.
  before(async () => (await api()).services.events.unwatchAll(true));

  after(async () => {
    // Other suites expect a running sandbox to be started on demand, as a user would have it.
    await vscode.commands.executeCommand('customActions.startSandbox');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('is not started ahead after the user stopped it', async () => {
    const { services } = await api();
    await vscode.commands.executeCommand('customActions.stopSandbox');
    assert.equal(services.sandbox.state.kind, 'stopped');
    const roots = await services.tree.getChildren();
    assert.ok(
      roots.some((n) => n.kind === 'application'),
      'the applications are shown',
    );
    assert.equal(services.sandbox.state.kind, 'stopped', 'still stopped');
  });

  it('starts when the view shows the applications of a local-sandbox workspace, with no expand', async () => {
    const { services } = await api();
    await vscode.commands.executeCommand('customActions.startSandbox');
    assert.equal(services.sandbox.state.kind, 'running');
    // The sandbox ends by itself (as when a window was closed elsewhere): nobody asked for it to stop.
    const state = services.sandbox.state;
    assert.ok(state.kind === 'running' && state.pid !== undefined, 'the sandbox process');
    process.kill(state.pid, 'SIGTERM');
    await eventually(() => (services.sandbox.state.kind === 'stopped' ? true : undefined), 'the sandbox to end');
    assert.equal(services.sandbox.state.kind, 'stopped');
    await services.tree.getChildren();
    await eventually(() => (services.sandbox.state.kind === 'running' ? true : undefined), 'the sandbox to run, started by showing the applications');
  });

  it('times its start: spawn to ready, and to running with the keys stored', async () => {
    const { services } = await api();
    await vscode.commands.executeCommand('customActions.startSandbox');
    const state = services.sandbox.state;
    assert.ok(state.kind === 'running', 'running');
    const timing = state.started;
    assert.ok(timing.readyMs > 0 && timing.readyMs <= timing.totalMs, JSON.stringify(timing));
  });

  it('turns the refreshes of a start into one change event for VS Code', async () => {
    const { services } = await api();
    const fired: (TreeNode | undefined)[] = [];
    const listener = services.tree.onDidChangeTreeData((node) => fired.push(node));
    try {
      await vscode.commands.executeCommand('customActions.stopSandbox');
      await eventually(() => (fired.length > 0 ? true : undefined), "the stop's refresh");
      fired.length = 0;
      // The keys stored for each application and the command's own refresh, all together.
      await vscode.commands.executeCommand('customActions.startSandbox');
      await eventually(() => (fired.length > 0 ? true : undefined), 'the change event');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(fired, [undefined], 'one refresh of everything');
    } finally {
      listener.dispose();
    }
  });
});
