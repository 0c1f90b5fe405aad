import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../src/core/client';
import { type ActionMetadata } from '../../src/core/schema';
import { type DebugRun } from '../../src/extension/debug/localDebug';
import { type LocalOutcome } from '../../src/sandbox/runner/local/localRun';
import { serializeActionYaml } from '../../src/core/workspace';
import { type ActionNode, type ApplicationNode, type EnvironmentNode, type EventNode } from '../../src/extension/tree/nodes';
import { actionMetadata, N_AND_MODE } from '../support/metadata';
import { api, eventually, workspaceRoot } from './support';

/**
 * An action of the fixture's test-app for the debug suites, in the workspace and on the local sandbox:
 * `main(n, mode)` doubles n, logging on line 3, and throws on line 4 when mode is 'fail'. Each suite
 * gets its own key, so suites share no state.
 */
export function debugMetadata(key: string): ActionMetadata {
  return actionMetadata({ key, name: 'Debug host test', description: 'Doubles, or fails when asked to', parameters: N_AND_MODE, result: { type: 'number' } });
}

/** Line 3 (index 2) is where breakpoints go; line 4 throws. */
export const DEBUG_CODE = `export function main(n: number, mode: string): number {
  const doubled: number = n * 2;
  console.log('doubled is ' + doubled);
  if (mode === 'fail') throw new Error('asked to fail on ' + n);
  return doubled;
}
`;

export interface DebugAction {
  readonly key: string;
  readonly metadata: ActionMetadata;
  readonly folder: vscode.Uri;
  readonly main: vscode.Uri;
  readonly action: ActionNode;
  readonly testEnv: EnvironmentNode;
  /** Runs main on the sandbox's Test environment, as Run Action does; the event it recorded. */
  runOnSandbox(n: number, mode: 'ok' | 'fail'): Promise<NormalizedEvent>;
  /** The tree's node of an event under Test. */
  eventNode(event: NormalizedEvent): Promise<EventNode>;
  /** Deletes the action on the sandbox and its folder. */
  remove(): Promise<void>;
}

async function appNode(): Promise<ApplicationNode> {
  const { services } = await api();
  const node = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === 'test-app');
  assert.ok(node, 'test-app in the tree');
  return node;
}

export async function createDebugAction(key: string): Promise<DebugAction> {
  const { services } = await api();
  const metadata = debugMetadata(key);
  const app = (await appNode()).app;
  const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', key);
  const main = vscode.Uri.joinPath(folder, 'main.ts');
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'action.yaml'), new TextEncoder().encode(serializeActionYaml(metadata)));
  await vscode.workspace.fs.writeFile(main, new TextEncoder().encode(DEBUG_CODE));
  const existing = await services.connections.call(app, (c) => c.listActions(app.id));
  const id = existing.find((a) => a.key === key)?.id ?? (await services.connections.call(app, (c) => c.createAction(app.id, metadata))).id;
  await services.connections.call(app, (c) => c.putImplementation(id, DEBUG_CODE));
  services.model.refresh();
  const action = (await services.tree.getChildren(await appNode())).find((n): n is ActionNode => n.kind === 'action' && n.key === key);
  assert.ok(action?.remote, 'the action is listed');
  const testEnv = (await services.tree.getChildren(action)).find((n): n is EnvironmentNode => n.kind === 'environment' && n.environment === 'Test');
  assert.ok(testEnv, 'its Test environment');
  return {
    key,
    metadata,
    folder,
    main,
    action,
    testEnv,
    async runOnSandbox(n, mode) {
      const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', testEnv, 'Test', { n, mode });
      assert.ok(event, 'the sandbox ran it');
      return event;
    },
    async eventNode(event) {
      return eventually(
        async () => (await services.tree.getChildren(testEnv)).find((n): n is EventNode => n.kind === 'event' && n.event.id === event.id),
        'the event under Test',
      );
    },
    async remove() {
      const remote = action.remote;
      if (remote) await services.connections.call(app, (c) => c.deleteAction(remote.id)).then(undefined, () => undefined);
      await vscode.workspace.fs.delete(folder, { recursive: true }).then(undefined, () => undefined);
      services.model.refresh();
    },
  };
}

export interface Stop {
  readonly session: vscode.DebugSession;
  readonly threadId: number;
}

