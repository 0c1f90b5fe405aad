import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type DebugRun } from '../../../src/extension/debug/localDebug';
import { createDebugAction, type DebugAction, StopTracker, topFrame } from '../debugAction';
import { NotificationSpy } from '../notifications';
import { eventually, setWorkspaceTrust, workspaceRoot } from '../support';

const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));

describe('Debug launch: F5 with a customActions configuration, and nothing in an untrusted workspace', function () {
  this.timeout(180_000);
  let fixture: DebugAction;
  let tracker: StopTracker;
  let spy: NotificationSpy;
  const launchJson = () => vscode.Uri.joinPath(workspaceRoot(), '.vscode', 'launch.json');

  before(async () => {
    fixture = await createDebugAction('debug-launch-test');
    await write(vscode.Uri.joinPath(fixture.folder, 'inputs', 'seven.json'), JSON.stringify({ n: 7, mode: 'ok' }));
    tracker = new StopTracker();
  });

  beforeEach(() => {
    spy = new NotificationSpy();
  });

  afterEach(async () => {
    spy.dispose();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
  });

  after(async () => {
    tracker?.dispose();
    await setWorkspaceTrust(true);
    await vscode.workspace.fs.delete(launchJson()).then(undefined, () => undefined);
    await fixture?.remove();
  });

  it('F5 runs the launch.json configuration naming an input set: stopped at the breakpoint with its inputs, then the result', async () => {
    const name = 'Debug launch test (seven)';
    await write(
      launchJson(),
      JSON.stringify(
        {
          version: '0.2.0',
          configurations: [
            {
              type: 'customActions',
              request: 'launch',
              name,
              action: '${workspaceFolder}/actions/debug-launch-test',
              inputSet: '${workspaceFolder}/actions/debug-launch-test/inputs/seven.json',
            },
          ],
        },
        null,
        2,
      ),
    );
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(fixture.main, new vscode.Position(2, 0)))]);
    const seen = tracker.stops.length;
    const started = new Promise<vscode.DebugSession>((resolve) => {
      const listener = vscode.debug.onDidStartDebugSession((session) => {
        if (session.name === name) {
          listener.dispose();
          resolve(session);
        }
      });
    });
    // F5: the Run view's selected configuration, which is launch.json's only one once VS Code has read it.
    await eventually(
      () => (vscode.workspace.getConfiguration('launch', workspaceRoot()).get<{ name: string }[]>('configurations') ?? []).find((c) => c.name === name),
      'launch.json read',
    );
    await vscode.commands.executeCommand('workbench.action.debug.start');
    const session = await started;
    assert.match(session.configuration.type, /node/, 'resolved into a node launch of the harness');
    const stop = await tracker.next(seen);
    const top = await topFrame(stop);
    assert.equal(top.line, 3);
    assert.ok(top.path?.endsWith('/debug-launch-test/main.ts'), top.path);
    assert.equal(top.variables.n, '7', 'the input set’s inputs');
    assert.equal(top.variables.mode, "'ok'");
    await stop.session.customRequest('continue', { threadId: stop.threadId });
    await eventually(() => spy.matching(/debug-launch-test ran locally: 14\./)[0], 'the result');
  });

  it('untrusted: Debug, Debug Input Set, Debug Event and F5 start nothing and say why', async () => {
    const recorded = await fixture.runOnSandbox(4, 'ok');
    const node = await fixture.eventNode(recorded);
    const sessions: string[] = [];
    const listener = vscode.debug.onDidStartDebugSession((s) => sessions.push(s.name));
    await setWorkspaceTrust(false);
    try {
      const runs = [
        await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugMain', fixture.main, { n: 1, mode: 'ok' }),
        await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugInputSet', vscode.Uri.joinPath(fixture.folder, 'inputs', 'seven.json')),
        await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', node),
      ];
      assert.deepEqual(runs, [undefined, undefined, undefined]);
      const f5 = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
        type: 'customActions',
        request: 'launch',
        name: 'untrusted',
        action: fixture.folder.fsPath,
        inputs: { n: 1, mode: 'ok' },
      });
      assert.equal(f5, false, 'F5 started nothing');
      const told = await eventually(() => {
        const found = spy.matching(/^Debugging an action needs a trusted workspace/);
        return found.length >= 4 ? found : undefined;
      }, 'each says it waits for trust');
      assert.ok(told.every((m) => m.items.includes('Manage Workspace Trust')));
      assert.deepEqual(sessions, [], 'no debug session started');
    } finally {
      listener.dispose();
      await setWorkspaceTrust(true);
    }
  });
});
