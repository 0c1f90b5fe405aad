import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type ActionNode, type ApplicationNode, type TreeNode } from '../../../src/extension/tree/nodes';
import { HOSTILE_APP, type HostileProject, useHostileProject } from '../hostileProject';
import { NotificationSpy, type Shown } from '../notifications';
import { api, eventually } from '../support';

/** VS Code's rule for links in notifications (vs/base/common/linkedText.ts): what must not match. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
/** In Markdown: an unescaped `](`, `<`, `![`, or a bare scheme would be a link, HTML or an image. */
const MARKDOWN_LINK = /(?<!\\)\]\s*(?<!\\)\(|(?<!\\)<|(?<!\\)!\[|https?:\/\/|command:/i;
const QUIT = '[click](command:workbench.action.quit)';

function metadata(key: string): Record<string, unknown> {
  return { key, name: key, description: '', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' } };
}

async function write(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

/**
 * Text from a server (a 422's detail, an action's key, name and description, a command's error)
 * reaches notifications, tree rows and tooltips as text: no `command:` link to click, no Markdown.
 * The notifications are read where the extension hands them to VS Code (test/host/shownMessages.ts).
 */
describe('Security: server text is shown as text, never as a link or a command', function () {
  this.timeout(120_000);
  let project: HostileProject;

  before(async () => {
    project = await useHostileProject();
  });

  after(async () => {
    await project.restore();
  });

  async function children(): Promise<TreeNode[]> {
    const { services } = await api();
    services.model.refresh();
    const app = (await services.tree.getChildren()).find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === HOSTILE_APP);
    assert.ok(app, 'the hostile application in the tree');
    return services.tree.getChildren(app);
  }

  async function nodeOf(id: string): Promise<ActionNode> {
    return eventually(async () => (await children()).find((n): n is ActionNode => n.kind === 'action' && n.remote?.id === id), `the node of ${id}`);
  }

  async function run(command: string, arg: unknown, answer: (shown: Shown) => string | undefined = () => undefined): Promise<Shown[]> {
    const capture = new NotificationSpy(answer);
    try {
      await vscode.commands.executeCommand(command, arg);
      // Some failures are reported without holding up the command.
      await eventually(() => (capture.shown.some((m) => m.severity === 'error') ? true : undefined), 'an error message', 10_000).catch(() => undefined);
      return [...capture.shown];
    } finally {
      capture.dispose();
    }
  }

  it('a 422 detail with a command link reaches the error notification as plain text', async () => {
    const folder = vscode.Uri.joinPath(project.appFolder, 'refused');
    await write(
      vscode.Uri.joinPath(folder, 'action.yaml'),
      'key: refused\nname: Refused\ndescription: ""\ndeveloperEmail: dev@example.com\nparameters: []\nresult:\n  type: text\n',
    );
    project.server.actions = [];
    project.server.reject = { status: 422, body: { status: 422, title: 'Invalid', detail: `${QUIT} or <https://evil.example>` } };
    const node = await eventually(async () => (await children()).find((n): n is ActionNode => n.kind === 'action' && n.key === 'refused'), 'the local action');
    const shown = await run('customActions.createOnServer', node);
    const error = shown.find((m) => m.severity === 'error');
    assert.ok(error, `an error is shown: ${JSON.stringify(shown)}`);
    assert.doesNotMatch(error.message, NOTIFICATION_LINK);
    assert.ok(error.message.includes('[click] (command:workbench.action.quit)'), `the detail is there, as text: ${error.message}`);
  });

  it('any command’s failure (Delete refused with a link in its detail) is shown as plain text', async () => {
    project.server.actions = [{ id: 'h-del', key: 'doomed', metadata: metadata('doomed') }];
    project.server.reject = {
      status: 422,
      body: { status: 422, detail: `cannot delete: ${QUIT}`, errors: [{ path: 'key', message: '[x](command:workbench.action.quit)' }] },
    };
    const shown = await run('customActions.deleteAction', await nodeOf('h-del'), (m) => (m.modal ? 'Delete' : undefined));
    const error = shown.find((m) => m.severity === 'error');
    assert.ok(error, `an error is shown: ${JSON.stringify(shown)}`);
    assert.doesNotMatch(error.message, NOTIFICATION_LINK);
    assert.match(error.message, /cannot delete/);
  });

  it('a key that is a link is shown as text where a command says the action is only on the server', async () => {
    project.server.actions = [{ id: 'h-link', key: QUIT, metadata: metadata('linked') }];
    const shown = await run('customActions.openCode', await nodeOf('h-link'));
    assert.ok(shown.length > 0, 'the user is told something');
    for (const m of shown) assert.doesNotMatch(m.message, NOTIFICATION_LINK);
  });

  it('a run’s failure and result from the server are shown as plain text', async () => {
    project.server.actions = [{ id: 'h-run', key: 'runner', metadata: metadata('runner') }];
    const node = await nodeOf('h-run');
    const capture = new NotificationSpy(() => undefined);
    try {
      project.server.runEvent = { id: 'e-fail', name: 'failure', data: { error: { message: `boom ${QUIT}` } } };
      await vscode.commands.executeCommand('customActions.runAction', node, 'Test', {});
      project.server.runEvent = { id: 'e-ok', name: 'success', data: { result: QUIT } };
      await vscode.commands.executeCommand('customActions.runAction', node, 'Test', {});
      const shown = await eventually(() => (capture.shown.length >= 2 ? [...capture.shown] : undefined), 'both runs announced');
      assert.ok(
        shown.some((m) => /boom/.test(m.message)),
        JSON.stringify(shown),
      );
      for (const m of shown) assert.doesNotMatch(m.message, NOTIFICATION_LINK);
    } finally {
      capture.dispose();
      const { services } = await api();
      await services.events.unwatchAll(true);
    }
  });

  it('names and descriptions become tree rows and tooltips without links, images, HTML or trust', async () => {
    project.server.actions = [
      {
        id: 'h-md',
        key: 'markdown',
        name: `Name ${QUIT} $(alert)`,
        description: `![img](https://evil.example/p.png) ${QUIT} <img src=x onerror=alert(1)> https://evil.example \u202Egnp.exe`,
        metadata: metadata('markdown'),
      },
    ];
    const { services } = await api();
    const item = services.tree.getTreeItem(await nodeOf('h-md'));
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    assert.doesNotMatch(label, NOTIFICATION_LINK);
    assert.ok(!label.includes('$('), 'no icon syntax in the label');
    assert.ok(item.tooltip instanceof vscode.MarkdownString, 'the tooltip is Markdown');
    const tooltip = item.tooltip;
    assert.ok(!tooltip.isTrusted, 'not trusted: no command link runs');
    assert.ok(!tooltip.supportHtml, 'no HTML');
    assert.ok(!tooltip.supportThemeIcons, 'no icons');
    assert.doesNotMatch(tooltip.value, MARKDOWN_LINK, tooltip.value);
    assert.ok(tooltip.value.includes('\\u202E'), 'the bidi override is shown, not obeyed');
  });

  it('an error row of the tree shows the server’s detail as text', async () => {
    const { services } = await api();
    // The list itself fails: a 500 whose detail carries a link.
    const listing = `/api/application/${HOSTILE_APP}/actions`;
    project.server.failPaths = { [listing]: { status: 500, body: { status: 500, detail: `down, see ${QUIT}` } } };
    try {
      const rows = await children();
      const error = rows.find((n) => n.kind === 'message');
      assert.ok(error, `an error row: ${JSON.stringify(rows.map((r) => r.kind))}`);
      const item = services.tree.getTreeItem(error);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      assert.match(label, /down, see/);
      assert.doesNotMatch(label, NOTIFICATION_LINK);
      assert.doesNotMatch(String(item.tooltip), NOTIFICATION_LINK);
    } finally {
      project.server.failPaths = {};
    }
  });
});