/**
 * Every `stopped` event the debug adapters send (but stops on entry), observed as VS Code receives
 * them. js-debug runs the program in a child session of the one started: `of` finds either.
 */
export class StopTracker implements vscode.Disposable {
  readonly stops: Stop[] = [];
  private readonly stopped = new vscode.EventEmitter<Stop>();
  readonly onDidStop = this.stopped.event;
  private readonly registration = vscode.debug.registerDebugAdapterTrackerFactory('*', {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (message: { type?: string; event?: string; body?: { threadId?: number; reason?: string } }) => {
        if (message.type !== 'event' || message.event !== 'stopped' || message.body?.reason === 'entry') return;
        const stop = { session, threadId: message.body?.threadId ?? 0 };
        this.stops.push(stop);
        this.stopped.fire(stop);
      },
    }),
  });

  /** The stop of `session` (or of its child), once there is one. */
  of(session: vscode.DebugSession): Promise<Stop> {
    return eventually(() => this.stops.find((s) => s.session.id === session.id || s.session.parentSession?.id === session.id), 'stopped at the breakpoint');
  }

  /** The first stop of any session started after `count` stops had been seen. */
  next(count: number): Promise<Stop> {
    return eventually(() => this.stops[count], 'stopped at the breakpoint');
  }

  dispose(): void {
    this.registration.dispose();
    this.stopped.dispose();
  }
}

/** The top frame of a stop and the variables of its local scope, by name, as the Variables view shows them. */
export async function topFrame(stop: Stop): Promise<{ line: number; path: string | undefined; variables: Record<string, string> }> {
  const trace = (await stop.session.customRequest('stackTrace', { threadId: stop.threadId })) as {
    stackFrames: { id: number; line: number; source?: { path?: string } }[];
  };
  const top = trace.stackFrames[0];
  assert.ok(top, 'a frame');
  const { scopes } = (await stop.session.customRequest('scopes', { frameId: top.id })) as { scopes: { name: string; variablesReference: number }[] };
  const local = scopes.find((s) => /local/i.test(s.name)) ?? scopes[0];
  assert.ok(local, 'a scope');
  const { variables } = (await stop.session.customRequest('variables', { variablesReference: local.variablesReference })) as {
    variables: { name: string; value: string }[];
  };
  return { line: top.line, path: top.source?.path, variables: Object.fromEntries(variables.map((v) => [v.name, v.value])) };
}

/** Answers the input form and pickers in place of the user: `answer` gets each input box's or quick pick's options and items. */
export interface PickerCall {
  readonly kind: 'inputBox' | 'quickPick';
  readonly title: string | undefined;
  /** The input box's prefilled value. */
  readonly value: string | undefined;
  readonly items: readonly { label: string; id?: string }[];
}

export function answerPickers(answer: (call: PickerCall) => unknown): vscode.Disposable & { readonly calls: PickerCall[] } {
  const calls: PickerCall[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = { showQuickPick: window.showQuickPick, showInputBox: window.showInputBox };
  window.showQuickPick = async (items: readonly { label: string }[] | Thenable<readonly { label: string }[]>, options?: vscode.QuickPickOptions) => {
    const call: PickerCall = { kind: 'quickPick', title: options?.title, value: undefined, items: await items };
    calls.push(call);
    return answer(call);
  };
  window.showInputBox = (options?: vscode.InputBoxOptions) => {
    const call: PickerCall = { kind: 'inputBox', title: options?.title, value: options?.value, items: [] };
    calls.push(call);
    return Promise.resolve(answer(call));
  };
  return { calls, dispose: () => Object.assign(window, originals) };
}

/** Lets a run go to its end, continuing each stop of its session on the way (Debug Event of a failure pauses where it failed). */
export async function finish(run: DebugRun, tracker: StopTracker): Promise<LocalOutcome | undefined> {
  const ours = (stop: Stop) => stop.session.id === run.session.id || stop.session.parentSession?.id === run.session.id;
  const go = (stop: Stop) => void stop.session.customRequest('continue', { threadId: stop.threadId }).then(undefined, () => undefined);
  // The stops from now on as they come, and those seen before.
  const listener = tracker.onDidStop((stop) => ours(stop) && go(stop));
  try {
    for (const stop of tracker.stops.filter(ours)) go(stop);
    return await run.done;
  } finally {
    listener.dispose();
  }
}
