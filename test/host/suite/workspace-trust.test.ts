import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type RemoteAction } from '../../../src/extension/model';
import { type ActionNode, type ApplicationNode } from '../../../src/extension/tree/nodes';
import { type ActionsTreeProvider, type ViewState } from '../../../src/extension/tree/provider';
import { HOSTILE_APP, type HostileProject, useHostileProject } from '../hostileProject';
import { shownWhile } from '../notifications';
import { api, eventually, setWorkspaceTrust } from '../support';

/**
 * Restricted Mode. The host tests run in a code-server window with workspace trust disabled, where
 * every folder is trusted and onDidGrantWorkspaceTrust never fires, so these tests take the untrusted
 * side through the extension's test-only command (`setWorkspaceTrust` of support.ts): every gate reads the same state, and
 * trusting again goes through the same path as VS Code's grant. What VS Code itself does in Restricted
 * Mode (the banner, the capabilities declaration) is not exercised here.
 */
describe('Workspace trust: nothing contacts the server, runs or deploys before the folder is trusted', function () {
  this.timeout(120_000);

  after(async () => {
    await setWorkspaceTrust(true);
  });

  /** The view's state as the tree last announced it (its welcome content follows it), heard from now on. */
  function viewState(tree: ActionsTreeProvider): { readonly last: ViewState | undefined; dispose(): void } {
    let last: ViewState | undefined;
    const subscription = tree.onDidChangeViewState((state) => (last = state));
    return {
      get last() {
        return last;
      },
      dispose: () => subscription.dispose(),
    };
  }

  describe('with customactions.yaml naming a server', () => {
    let project: HostileProject;

    before(async () => {
      project = await useHostileProject();
      project.server.actions = [
        {
          id: 'h1',
          key: 'one',
          metadata: { key: 'one', name: 'One', description: '', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } },
        },
      ];
    });

    after(async () => {
      await setWorkspaceTrust(true);
      await project.restore();
    });

    it('untrusted: the view says why and offers Manage Workspace Trust; no command sends a request, save to deploy is off', async () => {
      const { services } = await api();
      const view = viewState(services.tree);
      await setWorkspaceTrust(false);
      const heard = project.server.requests.length;
      services.model.refresh();
      assert.deepEqual(await services.tree.getChildren(), [], 'no rows: the lists wait for trust');
      assert.equal(view.last, 'untrusted');
      view.dispose();
      assert.equal(services.config().deployOnSave, false, 'save to deploy is off whatever the setting says');

      const state = await services.project.only();
      const app: ApplicationNode = { kind: 'application', app: state.applications.find((a) => a.id === HOSTILE_APP)! };
      const remote: RemoteAction = {
        id: 'h1',
        key: 'one',
        name: 'One',
        description: '',
        eventsUrls: {
          Test: `${project.server.baseUrl}/api/actions/h1/environments/test/events`,
          Live: `${project.server.baseUrl}/api/actions/h1/environments/live/events`,
        },
      };
      const action: ActionNode = { kind: 'action', parent: app, app: app.app, key: 'one', local: undefined, remote, state: 'remote' };
      const main = vscode.Uri.joinPath(project.appFolder, 'one', 'main.ts');
      await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(project.appFolder, 'one', 'action.yaml'),
        new TextEncoder().encode('key: one\nname: One\ndescription: ""\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n'),
      );
      await vscode.workspace.fs.writeFile(main, new TextEncoder().encode('export async function main(): Promise<string> {\n  return "x";\n}\n'));

      const shown = await shownWhile(
        async () => {
          await vscode.commands.executeCommand('customActions.pullAction', action);
          await vscode.commands.executeCommand('customActions.runAction', action, 'Test', {});
          await vscode.commands.executeCommand('customActions.showEvents', action);
          await vscode.commands.executeCommand('customActions.deleteAction', action, { confirmed: true });
          await vscode.commands.executeCommand('customActions.signIn', app);
          await vscode.commands.executeCommand('customActions.pushImplementation', main);
          await vscode.commands.executeCommand('customActions.refresh');
          await services.tree.getChildren();
        },
        (m) => (m.modal ? 'Delete' : undefined),
      );
      assert.deepEqual(project.server.requests.slice(heard), [], 'the server the workspace names heard nothing, least of all a key');
      const told = shown.filter((m) => /needs a trusted workspace/.test(m.message));
      assert.ok(told.length >= 5, `each command says it waits for trust: ${JSON.stringify(shown, null, 1)}`);
      assert.ok(
        told.some((m) => m.items.includes('Manage Workspace Trust')),
        'with the way to trust the folder',
      );
      assert.deepEqual(services.events.list(), [], 'no events watch started');
    });

    it('trust granted: the view fills, requests go out with the key, save to deploy follows the setting again', async () => {
      const { services } = await api();
      const view = viewState(services.tree);
      await setWorkspaceTrust(false);
      const heard = project.server.requests.length;
      await setWorkspaceTrust(true);
      const app = await eventually(
        async () => (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === HOSTILE_APP),
        'the application row',
      );
      assert.equal(view.last, 'ready');
      view.dispose();
      const rows = await services.tree.getChildren(app);
      assert.ok(
        rows.some((n) => n.kind === 'action' && n.key === 'one'),
        'the server’s actions are listed',
      );
      assert.ok(
        project.server.requests.slice(heard).some((r) => r.authorization !== undefined),
        'with the key, now that the folder is trusted',
      );
      assert.equal(services.config().deployOnSave, vscode.workspace.getConfiguration('customActions').get('deployOnSave'));
    });
  });

  describe('with the local sandbox', () => {
    it('untrusted: the sandbox does not start, by its command, on first need, or when the view shows its applications', async () => {
      const { services } = await api();
      await services.project.reload();
      const state = await services.project.only();
      assert.ok(state.kind === 'ok' && state.isSandbox, 'the fixture workspace uses the local sandbox');
      const sandbox = services.sandbox as { ensure: typeof services.sandbox.ensure };
      const ensure = sandbox.ensure;
      let starts = 0;
      sandbox.ensure = (...args) => (starts++, ensure.apply(services.sandbox, args));
      const view = viewState(services.tree);
      try {
        await setWorkspaceTrust(false);
        const shown = await shownWhile(async () => {
          await vscode.commands.executeCommand('customActions.startSandbox');
          await assert.rejects(services.connections.baseUrl(), /needs a trusted workspace/);
          // The view showing the sandbox's applications would start it ahead of need, if it showed them.
          assert.deepEqual(await services.tree.getChildren(), []);
          assert.equal(view.last, 'untrusted');
        });
        assert.equal(starts, 0, 'the sandbox, which runs main.ts, was not started');
        assert.ok(
          shown.some((m) => /Starting the local sandbox needs a trusted workspace/.test(m.message)),
          JSON.stringify(shown),
        );
      } finally {
        view.dispose();
        sandbox.ensure = ensure;
        await setWorkspaceTrust(true);
      }
    });
  });
});
