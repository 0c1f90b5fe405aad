import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openWorkbench, runCommand, screenshot, type Workbench } from './support/workbench';

const IMPLEMENTATION = '/api/actions/act-1/implementation';

/** A stand-in server with one action that records the code pushed to it. */
function pushServer(): Promise<{ server: Server; port: number; pushes: { contentType: string | undefined; body: string }[] }> {
  const pushes: { contentType: string | undefined; body: string }[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (!(req.headers.authorization ?? '').startsWith('Bearer ')) {
      res.writeHead(401).end();
      return;
    }
    if (url.pathname === '/api/application/ui-app/actions' && req.method === 'GET') {
      const events = '/api/actions/act-1/environments/env-test/events';
      return json(200, [{ id: 'act-1', key: 'greet', name: 'Greet', description: '', eventsUrls: { Test: events, Live: events.replace('env-test', 'env-live') } }]);
    }
    if (url.pathname === IMPLEMENTATION && req.method === 'PUT') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        pushes.push({ contentType: req.headers['content-type'], body });
        // A server that takes a moment, as real ones do: the status bar shows the push in flight.
        setTimeout(() => res.writeHead(204).end(), 300);
      });
      return;
    }
    json(404, { title: 'Not Found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, pushes });
    }),
  );
}

describe('Save to deploy in the workbench (browser)', function () {
  let fixture: string;
  let stand: Awaited<ReturnType<typeof pushServer>>;
  let wb: Workbench | undefined;

  before(async () => {
    stand = await pushServer();
    fixture = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-deploy-'));
    mkdirSync(path.join(fixture, 'ui-app', 'greet'), { recursive: true });
    writeFileSync(path.join(fixture, 'customactions.yaml'), `baseUrl: http://127.0.0.1:${stand.port}\napplications:\n  - id: ui-app\n    name: UI App\n    folder: ui-app\n`);
    writeFileSync(
      path.join(fixture, 'ui-app', 'greet', 'action.yaml'),
      'key: greet\nname: Greet\ndescription: Says hello\ndeveloperEmail: dev@example.com\nparameters:\n  - name: times\n    type: number\nresult:\n  type: text\n',
    );
    writeFileSync(path.join(fixture, 'ui-app', 'greet', 'main.ts'), "export function main(times: number): string {\n  return 'hello';\n}\n");
  });
  after(async () => {
    await wb?.close();
    stand.server.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('saving main.ts in the editor pushes it and the status bar confirms', async () => {
    wb = await openWorkbench({ fixture });
    const page = wb.page;
    const input = page.locator('.quick-input-widget input');
    await runCommand(page, 'Custom Actions: Sign In');
    const appRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'UI App' });
    await page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).or(appRow).first().waitFor();
    if (await appRow.count()) await appRow.first().click();
    await page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).waitFor();
    await input.fill('ui-key');
    await input.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });

    await page.keyboard.press('Control+P');
    await input.fill('main.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.ts' }).first().waitFor({ timeout: 30_000 });
    await input.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'hello' }).waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// saved in the browser\n');
    await page.keyboard.press('Control+S');

    const pushed = page.locator('.statusbar-item', { hasText: /Pushed code of greet \(\d+ ms\)/ });
    await pushed.waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'deploy-status-missing');
      throw new Error(`no push confirmed in the status bar (pushes: ${stand.pushes.length}): ${String(error)}`);
    });
    await screenshot(page, 'deploy-status-pushed');
    const onDisk = readFileSync(path.join(wb.workspace, 'ui-app', 'greet', 'main.ts'), 'utf8');
    assert.match(onDisk, /\/\/ saved in the browser/);
    assert.equal(stand.pushes.length, 1);
    assert.equal(stand.pushes[0]?.body, onDisk, 'the server got exactly the saved file');
    assert.equal(stand.pushes[0]?.contentType, 'application/typescript');
  });
});
