import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../../src/core/client';
import { type ActionMetadata } from '../../../src/core/schema';
import { serializeActionYaml } from '../../../src/core/workspace';
import { type DebugRun } from '../../../src/extension/debug/localDebug';
import { type ActionNode, type ApplicationNode, type EnvironmentNode, type EventNode } from '../../../src/extension/tree/nodes';
import { NotificationSpy } from '../notifications';
import { api, eventually, workspaceRoot } from '../support';

const KEY = 'debug-host-test';
const metadata: ActionMetadata = {
  key: KEY,
  name: 'Debug host test',
  description: 'Doubles, or fails when asked to',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'n', type: 'number' },
    {
      name: 'mode',
      type: {
        type: 'single-choice',
        choices: [
          { id: 'ok', label: 'Succeed' },
          { id: 'fail', label: 'Fail' },
        ],
      },
    },
  ],
  result: { type: 'number' },
};
// Line 3 (index 2) is where the breakpoint goes; line 4 throws.
const CODE = `export function main(n: number, mode: string): number {
  const doubled: number = n * 2;
  console.log('doubled is ' + doubled);
  if (mode === 'fail') throw new Error('asked to fail on ' + n);
  return doubled;
}
`;

interface Stop {
  session: vscode.DebugSession;
  threadId: number;
}

describe('Debug: a real run locally under the JavaScript debugger', function () {
  this.timeout(180_000);
  let action: ActionNode;
  let testEnv: EnvironmentNode;
  let main: vscode.Uri;
  const stops: Stop[] = [];
  let tracker: vscode.Disposable;
  let spy: NotificationSpy;

  async function appNode(): Promise<ApplicationNode> {
    const { services } = await api();
    const node = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === 'test-app');
    assert.ok(node, 'test-app in the tree');
    return node;
  }

  async function eventNode(event: NormalizedEvent): Promise<EventNode> {
    const { services } = await api();
    return eventually(
      async () => (await services.tree.getChildren(testEnv)).find((n): n is EventNode => n.kind === 'event' && n.event.id === event.id),
      'the event under Test',
    );
  }

  before(async () => {
    const { services } = await api();
    const app = (await appNode()).app;
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY);
    main = vscode.Uri.joinPath(folder, 'main.ts');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'action.yaml'), new TextEncoder().encode(serializeActionYaml(metadata)));
    await vscode.workspace.fs.writeFile(main, new TextEncoder().encode(CODE));
    const existing = await services.connections.call(app, (c) => c.listActions(app.id));
    const id = existing.find((a) => a.key === KEY)?.id ?? (await services.connections.call(app, (c) => c.createAction(app.id, metadata))).id;
    await services.connections.call(app, (c) => c.putImplementation(id, CODE));
    services.model.refresh();
    const found = (await services.tree.getChildren(await appNode())).find((n): n is ActionNode => n.kind === 'action' && n.key === KEY);
    assert.ok(found?.remote, 'the action is listed');
    action = found;
    testEnv = (await services.tree.getChildren(action)).find((n): n is EnvironmentNode => n.kind === 'environment' && n.environment === 'Test')!;
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (message: { type?: string; event?: string; body?: { threadId?: number; reason?: string } }) => {
          if (message.type === 'event' && message.event === 'stopped' && message.body?.reason !== 'entry')
            stops.push({ session, threadId: message.body?.threadId ?? 0 });
        },
      }),
    });
    spy = new NotificationSpy();
  });

  after(async () => {
    tracker?.dispose();
    spy?.dispose();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    await vscode.commands.executeCommand('customActions.stopAllWatching');
    const { services } = await api();
    const remote = action?.remote;
    if (remote) await services.connections.call(action.parent.app, (c) => c.deleteAction(remote.id));
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY), { recursive: true }).then(undefined, () => undefined);
    services.model.refresh();
  });

  async function runOnSandbox(n: number, mode: 'ok' | 'fail'): Promise<NormalizedEvent> {
    const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', testEnv, 'Test', { n, mode });
    assert.ok(event, 'the sandbox ran it');
    return event;
  }

  it('stops at a breakpoint in main.ts with the event’s inputs as variables, and ends with the recorded result', async () => {
    const recorded = await runOnSandbox(7, 'ok');
    assert.equal(recorded.result, 14);
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(main, new vscode.Position(2, 0)))]);
    const started = Date.now();
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await eventNode(recorded));
    assert.ok(run, 'the debugger started');
    try {
      // js-debug runs the program in a child session of the one started: its stop is the one to read.
      const stop = await eventually(
        () => stops.find((s) => s.session.id === run.session.id || s.session.parentSession?.id === run.session.id),
        'stopped at the breakpoint',
      );
      const took = Date.now() - started;
      const trace = (await stop.session.customRequest('stackTrace', { threadId: stop.threadId })) as {
        stackFrames: { id: number; line: number; source?: { path?: string } }[];
      };
      const top = trace.stackFrames[0]!;
      assert.equal(top.line, 3, 'on the breakpoint’s line');
      assert.ok(top.source?.path?.endsWith('/main.ts'), `in main.ts: ${top.source?.path}`);
      const { scopes } = (await stop.session.customRequest('scopes', { frameId: top.id })) as { scopes: { name: string; variablesReference: number }[] };
      const local = scopes.find((s) => /local/i.test(s.name)) ?? scopes[0]!;
      const { variables } = (await stop.session.customRequest('variables', { variablesReference: local.variablesReference })) as {
        variables: { name: string; value: string }[];
      };
      const byName = Object.fromEntries(variables.map((v) => [v.name, v.value]));
      assert.equal(byName.n, '7');
      assert.equal(byName.mode, "'ok'");
      assert.equal(byName.doubled, '14');
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
      if (!(await Promise.race([run.done.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))])))
        await vscode.debug.stopDebugging(run.session);
    }
  });

  it('reports a throwing main’s error on its main.ts line, as the recorded event did', async () => {
    const recorded = await runOnSandbox(5, 'fail');
    assert.equal(recorded.ok, false);
    const run = await vscode.commands.executeCommand<DebugRun | undefined>('customActions.debugEvent', await eventNode(recorded));
    assert.ok(run);
    const outcome = await run.done;
    assert.ok(outcome && !outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.error.message, 'asked to fail on 5');
    assert.match(outcome.error.stack ?? '', new RegExp(`${main.fsPath.replace(/[.]/g, '\\.')}:4:`), outcome.error.stack);
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

  it('offers Run | Debug above main, and links stack frames of an event to main.ts lines', async () => {
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
