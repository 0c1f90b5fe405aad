import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseInputSetFile } from '../../../src/core/testing';
import { type DebugRun } from '../../../src/extension/debug/localDebug';
import { type EventNode } from '../../../src/extension/tree/nodes';
import { answerPickers, createDebugAction, type DebugAction, finish, StopTracker } from '../debugAction';
import { NotificationSpy } from '../notifications';
import { api, eventually } from '../support';

const read = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

describe('Debug from events: the last failure above main, Save as Input Set, Compare with Recorded, events without inputs', function () {
  this.timeout(180_000);
  let fixture: DebugAction;
  let spy: NotificationSpy;
  let tracker: StopTracker;

  before(async () => {
    fixture = await createDebugAction('debug-events-test');
    tracker = new StopTracker();
  });

  beforeEach(() => {
    spy = new NotificationSpy();
  });

  afterEach(async () => {
    spy.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    tracker?.dispose();
    await vscode.commands.executeCommand('customActions.stopAllWatching');
    await fixture?.remove();
  });

  /** The lenses of main.ts, as the editor would ask for them (the workbench needs the document open). */
  async function lenses(): Promise<vscode.CodeLens[]> {
    await vscode.workspace.openTextDocument(fixture.main);
    return vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', fixture.main);
  }

  it('shows the last failure of a watched environment above main, debugs that event from it, and drops it once a run succeeds', async () => {
    await vscode.commands.executeCommand('customActions.showEvents', fixture.testEnv);
    await fixture.runOnSandbox(3, 'fail');
    const lens = await eventually(async () => (await lenses()).find((l) => l.command?.title.includes('Last Test run failed')), 'the last failure above main');
    assert.match(lens.command!.title, /asked to fail on 3 — Debug this event/);
    assert.equal(lens.range.start.line, 0, 'on the line of main');
    const run = await vscode.commands.executeCommand<DebugRun | undefined>(lens.command!.command, ...(lens.command!.arguments ?? []));
    assert.ok(run, 'the debugger started from the lens');
    const outcome = await finish(run, tracker);
    assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.error.message, 'asked to fail on 3', 'the event’s own inputs were replayed');
    const told = await eventually(() => spy.matching(/locally/)[0], 'the outcome');
    assert.match(told.message, /failed locally: Error: asked to fail on 3\. Same as the recorded event/);

    await fixture.runOnSandbox(3, 'ok');
    await eventually(
      async () => ((await lenses()).some((l) => l.command?.title.includes('Last Test run failed')) ? undefined : true),
      'the lens gone once the newest run succeeded',
    );
    await vscode.commands.executeCommand('customActions.stopAllWatching');
  });

  it('Save as Input Set writes the event’s inputs where input sets go, as a plain set the parser reads', async () => {
    const recorded = await fixture.runOnSandbox(21, 'ok');
    const pickers = answerPickers((call) => (call.kind === 'inputBox' ? 'from event' : undefined));
    let saved: vscode.Uri | undefined;
    try {
      saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('customActions.saveEventAsInputSet', await fixture.eventNode(recorded));
    } finally {
      pickers.dispose();
    }
    assert.ok(saved, 'saved');
    assert.equal(saved.toString(), vscode.Uri.joinPath(fixture.folder, 'inputs', 'from event.json').toString());
    const file = parseInputSetFile(await read(saved), fixture.metadata.parameters);
    assert.equal(file.form, 'plain');
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.inputs, { n: 21, mode: 'ok' });
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), saved.toString(), 'the saved set is shown');
    // And the set debugs as the event did.
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugInputSet', saved);
    assert.ok(run);
    const outcome = await run.done;
    assert.ok(outcome?.ok, JSON.stringify(outcome));
    assert.equal(outcome.result, recorded.result);
  });

  it('Compare with Recorded opens VS Code’s diff of the recorded event and the local run when they differ', async () => {
    const recorded = await fixture.runOnSandbox(2, 'ok');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fixture.main));
    await editor.edit((e) => e.replace(new vscode.Range(1, 0, 1, 100), '  const doubled: number = n * 3;'));
    try {
      const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await fixture.eventNode(recorded));
      assert.ok(run);
      const outcome = await run.done;
      assert.ok(outcome?.ok);
      assert.equal(outcome.result, 6, 'main.ts as it is in the editor');
      const told = await eventually(() => spy.matching(/ran locally: 6\. The recorded event differs\./)[0], 'the outcome, compared');
      assert.deepEqual(told.items, ['Open Result', 'Compare with Recorded']);
      told.answer('Compare with Recorded');
      const diff = await eventually(
        () =>
          vscode.window.tabGroups.all
            .flatMap((g) => g.tabs)
            .map((t) => t.input)
            .find((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff),
        'a diff editor',
      );
      const [left, right] = await Promise.all([vscode.workspace.openTextDocument(diff.original), vscode.workspace.openTextDocument(diff.modified)]);
      assert.deepEqual(JSON.parse(left.getText()), { result: 4 }, 'the recorded event on the left');
      assert.deepEqual(JSON.parse(right.getText()), { result: 6 }, 'the local run on the right');
    } finally {
      await vscode.window.showTextDocument(fixture.main);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('an event without its inputs says so, and offers the input form prefilled with the inputs last entered', async () => {
    const { services } = await api();
    const recorded = await fixture.runOnSandbox(8, 'fail');
    const node = await fixture.eventNode(recorded);
    // A server that does not record inputs: the same event without data.inputs.
    const raw = structuredClone(node.event.raw) as { data: Record<string, unknown> };
    delete raw.data.inputs;
    const bare: EventNode = { ...node, event: { ...node.event, raw } };
    // The form was last filled in for this action with n = 8, mode = fail (Run remembers it).
    const first = answerPickers((call) =>
      call.kind === 'inputBox' ? '8' : (call.items.find((i) => i.id === 'fail') ?? call.items.find((i) => i.label.includes('Enter inputs'))),
    );
    try {
      await vscode.commands.executeCommand('customActions.runAction', fixture.testEnv, 'Test');
    } finally {
      first.dispose();
    }

    const cancelled = vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', bare);
    const ask = await eventually(() => spy.matching(/does not carry the inputs/)[0], 'the user told');
    assert.deepEqual(ask.items, ['Enter Inputs…']);
    ask.answer(undefined);
    assert.equal(await cancelled, undefined, 'dismissed: nothing runs');

    const form = answerPickers((call) => (call.kind === 'inputBox' ? call.value : call.items.find((i) => i.id === 'fail')));
    try {
      const started = vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', bare);
      await eventually(() => spy.matching(/does not carry the inputs/)[1], 'asked again').then((m) => m.answer('Enter Inputs…'));
      const run = await started;
      assert.ok(run, 'the debugger started with the inputs entered');
      const outcome = await finish(run, tracker);
      assert.ok(outcome && !outcome.ok);
      assert.equal(outcome.error.message, 'asked to fail on 8', 'the prefilled inputs ran');
      assert.deepEqual(
        form.calls.map((c) => [c.kind, c.value]),
        [
          ['inputBox', '8'],
          ['quickPick', undefined],
        ],
        'one step per parameter, n prefilled',
      );
      assert.ok(services.trust.isTrusted);
    } finally {
      form.dispose();
    }
  });
});
