/**
 * The extension in VS Code for the Web: code-server runs it from dist/browser.js in the browser's
 * worker extension host (the setting `remote.extensionKind` puts it on the UI side), where every
 * request is the browser's fetch and must pass the sandbox's CORS. A recording proxy in front of
 * the sandbox shows what the browser sends: every request carries the workbench's own origin.
 */
import * as assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { createClient } from '../../src/core/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { eventually } from '../support/eventually';
import { statusItem } from './support/gestures';
import { notification } from './support/notifications';
import { greetWorkspace, signInToUiApp } from './support/standIn';
import { openCustomActionsView, openWorkbench, paletteRows, quickOpen, runCommand, screenshot, treeRow, webview, type Workbench } from './support/workbench';

const EXTENSION_ID = 'custom-actions.custom-actions-vscode';

/** The settings that make code-server run the extension in the browser's worker host (docs/testing.md). */
export const WEB_WORKER_SETTINGS = {
  'remote.extensionKind': { [EXTENSION_ID]: ['web'] },
  'extensions.webWorker': true,
};

interface Recorder {
  readonly url: string;
  /** Each request's method, path and Origin header. */
  readonly seen: { method: string; path: string; origin: string | undefined }[];
  close(): Promise<void>;
}

/** Forwards every request to `target` as it is, and notes what the browser sent. */
async function recordingProxy(target: string): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', origin: req.headers.origin });
    const forward = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('VS Code for the Web: the extension in the browser’s worker host', function () {
  let sandbox: Sandbox;
  let proxy: Recorder;
  let fixture: string;
  let wb: Workbench;
  let page: Page;
  let key: string;
  let id: string;
  let colleague: ReturnType<typeof createClient>;
  const editor = () => page.locator('.editor-instance .monaco-editor').first();
  const serverHolds = (text: string, what: string) =>
    eventually(async () => ((await colleague.getImplementation(id))?.includes(text) ? true : undefined), what, 60_000);

  /** Opens main.ts and types `text` over its line 2, as a user does; auto-save follows. */
  async function retypeReturn(text: string): Promise<void> {
    await runCommand(page, 'View: Close All Editors');
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('main.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.ts' }).first().click({ timeout: 30_000 });
    await editor().locator('.view-lines', { hasText: 'return' }).waitFor({ timeout: 30_000 });
    await editor().locator('.view-lines').click();
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(':2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type(text);
  }

  before(async () => {
    sandbox = await startSandbox({ applications: [{ id: 'ui-app', name: 'UI App' }], log: () => undefined });
    key = sandbox.applications[0]!.key;
    colleague = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key) });
    const created = await colleague.createAction('ui-app', {
      key: 'greet',
      name: 'Greet',
      description: 'Says hello',
      developerEmail: 'dev@example.com',
      parameters: [{ name: 'times', type: 'number' }],
      result: { type: 'text' },
    });
    id = created.id;
    await colleague.putImplementation(created.id, "export function main(times: number): string {\n  return 'hello';\n}\n");
    proxy = await recordingProxy(sandbox.url);
    fixture = greetWorkspace('web', Number(new URL(proxy.url).port));
    wb = await openWorkbench({ fixture, settings: WEB_WORKER_SETTINGS });
    page = wb.page;
    await signInToUiApp(page, key);
  });

  after(async () => {
    await wb?.close();
    await proxy?.close();
    await sandbox?.close();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    await screenshot(page, `web-failed-${(this.currentTest.title.split(':')[0] ?? 'step').replace(/\W+/g, '-')}`);
  });

  it('lists the application’s actions from the sandbox, reached by the browser’s fetch with the workbench’s origin', async () => {
    await openCustomActionsView(page);
    const app = treeRow(page, 'UI App');
    await app.first().waitFor({ timeout: 60_000 });
    if ((await app.first().getAttribute('aria-expanded')) !== 'true') await app.first().click();
    await treeRow(page, 'Greet').first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'web-tree');
    const origin = new URL(page.url()).origin;
    const api = proxy.seen.filter((r) => r.path.startsWith('/api/'));
    assert.ok(api.length > 0, 'no request reached the sandbox');
    // A preflight first (Authorization is not a simple header), then the request itself; all from the page's origin.
    assert.ok(
      api.some((r) => r.method === 'OPTIONS'),
      JSON.stringify(api),
    );
    assert.deepEqual([...new Set(api.map((r) => r.origin))], [origin], JSON.stringify(api));
    await eventually(() => (proxy.seen.some((r) => r.method === 'GET' && r.path.includes('/api/application/ui-app/actions')) ? true : undefined), 'the list');
  });

  it('the metadata form opens action.yaml, and a change typed in it is saved and pushed through fetch', async () => {
    const form = webview(page);
    await runCommand(page, 'View: Close All Editors');
    // Quick Open uses the default editor of action.yaml, the form; a file VS Code last showed as text
    // is reopened in the form by name.
    await quickOpen(page, 'ui-app/greet/action.yaml');
    const opened = await form
      .locator('h1', { hasText: 'Greet' })
      .waitFor({ timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
    if (!opened) {
      await runCommand(page, 'View: Reopen Editor With...');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Custom Action Metadata' }).first().click();
      await form.locator('h1', { hasText: 'Greet' }).waitFor({ timeout: 30_000 });
    }
    await form.locator('#summary', { hasText: 'No problems' }).waitFor({ timeout: 30_000 });
    const description = form.locator('#f-description').locator('input, textarea').first();
    await description.click();
    // Selected by the page, not Ctrl+A, which the webview also hands to the workbench (docs/testing.md).
    await description.selectText();
    await description.pressSequentially('Says hello from the web');
    await screenshot(page, 'web-form');
    // Auto-save is on in VS Code for the Web; the save pushes the metadata.
    await Promise.all([
      statusItem(page, /Pushed metadata of greet/).waitFor({ timeout: 60_000 }),
      eventually(
        async () => ((await colleague.listActions('ui-app')).some((a) => a.description === 'Says hello from the web') ? true : undefined),
        'the description pushed',
        60_000,
      ),
    ]);
    assert.ok(
      proxy.seen.some((r) => r.method === 'PUT' && r.path === `/api/actions/${id}`),
      JSON.stringify(proxy.seen.slice(-10)),
    );
  });

  it('a save pushes through fetch, and a change made on the server since is held and shown', async () => {
    await retypeReturn("return 'from the web';");
    await serverHolds('from the web', 'the auto-saved code pushed');
    await colleague.putImplementation(id, "export function main(times: number): string {\n  return 'theirs';\n}\n");
    await retypeReturn("return 'mine again';");
    await statusItem(page, /greet changed on the server/).waitFor({ timeout: 60_000 });
    await eventually(() => notification(page, /greet changed on the server/, 1_000), 'the held push told', 60_000);
    assert.equal(
      await colleague.getImplementation(id),
      "export function main(times: number): string {\n  return 'theirs';\n}\n",
      'the held push overwrote the server',
    );
    await screenshot(page, 'web-conflict-held');
  });

  it('events of a run appear under the environment', async () => {
    const [listed] = await colleague.listActions('ui-app');
    await colleague.runAction(listed!.eventsUrls, 'Test', { times: 2 });
    await runCommand(page, 'View: Close All Editors');
    await openCustomActionsView(page);
    const greet = treeRow(page, 'Greet').first();
    if ((await greet.getAttribute('aria-expanded')) !== 'true') await greet.locator('.monaco-tl-twistie').click();
    const test = treeRow(page, 'Test').first();
    await test.waitFor({ timeout: 30_000 });
    if ((await test.getAttribute('aria-expanded')) !== 'true') await test.locator('.monaco-tl-twistie').click();
    await eventually(
      async () => ((await page.locator('.pane-body .monaco-list-row', { hasText: /\d\d:\d\d/ }).count()) > 0 ? true : undefined),
      'an event row',
      60_000,
    );
    await screenshot(page, 'web-events');
  });

  it('offers neither the local sandbox nor Debug, and the log says why', async () => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Custom Actions: ');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
    const rows = await paletteRows(page);
    await page.keyboard.press('Escape');
    assert.ok(rows.length > 0);
    for (const row of rows) assert.doesNotMatch(row, /Debug|Local Sandbox/, `offered in the web: ${row}`);
    // Show Log is given again until the Output view shows: a notification or a closing quick input can
    // take the first one's focus on a busy machine.
    const output = page.locator('.output-view .monaco-editor').first();
    await eventually(
      async () => {
        if (!(await output.isVisible())) await runCommand(page, 'Custom Actions: Show Log');
        return (await output.isVisible()) ? true : undefined;
      },
      'the Output view showing the log',
      60_000,
    );
    // The line is logged at activation: after the saves above it has scrolled out of the rendered lines.
    await output.click();
    await page.keyboard.press('Control+Home');
    await page.locator('.output-view .view-lines', { hasText: 'runs no process' }).first().waitFor({ state: 'attached', timeout: 30_000 });
    await screenshot(page, 'web-log');
  });
});
