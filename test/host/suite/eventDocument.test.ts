import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../../src/core/client';
import { type ActionNode, type ApplicationNode, type EnvironmentNode, type EventNode } from '../../../src/extension/tree/nodes';
import { api, eventually } from '../support';

const APP = 'test-app';
const KEY = 'event-document-test';
const CODE = `export function main(): string {
  console.log('about to fail');
  throw new Error('asked to fail');
}
`;

const two = (n: number) => String(n).padStart(2, '0');
/** Local wall-clock time, written out here rather than borrowed from the code under test. */
function clock(ms: number): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
function day(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** An event opened from the tree: a tab a person can tell apart from others, and times a person can read. */
describe('Event documents: readable tab name and times (sandbox)', function () {
  this.timeout(120_000);
  let actionId: string | undefined;

  async function appNode(): Promise<ApplicationNode> {
    const { services } = await api();
    const node = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === APP);
    assert.ok(node, `${APP} in the tree`);
    return node;
  }

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { services } = await api();
    // The run watched the Test events: that watch ends with the suite, before its action goes.
    await services.events.unwatchAll(true);
    const app = (await appNode()).app;
    const id = actionId;
    if (id) await services.connections.call(app, (c) => c.deleteAction(id));
    services.model.refresh();
  });

  it('names the tab "<action> · <environment> · <time> <outcome>" and writes readable times beside the raw ones', async () => {
    const { services } = await api();
    const app = (await appNode()).app;
    const created = await services.connections.call(app, (c) =>
      c.createAction(APP, {
        key: KEY,
        name: 'Event document test',
        description: '',
        developerEmail: 'dev@example.com',
        parameters: [],
        result: { type: 'text' },
      }),
    );
    actionId = created.id;
    await services.connections.call(app, (c) => c.putImplementation(created.id, CODE));
    services.model.refresh(app);
    const action = await eventually(
      async () => (await services.tree.getChildren(await appNode())).find((n): n is ActionNode => n.kind === 'action' && n.key === KEY),
      'the action in the tree',
    );
    const test = (await services.tree.getChildren(action)).find((n): n is EnvironmentNode => n.kind === 'environment' && n.environment === 'Test');
    assert.ok(test, 'a Test node');
    const event = await vscode.commands.executeCommand<NormalizedEvent | undefined>('customActions.runAction', test, 'Test', {});
    assert.ok(event?.startTime !== undefined && !event.ok, 'a failed run with a start time');
    const node: EventNode = { kind: 'event', parent: test, event };

    await vscode.commands.executeCommand('customActions.openEvent', node);
    const expected = `${KEY} · Test · ${clock(event.startTime)} failed`;
    const tab = await eventually(() => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.label === expected ? active : undefined;
    }, `a tab named "${expected}" (active: "${vscode.window.tabGroups.activeTabGroup.activeTab?.label}")`);
    assert.ok(!tab.label.includes(event.id), 'the tab is not named by the id');

    const document = vscode.window.activeTextEditor?.document;
    assert.ok(document, 'the event is open in an editor');
    assert.equal(document.languageId, 'jsonc', 'JSON with comments');
    const text = document.getText();
    const readable = `${day(event.startTime)} ${clock(event.startTime)}`;
    assert.ok(text.startsWith('//'), 'a summary on top');
    assert.match(text, new RegExp(`^// .*${KEY} failure at ${readable}\\.\\d{3}`, 'm'), 'the start, readable, in the summary');
    assert.match(text, /^\/\/ .*asked to fail/m, 'the error in the summary');
    const startLine = text.split('\n').find((l) => l.includes(`"startTime": ${event.startTime}`));
    assert.ok(startLine, 'the raw start time is kept');
    assert.match(startLine, new RegExp(`// ${readable}\\.\\d{3}$`), 'with the readable time beside it');
    // What the comments annotate is still the server's JSON: strip the comments and it parses back.
    const json = text
      .split('\n')
      .filter((l) => !l.startsWith('//'))
      .map((l) => l.replace(/,? \/\/ [^"]*$/, (m) => (m.startsWith(',') ? ',' : '')))
      .join('\n');
    assert.deepEqual(JSON.parse(json), event.raw);
  });
});
