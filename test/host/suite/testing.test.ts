import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as vscode from 'vscode';
import { codeHash, metadataHash } from '../../../src/core/deploy/base';
import { type NormalizedEvent } from '../../../src/core/client';
import { type ActionMetadata } from '../../../src/core/schema';
import { serializeActionYaml } from '../../../src/core/workspace';
import { type ProfileKind } from '../../../src/extension/testing';
import { type ActionNode, type ApplicationNode, type EnvironmentNode, type EventNode } from '../../../src/extension/tree/nodes';
import { ATTEMPT, ATTEMPT_MAIN, attemptCases } from '../../support/confinementAttempts';
import { HOSTILE_APP, type HostileProject, useHostileProject } from '../hostileProject';
import { NotificationSpy } from '../notifications';
import { api, EXTENSION_ID, eventually, staysTrue, workspaceRoot, setWorkspaceTrust } from '../support';

const KEY = 'testing-host-test';
const metadata: ActionMetadata = {
  key: KEY,
  name: 'Testing host test',
  description: 'Doubles n, or misbehaves as asked',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'n', type: 'number' },
    { name: 'mode', type: 'text' },
  ],
  result: { type: { type: 'object', properties: { total: { type: 'number' } } } },
};
// Line 3 throws; 'spin' never ends (only cancel stops it).
const CODE = `export function main(n: number, mode: string): { total: number } {
  console.log('n is ' + n + (mode === 'ansi' ? '\\u001b[2J\\u202e' : ''));
  if (mode === 'fail') throw new Error('asked to fail on ' + n);
  if (mode === 'text') return { total: 'not a number' } as unknown as { total: number };
  while (mode === 'spin') {}
  return { total: n * 2 };
}
`;

const CASES: Record<string, unknown> = {
  doubles: { description: 'doubles two', inputs: { n: 2, mode: 'ok' }, expect: { result: { total: 4 } } },
  wrong: { inputs: { n: 2, mode: 'ok' }, expect: { result: { total: 5 } } },
  throws: { inputs: { n: 7, mode: 'fail' }, expect: { resultContains: { total: 14 } } },
  refuses: { inputs: { n: 1, mode: 'fail' }, expect: { error: { message: '^asked to fail' } } },
  'wrong-type': { inputs: { n: 1, mode: 'text' } },
};

interface Result {
  state: 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';
  messages: readonly vscode.TestMessage[];
  duration?: number;
}

interface RecordedRun {
  readonly results: Map<string, Result>;
  output: string;
  ended: boolean;
}

