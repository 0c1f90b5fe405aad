import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { type DebugRun } from '../../../src/extension/debug/localDebug';
import { createDebugAction, type DebugAction, StopTracker, topFrame } from '../debugAction';
import { NotificationSpy } from '../notifications';
import { eventually } from '../support';

describe('Debug: a real run locally under the JavaScript debugger', function () {
  this.timeout(180_000);
  let fixture: DebugAction;
  let main: vscode.Uri;
  let tracker: StopTracker;
  let spy: NotificationSpy;

  before(async () => {
    fixture = await createDebugAction('debug-host-test');
    main = fixture.main;
    tracker = new StopTracker();
    spy = new NotificationSpy();
  });

  after(async () => {
    tracker?.dispose();
    spy?.dispose();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await vscode.commands.executeCommand('customActions.stopAllWatching');
    await fixture?.remove();
  });

  const runOnSandbox = (n: number, mode: 'ok' | 'fail') => fixture.runOnSandbox(n, mode);
  const eventNode = (event: Parameters<DebugAction['eventNode']>[0]) => fixture.eventNode(event);

  it('stops at a breakpoint in main.ts with the event’s inputs as variables, and ends with the recorded result', async () => {
    const recorded = await runOnSandbox(7, 'ok');
    assert.equal(recorded.result, 14);
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(main, new vscode.Position(2, 0)))]);
    const started = Date.now();
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await eventNode(recorded));
    assert.ok(run, 'the debugger started');
    let ended = false;
    void run.done.then(() => (ended = true));
    try {
      const stop = await tracker.of(run.session);
      const took = Date.now() - started;
      const top = await topFrame(stop);
      assert.equal(top.line, 3, 'on the breakpoint’s line');
      assert.ok(top.path?.endsWith('/main.ts'), `in main.ts: ${top.path}`);
      assert.equal(top.variables.n, '7');
      assert.equal(top.variables.mode, "'ok'");
      assert.equal(top.variables.doubled, '14');
      await stop.session.customRequest('continue', { threadId: stop.threadId });
      const outcome = await run.done;
      assert.ok(outcome?.ok, JSON.stringify(outcome));
      assert.equal(outcome.result, recorded.result, 'the same result the sandbox recorded');
      assert.ok(
        spy.shown.some((m) => m.message.includes('Same as the recorded event')),
        JSON.stringify(spy.shown),
      );
      console.log(`    debug: click to stopped at the breakpoint in ${took} ms`);
    } finally {
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
      // A run the test did not see to its end (an assertion failed on the way) is stopped, not left paused.
      if (!ended) await vscode.debug.stopDebugging(run.session);
    }
  });

  it('reports a throwing main’s error on its main.ts line, as the recorded event did', async () => {
    const recorded = await runOnSandbox(5, 'fail');
    assert.equal(recorded.ok, false);
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await eventNode(recorded));
    assert.ok(run);
    // Debug Event of a failure pauses on the line the recorded stack threw from, with the inputs there.
    const stop = await tracker.of(run.session);
    const top = await topFrame(stop);
    assert.equal(top.line, 4, 'paused on the failing line');
    assert.equal(top.variables.n, '5');
    assert.ok(
      vscode.debug.breakpoints.some((b) => b instanceof vscode.SourceBreakpoint && b.location.range.start.line === 3),
      'a breakpoint shows where it pauses',
    );
    await stop.session.customRequest('continue', { threadId: stop.threadId });
    const outcome = await run.done;
    assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.error.message, 'asked to fail on 5');
    assert.deepEqual(vscode.debug.breakpoints, [], 'the run’s breakpoint is gone with it');
    assert.match(outcome.error.stack ?? '', new RegExp(`${main.fsPath.replace(/[.]/g, '\\.')}:4:`), outcome.error.stack);
    const told = await eventually(() => spy.matching(/failed locally: Error: asked to fail on 5/)[0], 'the outcome');
    assert.match(told.message, /Same as the recorded event/, 'the same error the sandbox recorded');
  });

  it('debugs main.ts as it is in the editor, unsaved edits included, with given inputs', async () => {
    const document = await vscode.workspace.openTextDocument(main);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.replace(new vscode.Range(1, 0, 1, 100), '  const doubled: number = n * 3;'));
    try {
      const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugMain', main, { n: 2, mode: 'ok' });
      assert.ok(run);
      const outcome = await run.done;
      assert.ok(outcome?.ok);
      assert.equal(outcome.result, 6);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('starts the debugged process with none of the extension host’s environment but where programs and the temporary folder are', async function () {
    if (process.platform !== 'linux') this.skip();
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(main, new vscode.Position(2, 0)))]);
    const seen = tracker.stops.length;
    try {
      const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugMain', main, { n: 2, mode: 'ok' });
      assert.ok(run);
      const stop = await tracker.next(seen);
      // Paused in main: the process the debugger started, found by its program, read from outside it.
      const debuggees = readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .map((pid) => {
          try {
            const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
            if (!argv.some((a) => a.endsWith('run-local.js'))) return undefined;
            return readFileSync(`/proc/${pid}/environ`, 'utf8')
              .split('\0')
              .filter(Boolean)
              .map((e) => e.slice(0, e.indexOf('=')));
          } catch {
            return undefined;
          }
        })
        .filter((names): names is string[] => names !== undefined);
      assert.ok(debuggees.length > 0, 'the debugged process');
      const allowed = new Set(['PATH', 'TMPDIR', 'TMP', 'TEMP', 'NODE_OPTIONS', 'VSCODE_INSPECTOR_OPTIONS', 'ELECTRON_RUN_AS_NODE']);
      for (const names of debuggees)
        assert.deepEqual(
          names.filter((n) => !allowed.has(n)),
          [],
          'variables of the extension host’s environment',
        );
      await stop.session.customRequest('continue', { threadId: stop.threadId });
      assert.equal((await run.done)?.ok, true);
    } finally {
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    }
  });

  it('offers Run | Debug above main, and links stack frames of an event to main.ts lines', async () => {
    // The workbench answers for open documents only: this test must not rely on an earlier one having opened it.
    await vscode.workspace.openTextDocument(main);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', main);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.some((t) => t.includes('Debug')) && titles.some((t) => t.includes('Run')), titles.join(' | '));
    const failed = await runOnSandbox(6, 'fail');
    await vscode.commands.executeCommand('customActions.openEvent', await eventNode(failed));
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    assert.ok(links.length > 0, 'a link on the main.ts frame');
    for (const link of links) {
      assert.equal(link.target?.path, main.path);
      assert.match(link.target?.fragment ?? '', /^L4,/);
    }
  });
});
