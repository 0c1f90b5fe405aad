import * as assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../../src/core/client';
import { serializeActionYaml } from '../../../src/core/workspace';
import { type ActionNode, type ApplicationNode, type EnvironmentNode } from '../../../src/extension/tree/nodes';
import { actionMetadata, N_AND_MODE } from '../../support/metadata';
import { EVENTS_CHANNEL_NAME } from '../../../src/extension/events/channel';
import { api, eventually, outputChannelText, staysTrue, workspaceRoot } from '../support';

const KEY = 'events-host-test';
const metadata = actionMetadata({
  key: KEY,
  name: 'Events host test',
  description: 'Logs, and fails when asked to',
  parameters: N_AND_MODE,
  result: { type: 'number' },
});
const CODE = `export function main(n: number, mode: string): number {
  console.log('run number ' + n);
  console.warn('mode is ' + mode);
  if (mode === 'fail') throw new Error('asked to fail on ' + n);
  return n * 2;
}
`;

/** Forwards to the sandbox and counts what passes; can refuse every request with 401. */
class CountingProxy {
  requests = 0;
  refuse = false;
  private server: Server | undefined;

  constructor(private readonly target: URL) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.requests++;
      if (this.refuse) {
        res.writeHead(401, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'key revoked by the test' }));
        return;
      }
      const upstream = request(
        { host: this.target.hostname, port: this.target.port, path: req.url, method: req.method, headers: { ...req.headers, host: this.target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  /** From now on every request is refused, and those held open (long polls) are cut, as a revoked key would be. */
  revokeKey(): void {
    this.refuse = true;
    this.server?.closeAllConnections();
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe('Event logs: streaming and running (sandbox)', function () {
  this.timeout(120_000);
  let action: ActionNode;
  let testEnv: EnvironmentNode;

  async function appNode(): Promise<ApplicationNode> {
    const { services } = await api();
    const node = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === 'test-app');
    assert.ok(node, 'test-app in the tree');
    return node;
  }

  /** The events channel as the Output view shows it: shown first, so VS Code hands over its document. */
  async function channelText(): Promise<string> {
    (await api()).services.events.showChannel(true);
    return outputChannelText(EVENTS_CHANNEL_NAME) ?? '';
  }

  async function run(n: number, mode: 'ok' | 'fail'): Promise<NormalizedEvent> {
    const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', testEnv, 'Test', { n, mode });
    assert.ok(event, `run ${n} returned its event`);
    return event;
  }

  before(async () => {
    const { services } = await api();
    const app = (await appNode()).app;
    // A local folder too, so the parameters come from action.yaml and input sets have a home.
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'action.yaml'), new TextEncoder().encode(serializeActionYaml(metadata)));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'main.ts'), new TextEncoder().encode(CODE));
    const existing = await services.connections.call(app, (c) => c.listActions(app.id));
    let id = existing.find((a) => a.key === KEY)?.id;
    id ??= (await services.connections.call(app, (c) => c.createAction(app.id, metadata))).id;
    const actionId = id;
    await services.connections.call(app, (c) => c.putImplementation(actionId, CODE));
    services.model.refresh();
    const found = (await services.tree.getChildren(await appNode())).find((n): n is ActionNode => n.kind === 'action' && n.key === KEY);
    assert.ok(found?.remote, 'the action is listed');
    action = found;
    const envs = await services.tree.getChildren(action);
    const test = envs.find((n): n is EnvironmentNode => n.kind === 'environment' && n.environment === 'Test');
    assert.ok(test, 'a Test node');
    testEnv = test;
  });

  // Other suites expect the applications empty: the action goes, on the server and in the workspace.
  after(async () => {
    await vscode.commands.executeCommand('customActions.stopAllWatching');
    const { services } = await api();
    const remote = action?.remote;
    if (remote) await services.connections.call(action.parent.app, (c) => c.deleteAction(remote.id));
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY), { recursive: true }).then(undefined, () => undefined);
    services.model.refresh();
  });

  it('streams each run into the channel exactly once, in order, with its logs', async () => {
    const { services } = await api();
    await vscode.commands.executeCommand('customActions.showEvents', testEnv);
    const watch = services.events.find(action.parent.app, testEnv.eventsUrl);
    assert.ok(watch, 'the environment is watched');
    await watch.poller.whenReady();
    const events = [await run(1, 'ok'), await run(2, 'ok'), await run(3, 'ok')];
    const headers = await eventually(async () => {
      const lines = (await channelText()).split('\n').filter((l) => l.startsWith(`[Test] ${KEY} `));
      return lines.length >= 3 ? lines : undefined;
    }, 'three event headers in the channel');
    // A repeat would come with a later poll: watch through a few of them.
    await staysTrue(
      async () => (await channelText()).split('\n').filter((l) => l.startsWith(`[Test] ${KEY} `)).length === 3,
      'three headers, no repeats',
      2_000,
    );
    const text = await channelText();
    for (const [i, event] of events.entries()) {
      assert.equal(text.split(`run number ${i + 1}\n`).length - 1, 1, `the log of run ${i + 1} appears once`);
      assert.ok(event.ok);
    }
    assert.equal(text.split('\n').filter((l) => l.startsWith(`[Test] ${KEY} `)).length, 3, 'three headers, no repeats');
    assert.ok(
      headers.every((h) => / success at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \(/.test(h)),
      headers.join('\n'),
    );
    const order = [1, 2, 3].map((n) => text.indexOf(`run number ${n}`));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      'printed in start-time order',
    );
    assert.match(text, /^ {4}\d\d:\d\d:\d\d\.\d{3} warn {2}mode is ok$/m);
  });

  it('shows the error of a failing run', async () => {
    const event = await run(4, 'fail');
    assert.equal(event.ok, false);
    const line = await eventually(
      async () => (await channelText()).split('\n').find((l) => l.includes('error:') && l.includes('asked to fail on 4')),
      'the error line',
    );
    assert.match(line, /^ {4}error: /);
    assert.ok((await channelText()).includes(`[Test] ${KEY} failure at `));
  });

  it('runs a saved input set from its file, and refuses one that does not fit the parameters', async () => {
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY, 'inputs');
    const good = vscode.Uri.joinPath(folder, 'five.json');
    await vscode.workspace.fs.writeFile(good, new TextEncoder().encode(JSON.stringify({ n: 5, mode: 'ok' })));
    const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runInputSet', good, 'Test');
    assert.ok(event?.ok, 'the set ran');
    assert.deepEqual(event.result, 10);
    await eventually(async () => ((await channelText()).includes('run number 5') ? true : undefined), 'the run of the set in the channel');
    // What the run came to, on its own line after its logs.
    assert.match(await channelText(), /run number 5\n(?: {4}.*\n)*? {4}result: 10$/m);
    const bad = vscode.Uri.joinPath(folder, 'bad.json');
    await vscode.workspace.fs.writeFile(bad, new TextEncoder().encode(JSON.stringify({ n: 'five', mode: 'maybe' })));
    const refused = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runInputSet', bad, 'Test');
    assert.equal(refused, undefined, 'a set with problems does not run');
  });

  it('shows recent events under the Test node from the same poller', async () => {
    const { services } = await api();
    const children = await services.tree.getChildren(testEnv);
    assert.ok(children.length >= 5, `events under Test: ${children.length}`);
    assert.ok(children.every((c) => c.kind === 'event'));
  });

  /**
   * Points the application's requests at `proxy` while `body` runs: the client takes only URLs on its
   * base URL's origin, so a proxy on another port is reached by making it the base, as a user's
   * customactions.yaml would.
   */
  async function throughProxy(proxy: CountingProxy, body: (eventsUrl: string) => Promise<void>): Promise<void> {
    const { services } = await api();
    const base = await proxy.start();
    const connections = services.connections as { baseUrl: typeof services.connections.baseUrl };
    const original = connections.baseUrl;
    connections.baseUrl = async () => ({ ...(await original.call(services.connections)), actual: `${base}/` });
    try {
      await body(base + new URL(testEnv.eventsUrl).pathname);
    } finally {
      connections.baseUrl = original;
      await proxy.close();
    }
  }

  it('stops every request when watching stops', async () => {
    const { services } = await api();
    const proxy = new CountingProxy(new URL(testEnv.eventsUrl));
    await throughProxy(proxy, async (eventsUrl) => {
      const watch = services.events.watch({ app: action.parent.app, actionId: action.remote?.id ?? '', actionKey: KEY, environment: 'Live', eventsUrl });
      await watch.poller.whenReady();
      // The sandbox offers long poll: after the baseline one request is held open, and stopping must abort it too.
      await eventually(() => (proxy.requests >= 2 ? true : undefined), 'the baseline and a held poll through the proxy');
      await vscode.commands.executeCommand('customActions.stopAllWatching');
      assert.deepEqual(services.events.list(), []);
      const after = proxy.requests;
      // Nothing signals a request that is never sent: watch for longer than a poll's interval.
      await staysTrue(() => proxy.requests === after, 'no request after stop', 3_000);
    });
  });

  it('stops the watch with one message on a 401', async () => {
    const { services } = await api();
    const proxy = new CountingProxy(new URL(testEnv.eventsUrl));
    await throughProxy(proxy, async (eventsUrl) => {
      const watch = services.events.watch({ app: action.parent.app, actionId: action.remote?.id ?? '', actionKey: KEY, environment: 'Live', eventsUrl });
      await watch.poller.whenReady();
      await eventually(() => (proxy.requests >= 2 ? true : undefined), 'a held poll through the proxy');
      proxy.revokeKey();
      await eventually(() => (services.events.list().length === 0 ? true : undefined), 'the watch to stop', 60_000);
      const stopLines = async () =>
        (await channelText()).split('\n').filter((l) => l.startsWith(`-- Stopped watching Live events of ${KEY}: the server refused the key (401)`));
      const stops = await eventually(async () => ((await stopLines()).length > 0 ? stopLines() : undefined), 'the message in the channel');
      assert.equal(stops.length, 1);
      const after = proxy.requests;
      // As above: an absence has no event to wait for.
      await staysTrue(() => proxy.requests === after, 'no request after the 401', 2_000);
    });
  });
});