/** Wraps the controller's createTestRun so the suite sees what each run reports (the Testing API has no reader for it). */
function recordRuns(controller: vscode.TestController): { runs: RecordedRun[]; dispose(): void } {
  const runs: RecordedRun[] = [];
  const original = controller.createTestRun;
  controller.createTestRun = (request, name, persist) => {
    const run = original.call(controller, request, name, persist);
    const recorded: RecordedRun = { results: new Map(), output: '', ended: false };
    runs.push(recorded);
    const set = (item: vscode.TestItem, state: Result['state'], messages: vscode.TestMessage | readonly vscode.TestMessage[] = [], duration?: number) =>
      recorded.results.set(item.id, { state, messages: Array.isArray(messages) ? messages : [messages as vscode.TestMessage], duration });
    return new Proxy(run, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const [item, messages, duration] = args as [vscode.TestItem, vscode.TestMessage[], number | undefined];
          if (property === 'enqueued' || property === 'started' || property === 'skipped') set(item, property);
          if (property === 'passed') set(item, 'passed', [], args[1] as number | undefined);
          if (property === 'failed' || property === 'errored') set(item, property, messages, duration);
          if (property === 'appendOutput') recorded.output += String(args[0]);
          if (property === 'end') recorded.ended = true;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  };
  return { runs, dispose: () => (controller.createTestRun = original) };
}

describe('Testing view: input sets as tests of their action', function () {
  this.timeout(180_000);
  const folder = () => vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY);
  const demoFolder = () => vscode.Uri.joinPath(workspaceRoot(), 'actions', 'score-lead');
  const caseUri = (name: string) => vscode.Uri.joinPath(folder(), 'inputs', `${name}.json`);
  let recorder: ReturnType<typeof recordRuns>;
  let actionId: string | undefined;
  let spy: NotificationSpy;

  async function testing() {
    return (await api()).services.testing;
  }

  /** An item of the Testing view's tree, read as the view reads it (resolveHandler), by id path. */
  async function item(...path: string[]): Promise<vscode.TestItem> {
    const { controller } = await testing();
    return eventually(
      async () => {
        await controller.resolveHandler?.(undefined);
        let current: vscode.TestItem | undefined = controller.items.get(path[0]!);
        for (const id of path.slice(1)) {
          if (!current) return undefined;
          await controller.resolveHandler?.(current);
          current = current.children.get(id);
        }
        return current;
      },
      `the test item ${path.join(' › ')}`,
      // A new folder is told by the file watcher, which lags under CI's load (two cores, other stages beside).
      60_000,
    );
  }

  // The Testing view's item of an application: by its uid (its project's folder and its id), as two projects may share an id.
  const appItemId = (id: string) => `app:${workspaceRoot().toString()}\n${id}`;
  const appId = () => appItemId('test-app');
  const actionItemId = () => `action:${folder().toString()}`;
  const caseItem = (name: string) => item(appId(), actionItemId(), caseUri(name).toString());

  async function run(kind: ProfileKind, items: vscode.TestItem[], token = new vscode.CancellationTokenSource().token): Promise<RecordedRun> {
    const { profiles } = await testing();
    const before = recorder.runs.length;
    const profile = profiles[kind];
    assert.ok(profile, `the ${kind} profile is offered`);
    await profile.runHandler(new vscode.TestRunRequest(items, undefined, profile), token);
    const recorded = recorder.runs[before];
    assert.ok(recorded?.ended, 'the run ended');
    return recorded;
  }

  /** Drops the unsaved edits of main.ts (what a test typed), and waits until they are gone. */
  async function revertMain(): Promise<void> {
    const main = vscode.Uri.joinPath(folder(), 'main.ts');
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === main.toString());
    if (!document?.isDirty) return;
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert', main);
    await eventually(() => (document.isDirty ? undefined : true), 'main.ts reverted');
  }

  async function write(uri: vscode.Uri, text: string): Promise<void> {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  }

  before(async () => {
    const { services } = await api();
    // Unsaved must stay unsaved: VS Code for the Web saves after a delay by default.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    await write(vscode.Uri.joinPath(folder(), 'action.yaml'), serializeActionYaml(metadata));
    await write(vscode.Uri.joinPath(folder(), 'main.ts'), CODE);
    for (const [name, content] of Object.entries(CASES)) await write(caseUri(name), JSON.stringify(content, null, 2) + '\n');
    // The demo's Score Lead with its two saved input sets, as a user would have them.
    const demo = vscode.Uri.joinPath(vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri, 'demo', 'crm', 'score-lead');
    await vscode.workspace.fs.copy(demo, demoFolder(), { overwrite: true });
    recorder = recordRuns(services.testing.controller);
    spy = new NotificationSpy();
  });

  after(async () => {
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    recorder?.dispose();
    spy?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { services } = await api();
    const app = (await services.model.applications()).find((a) => a.id === 'test-app');
    if (actionId && app) await services.connections.call(app, (c) => c.deleteAction(actionId!)).catch(() => undefined);
    for (const f of [folder(), demoFolder()]) await vscode.workspace.fs.delete(f, { recursive: true }).then(undefined, () => undefined);
    services.model.refresh();
  });

  it('discovers applications, actions and the demo’s input sets as the view expands them', async () => {
    const { controller } = await testing();
    const app = await item(appId());
    assert.equal(app.label, 'Test App');
    const demo = await item(appId(), `action:${demoFolder().toString()}`);
    assert.equal(demo.label, 'score-lead');
    assert.equal(demo.description, 'Score Lead');
    const names: string[] = [];
    await controller.resolveHandler?.(demo);
    demo.children.forEach((c) => names.push(c.label));
    assert.deepEqual(names.sort(), ['enterprise-referral', 'freemail-web']);
    const doubles = await caseItem('doubles');
    assert.equal(doubles.description, 'doubles two');
    assert.equal(doubles.uri?.toString(), caseUri('doubles').toString());
  });

  it('runs the demo’s input sets locally: a plain set passes when main does not throw, with its logs', async () => {
    const demo = await item(appId(), `action:${demoFolder().toString()}`);
    const result = await run('local', [demo]);
    const states = [...result.results.values()].map((r) => r.state);
    assert.deepEqual(states, ['passed', 'passed'], JSON.stringify([...result.results.entries()]));
    assert.match(result.output, /\[freemail-web\] free-mail address \(gmail\.com\): -15/);
    for (const r of result.results.values()) assert.ok(typeof r.duration === 'number' && r.duration >= 0);
  });

  it('passes and fails cases with expected and actual, an error at its main.ts line, and a result of the wrong type by field', async () => {
    const action = await item(appId(), actionItemId());
    const result = await run('local', [action]);
    const of = async (name: string) => result.results.get((await caseItem(name)).id);
    assert.equal((await of('doubles'))?.state, 'passed');
    assert.equal((await of('refuses'))?.state, 'passed');
    const wrong = await of('wrong');
    assert.equal(wrong?.state, 'failed');
    const diff = wrong!.messages[0]!;
    assert.equal(diff.expectedOutput, JSON.stringify({ total: 5 }, null, 2));
    assert.equal(diff.actualOutput, JSON.stringify({ total: 4 }, null, 2));
    assert.equal(diff.location?.uri.toString(), caseUri('wrong').toString());
    const threw = (await of('throws'))!;
    assert.equal(threw.state, 'failed');
    assert.match(String(threw.messages[0]!.message), /asked to fail on 7/);
    assert.equal(threw.messages[0]!.location?.uri.path, vscode.Uri.joinPath(folder(), 'main.ts').path);
    assert.equal(threw.messages[0]!.location?.range.start.line, 2, 'line 3 of main.ts');
    const typed = (await of('wrong-type'))!;
    assert.equal(typed.state, 'failed');
    assert.match(String(typed.messages[0]!.message), /result\.total/);
  });

  it('runs main.ts as it is in the editor, unsaved edits included', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder(), 'main.ts'));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.replace(new vscode.Range(5, 0, 5, 100), '  return { total: n * 3 };'));
    try {
      const result = await run('local', [await caseItem('doubles')]);
      const doubles = result.results.get((await caseItem('doubles')).id)!;
      assert.equal(doubles.state, 'failed');
      assert.equal(doubles.messages[0]!.actualOutput, JSON.stringify({ total: 6 }, null, 2));
      assert.ok(document.isDirty, 'the edit was not saved');
      assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri)), CODE, 'the file on disk is as it was');
    } finally {
      await revertMain();
    }
  });

  it('marks the verdicts of an action’s cases outdated when its main.ts or action.yaml changes, in the editor or on disk, and only those', async () => {
    const { controller } = await testing();
    const action = await item(appId(), actionItemId());
    const doubles = await caseItem('doubles');
    const demo = await item(appId(), `action:${demoFolder().toString()}`);
    await controller.resolveHandler?.(demo);
    // The Testing API has no reader for outdated results: the controller's call is watched instead.
    const marked: string[][] = [];
    const original = controller.invalidateTestResults;
    controller.invalidateTestResults = (items) => {
      marked.push((items === undefined ? [] : Array.isArray(items) ? items : [items as vscode.TestItem]).map((i) => i.id));
      original.call(controller, items);
    };
    const markedSince = (count: number) => marked.slice(count).flat();
    const main = vscode.Uri.joinPath(folder(), 'main.ts');
    const yaml = vscode.Uri.joinPath(folder(), 'action.yaml');
    try {
      // An input set: that case only, not its action's other cases.
      let count = marked.length;
      await writeFile(caseUri('doubles').fsPath, JSON.stringify({ ...(CASES.doubles as object), description: 'doubles two, again' }, null, 2) + '\n');
      await eventually(() => (markedSince(count).includes(doubles.id) ? true : undefined), 'the case outdated by its input set');
      await staysTrue(() => !markedSince(count).includes(action.id), 'its action’s other cases keep their verdicts', 1_000);

      // An unsaved edit in the editor: a Local run would take it, so the verdicts are outdated at once.
      count = marked.length;
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main));
      await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// edited\n'));
      await eventually(() => (markedSince(count).includes(action.id) ? true : undefined), 'the action’s verdicts outdated by the edit');
      await revertMain();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

      // Behind VS Code's back (a git pull, another program): main.ts, then action.yaml, on disk.
      for (const [file, text] of [
        [main, CODE + '// pulled\n'],
        [yaml, serializeActionYaml({ ...metadata, description: 'Pulled from elsewhere' })],
      ] as const) {
        count = marked.length;
        await writeFile(file.fsPath, text);
        await eventually(() => (markedSince(count).includes(action.id) ? true : undefined), `the action’s verdicts outdated by ${file.path}`);
      }
      assert.ok(!marked.flat().includes(demo.id), `another action keeps its verdicts: ${JSON.stringify(marked)}`);
    } finally {
      controller.invalidateTestResults = original;
      await write(main, CODE);
      await write(yaml, serializeActionYaml(metadata));
      await write(caseUri('doubles'), JSON.stringify(CASES.doubles, null, 2) + '\n');
    }
  });

  it('shows an input set’s problems at their place, and keeps the tree in step as files change', async () => {
    const bad = caseUri('bad-pattern');
    await write(bad, '{\n  "inputs": { "n": 1, "mode": "fail" },\n  "expect": { "error": { "message": "(" } }\n}\n');
    const badItem = await caseItem('bad-pattern');
    await eventually(() => (badItem.error ? true : undefined), 'the item says what is wrong');
    await vscode.workspace.openTextDocument(bad);
    const diagnostic = await eventually(
      () => vscode.languages.getDiagnostics(bad).find((d) => /regular expression/.test(d.message)),
      'a diagnostic on the pattern',
    );
    assert.equal(diagnostic.range.start.line, 2);
    const result = await run('local', [badItem]);
    assert.equal(result.results.get(badItem.id)?.state, 'errored');
    await vscode.workspace.fs.delete(bad);
    const action = await item(appId(), actionItemId());
    await eventually(() => (action.children.get(bad.toString()) ? undefined : true), 'the deleted set leaves the tree');
  });

  it('cancels a run: the case that never ends stops, and the run ends', async () => {
    const spin = caseUri('spin');
    await write(spin, JSON.stringify({ inputs: { n: 1, mode: 'spin' } }));
    const spinItem = await caseItem('spin');
    const source = new vscode.CancellationTokenSource();
    const before = recorder.runs.length;
    const running = run('local', [spinItem], source.token);
    await eventually(() => (recorder.runs[before]?.results.get(spinItem.id)?.state === 'started' ? true : undefined), 'the case started');
    const cancelledAt = Date.now();
    source.cancel();
    const result = await running;
    assert.equal(result.results.get(spinItem.id)?.state, 'skipped');
    assert.ok(Date.now() - cancelledAt < 10_000, 'ended at the cancel, not at the time limit');
    await vscode.workspace.fs.delete(spin);
  });

  it('Debug: stops at a breakpoint in main.ts, then reports the case as the other profiles do', async () => {
    const main = vscode.Uri.joinPath(folder(), 'main.ts');
    const stops: { session: vscode.DebugSession; threadId: number }[] = [];
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (message: { type?: string; event?: string; body?: { threadId?: number; reason?: string } }) => {
          if (message.type === 'event' && message.event === 'stopped' && message.body?.reason !== 'entry')
            stops.push({ session, threadId: message.body?.threadId ?? 0 });
        },
      }),
    });
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(main, new vscode.Position(1, 0)))]);
    try {
      const doubles = await caseItem('doubles');
      const running = run('debug', [doubles]);
      const stop = await eventually(() => stops[0], 'stopped at the breakpoint', 60_000);
      const trace = (await stop.session.customRequest('stackTrace', { threadId: stop.threadId })) as {
        stackFrames: { line: number; source?: { path?: string } }[];
      };
      assert.equal(trace.stackFrames[0]?.line, 2);
      assert.ok(trace.stackFrames[0]?.source?.path?.endsWith('/main.ts'));
      assert.equal(stop.session.name, `${KEY} (test doubles)`, 'the session the Call Stack shows is named after the action and the case');
      await stop.session.customRequest('continue', { threadId: stop.threadId });
      const result = await running;
      assert.equal(
        result.results.get(doubles.id)?.state,
        'passed',
        JSON.stringify(result.results.get(doubles.id)?.messages.map((m) => [m.message, m.actualOutput])),
      );
      assert.equal(spy.shown.filter((m) => /ran locally/.test(m.message)).length, 0, 'the Testing view reports it, not a notification');
    } finally {
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
      tracker.dispose();
    }
  });

  it('shows the control characters a run logs as escapes in the output, never obeys them', async () => {
    const ansi = caseUri('ansi');
    await write(ansi, JSON.stringify({ inputs: { n: 3, mode: 'ansi' } }));
    const result = await run('local', [await caseItem('ansi')]);
    assert.ok(result.output.includes('[ansi] n is 3\\u001B[2J\\u202E'), result.output);
    assert.ok(!result.output.includes('\u001b') && !result.output.includes('\u202e'), 'no raw escape or bidi override in the output');
    await vscode.workspace.fs.delete(ansi);
  });

  it('Local confines main as the sandbox does: a hostile main.ts gets out of nothing (realm, /proc environ, process.env, code from strings, a file, a connection), and no environment value shows', async () => {
    const attemptFolder = vscode.Uri.joinPath(workspaceRoot(), 'actions', ATTEMPT.key);
    const outside = vscode.Uri.joinPath(vscode.Uri.file(tmpdir()), `custom-actions-outside-${process.pid}.txt`);
    const marker = `outside-file-${Date.now()}`;
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      await write(outside, marker);
      await write(vscode.Uri.joinPath(attemptFolder, 'action.yaml'), serializeActionYaml(ATTEMPT));
      await write(vscode.Uri.joinPath(attemptFolder, 'main.ts'), ATTEMPT_MAIN);
      const cases = attemptCases(outside.fsPath, String((listener.address() as AddressInfo).port));
      for (const [name, content] of Object.entries(cases))
        await write(vscode.Uri.joinPath(attemptFolder, 'inputs', `${name}.json`), JSON.stringify(content, null, 2) + '\n');
      const action = await item(appId(), `action:${attemptFolder.toString()}`);
      for (const name of Object.keys(cases)) await item(appId(), action.id, vscode.Uri.joinPath(attemptFolder, 'inputs', `${name}.json`).toString());
      const result = await run('local', [action]);
      const reported = [...result.results.entries()].filter(([id]) => id !== action.id);
      const said = JSON.stringify(reported.map(([id, r]) => [id, r.state, r.messages.map((m) => [m.message, m.actualOutput])]));
      assert.equal(reported.length, Object.keys(cases).length, said);
      assert.ok(
        reported.every(([, r]) => r.state === 'passed'),
        said,
      );
      // The extension host's environment (what a planted key would be in): not one value reached the results or the output.
      const values = Object.values(process.env).filter((v): v is string => typeof v === 'string' && v.length >= 12);
      const leaked = values.filter((v) => said.includes(v) || result.output.includes(v));
      assert.deepEqual(leaked, [], 'values of the extension host’s environment came through');
      assert.ok(!said.includes(marker) && !result.output.includes(marker), 'the outside file was read');
      assert.equal(connections, 0, 'a connection came in');
    } finally {
      await new Promise((resolve) => listener.close(resolve));
      for (const uri of [attemptFolder, outside]) await vscode.workspace.fs.delete(uri, { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('runs nothing in a workspace that is not trusted: every profile says why', async () => {
    const doubles = await caseItem('doubles');
    await setWorkspaceTrust(false);
    try {
      for (const kind of ['local', 'server', 'debug'] as const) {
        const result = await run(kind, [doubles]);
        const reported = result.results.get(doubles.id);
        assert.equal(reported?.state, 'errored', kind);
        assert.match(String(reported.messages[0]?.message), /trust/i, kind);
      }
    } finally {
      await setWorkspaceTrust(true);
    }
  });

  describe('with the action on the sandbox', () => {
    let testEnv: EnvironmentNode;

    before(async () => {
      const { services } = await api();
      const app = (await services.model.applications()).find((a) => a.id === 'test-app')!;
      const existing = await services.connections.call(app, (c) => c.listActions(app.id));
      actionId = existing.find((a) => a.key === KEY)?.id ?? (await services.connections.call(app, (c) => c.createAction(app.id, metadata))).id;
      const put = await services.connections.call(app, (c) => c.putImplementation(actionId!, CODE));
      // The workspace's copy is derived from that code, as after a Pull: the push before a Test run is checked against it.
      services.deploy.recordBases(
        app,
        { id: actionId, key: KEY },
        { metadata: { etag: undefined, hash: metadataHash(metadata) }, implementation: { etag: put.etag, hash: codeHash(CODE) } },
      );
      services.model.refresh();
      const appNode = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === 'test-app')!;
      const action = await eventually(
        async () => (await services.tree.getChildren(appNode)).find((n): n is ActionNode => n.kind === 'action' && n.key === KEY && !!n.remote),
        'the action listed',
      );
      testEnv = (await services.tree.getChildren(action)).find((n): n is EnvironmentNode => n.kind === 'environment' && n.environment === 'Test')!;
    });

    after(async () => {
      await vscode.commands.executeCommand('customActions.stopAllWatching');
    });

    it('Test environment: pushes the editor’s code first when the server has another, then judges the server’s runs', async () => {
      const { services } = await api();
      const app = (await services.model.applications()).find((a) => a.id === 'test-app')!;
      const main = vscode.Uri.joinPath(folder(), 'main.ts');
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(main));
      await editor.edit((e) => e.replace(new vscode.Range(5, 0, 5, 100), '  return { total: n * 2 + 0 };'));
      const edited = editor.document.getText();
      try {
        assert.notEqual(await services.connections.call(app, (c) => c.getImplementation(actionId!)), edited);
        const items = await Promise.all(['doubles', 'wrong', 'throws'].map((n) => caseItem(n)));
        const result = await run('server', items);
        assert.equal(
          await services.connections.call(app, (c) => c.getImplementation(actionId!)),
          edited,
          `pushed before the runs: ${result.output} ${JSON.stringify([...result.results.values()].map((r) => [r.state, r.messages.map((m) => String(m.message))]))}`,
        );
        assert.match(result.output, /pushed to the server before its tests ran/);
        assert.equal(result.results.get(items[0]!.id)?.state, 'passed');
        const wrong = result.results.get(items[1]!.id)!;
        assert.equal(wrong.state, 'failed');
        assert.equal(wrong.messages[0]!.actualOutput, JSON.stringify({ total: 4 }, null, 2));
        const threw = result.results.get(items[2]!.id)!;
        assert.equal(threw.state, 'failed');
        assert.match(String(threw.messages[0]!.message), /asked to fail on 7/);
        assert.match(result.output, /\[doubles\] n is 2/);
      } finally {
        await revertMain();
      }
    });

    it('Pin as Test: a failed event becomes a case with its inputs and the result to fill in, in the tree at once', async () => {
      const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', testEnv, 'Test', { n: 9, mode: 'fail' });
      assert.ok(event && !event.ok, 'the sandbox recorded a failure');
      const { services } = await api();
      const node = await eventually(
        async () => (await services.tree.getChildren(testEnv)).find((n): n is EventNode => n.kind === 'event' && n.event.id === event.id),
        'the event under Test',
      );
      const pinned = await vscode.commands.executeCommand<vscode.Uri | undefined>('customActions.pinEventAsTest', node, 'pinned-failure');
      assert.equal(pinned?.toString(), caseUri('pinned-failure').toString());
      const content = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(pinned))) as Record<string, unknown>;
      assert.deepEqual(content.inputs, { n: 9, mode: 'fail' });
      assert.deepEqual(content.expect, { result: null });
      assert.match(String(content.description), /asked to fail on 9/);
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.getText(editor.selection), 'null', 'the result to fill in is selected');
      const pinnedItem = await caseItem('pinned-failure');
      const result = await run('local', [pinnedItem]);
      assert.equal(result.results.get(pinnedItem.id)?.state, 'failed', 'fails until main is fixed');
    });
  });
  describe('on a server that cannot start runs', () => {
    let project: HostileProject;

    before(async () => {
      project = await useHostileProject();
      // No capability document: the spec's operations only, so no runs from VS Code.
      project.server.failPaths['/api'] = { status: 404, body: { status: 404, detail: 'no such thing' } };
      project.server.actions = [{ id: 'h1', key: 'one', metadata: { ...metadata, key: 'one' }, code: CODE }];
      const one = vscode.Uri.joinPath(project.appFolder, 'one');
      await write(vscode.Uri.joinPath(one, 'action.yaml'), serializeActionYaml({ ...metadata, key: 'one' }));
      await write(vscode.Uri.joinPath(one, 'main.ts'), CODE);
      await write(vscode.Uri.joinPath(one, 'inputs', 'doubles.json'), JSON.stringify(CASES.doubles));
    });

    after(async () => {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(project.appFolder, 'one'), { recursive: true }).then(undefined, () => undefined);
      await project.restore();
    });

    it('Test environment: each case says why it cannot run there, and nothing is pushed or run', async () => {
      const one = vscode.Uri.joinPath(project.appFolder, 'one');
      const doubles = await item(appItemId(HOSTILE_APP), `action:${one.toString()}`, vscode.Uri.joinPath(one, 'inputs', 'doubles.json').toString());
      const result = await run('server', [doubles]);
      const reported = result.results.get(doubles.id);
      assert.equal(reported?.state, 'errored');
      assert.match(String(reported.messages[0]?.message), /no way to start a run/);
      assert.deepEqual(
        project.server.requests.filter((r) => r.method !== 'GET'),
        [],
        'no push, no run',
      );
      const local = await run('local', [doubles]);
      assert.equal(local.results.get(doubles.id)?.state, 'passed', 'the Local profile still runs it');
    });
  });
});
