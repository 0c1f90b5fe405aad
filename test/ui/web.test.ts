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
import { greetWorkspace, signInToUiApp } from './support/standIn';
import { openCustomActionsView, openWorkbench, screenshot, treeRow, type Workbench } from './support/workbench';

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
    const forward = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
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

  before(async () => {
    sandbox = await startSandbox({ applications: [{ id: 'ui-app', name: 'UI App' }], log: () => undefined });
    key = sandbox.applications[0]!.key;
    const colleague = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key) });
    const created = await colleague.createAction('ui-app', {
      key: 'greet',
      name: 'Greet',
      description: 'Says hello',
      developerEmail: 'dev@example.com',
      parameters: [{ name: 'times', type: 'number' }],
      result: { type: 'text' },
    });
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
});
