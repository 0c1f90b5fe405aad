import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import * as vscode from 'vscode';
import { type DebugRun } from '../../../src/extension/debug/localDebug';
import { createDebugAction, DEBUG_CODE, type DebugAction, finish, StopTracker } from '../debugAction';
import { NotificationSpy } from '../notifications';
import { EXTENSION_ID, eventually } from '../support';

const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));

interface Output {
  readonly session: vscode.DebugSession;
  /** The message's body as the adapter sent it; read once the run ended, after every tracker saw it. */
  readonly body: { category?: string; output?: string };
}

describe('Debug as the user sees it: the session named after the action, a Debug Console without this machine’s paths, a test case’s inputs', function () {
  this.timeout(180_000);
  let fixture: DebugAction;
  let tracker: StopTracker;
  let spy: NotificationSpy;
  const outputs: Output[] = [];
  const names = new Map<string, string>();
  const started: vscode.DebugSession[] = [];
  let watching: vscode.Disposable[] = [];

  before(async () => {
    fixture = await createDebugAction('debug-console-test');
    tracker = new StopTracker();
    spy = new NotificationSpy();
    watching = [
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => ({
          onDidSendMessage: (message: { type?: string; event?: string; body?: Output['body'] }) => {
            if (message.type === 'event' && message.event === 'output' && message.body) outputs.push({ session, body: message.body });
          },
        }),
      }),
      vscode.debug.onDidStartDebugSession((session) => started.push(session)),
      // The names the workbench showed while the sessions ran.
      vscode.debug.onDidTerminateDebugSession((session) => names.set(session.id, session.name)),
    ];
  });

  after(async () => {
    for (const d of watching) d.dispose();
    tracker?.dispose();
    spy?.dispose();
    await fixture?.remove();
  });

  const ofRun = (run: DebugRun) => (session: vscode.DebugSession) => session.id === run.session.id || session.parentSession?.id === run.session.id;

  it('debugs the inputs of a test case file, in a session named after the action and the set, with no path of this machine in the Debug Console', async () => {
    // A pinned test: inputs and what they should give, as the Testing view reads it.
    const set = vscode.Uri.joinPath(fixture.folder, 'inputs', 'seven case.json');
    await write(set, JSON.stringify({ description: 'doubles seven', inputs: { n: 7, mode: 'ok' }, expect: { result: 14 } }, null, 2));
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugInputSet', set);
    assert.ok(run, `the debugger started: ${JSON.stringify(spy.shown)}`);
    const outcome = await finish(run, tracker);
    assert.ok(outcome?.ok, JSON.stringify(outcome));
    assert.equal(outcome.result, 14);

    const expected = 'debug-console-test (input set seven case)';
    assert.equal(run.session.name, expected);
    // js-debug runs the program in a child session, the one the Call Stack and the toolbar show.
    const ours = ofRun(run);
    const child = await eventually(() => started.find((s) => s.parentSession?.id === run.session.id && names.has(s.id)), 'the child session ended');
    assert.equal(names.get(child.id), expected, `every session of the run has the action's name: ${JSON.stringify([...names.values()])}`);

    const lines = outputs.filter((o) => ours(o.session)).map((o) => o.body.output ?? '');
    const text = lines.join('');
    assert.match(text, /Debugging debug-console-test \(input set seven case\) on this machine: main\.ts as it is in the editor\./, text);
    assert.match(text, /doubled is 14/, 'main’s log');
    const machinePaths = [tmpdir(), process.execPath, vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri.fsPath, 'run-local.js', 'request.json'];
    for (const path of machinePaths) assert.ok(!text.includes(path), `the Debug Console shows ${path}:\n${text}`);
  });

  it('names a Debug Event session after the action and the recorded event', async () => {
    const recorded = await fixture.runOnSandbox(3, 'ok');
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await fixture.eventNode(recorded));
    assert.ok(run);
    await finish(run, tracker);
    assert.match(run.session.name, /^debug-console-test \(recorded event \d{1,2}:\d{2}(:\d{2})?/, run.session.name);
  });

  it('keeps the result and the comparison with the recorded event one command away after the notification closed', async () => {
    const recorded = await fixture.runOnSandbox(4, 'ok');
    // The code changed since the event was recorded: the local run gives 12, not 8.
    await write(fixture.main, DEBUG_CODE.replace('n * 2', 'n * 3'));
    try {
      const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await fixture.eventNode(recorded));
      assert.ok(run);
      const outcome = await finish(run, tracker);
      assert.ok(outcome?.ok && outcome.result === 12, JSON.stringify(outcome));
      const told = await eventually(() => spy.shown.find((m) => m.message.includes('ran locally: 12')), 'the outcome told');
      assert.match(told.message, /The recorded event differs\./);
      assert.deepEqual(told.items, ['Open Result', 'Compare with Recorded']);
      // The notification is left unanswered, as when it closes; its two choices are commands.
      await vscode.commands.executeCommand('customActions.compareLocalRunWithRecorded');
      const diff = await eventually(() => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputTextDiff ? vscode.window.tabGroups.activeTabGroup.activeTab : undefined;
      }, 'the diff of the recorded event and the local run');
      assert.equal(diff.label, 'debug-console-test: recorded ↔ local run');
      await vscode.commands.executeCommand('customActions.openLocalRunResult');
      const result = await eventually(() => {
        const document = vscode.window.activeTextEditor?.document;
        return document?.uri.path.endsWith('(local run).json') ? document : undefined;
      }, 'the result in an editor');
      assert.deepEqual(JSON.parse(result.getText()), { result: 12 });
    } finally {
      await write(fixture.main, DEBUG_CODE);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  for (const autoSave of ['off', 'afterDelay'] as const) {
    it(`runs main.ts as it is in the editor, as the Debug Console says before it runs (auto-save ${autoSave})`, async () => {
      const files = vscode.workspace.getConfiguration('files');
      await files.update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixture.main));
      try {
        await editor.edit((e) => e.replace(new vscode.Range(1, 0, 1, 100), '  const doubled: number = n * 5;'));
        const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugMain', fixture.main, { n: 2, mode: 'ok' });
        assert.ok(run);
        const outcome = await finish(run, tracker);
        assert.ok(outcome?.ok && outcome.result === 10, `the editor's code ran: ${JSON.stringify(outcome)}`);
        const text = outputs
          .filter((o) => ofRun(run)(o.session))
          .map((o) => o.body.output ?? '')
          .join('');
        const said = text.indexOf('Debugging debug-console-test (given inputs) on this machine: main.ts as it is in the editor.\n');
        assert.ok(said >= 0 && said < text.indexOf('doubled is 10'), `said before main ran:\n${text}`);
      } finally {
        await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
        await write(fixture.main, DEBUG_CODE);
        await vscode.commands.executeCommand('workbench.action.files.revert');
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
    });
  }
});
