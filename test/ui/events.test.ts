import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openWorkbench, runCommand, screenshot, type Workbench } from './support/workbench';

const EVENTS = '/api/actions/act-1/environments/env-test/events';

/** A stand-in server with the run extra: one action, whose runs record events with logs. */
function runServer(): Promise<{ server: Server; port: number; runs: unknown[] }> {
  const events: unknown[] = [];
  const runs: unknown[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (!(req.headers.authorization ?? '').startsWith('Bearer ')) {
      res.writeHead(401).end();
      return;
    }
    if (url.pathname === '/api') return json(200, { service: 'stand-in', version: '1', extensions: { run: true } });
    if (url.pathname === '/api/application/ui-app/actions') {
      return json(200, [{ id: 'act-1', key: 'greet', name: 'Greet', description: '', eventsUrls: { Test: EVENTS, Live: EVENTS.replace('env-test', 'env-live') } }]);
    }
    if (url.pathname === EVENTS && req.method === 'GET') return json(200, [...events].reverse());
    if (url.pathname === EVENTS.replace('/events', '/runs') && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const inputs = (JSON.parse(body) as { inputs: { times?: number } }).inputs;
        runs.push(inputs);
        const start = Date.now();
        const event = {
          id: `run-${runs.length}`,
          name: 'success',
          data: {
            timings: { startTime: start, duration: 37 },
            logs: [
              { time: start + 3, level: 'info', message: `greeting ${inputs.times ?? 0} times` },
              { time: start + 30, level: 'warn', message: 'the last greeting was loud' },
            ],
            result: 'hello',
          },
        };
        events.push(event);
        json(201, { event });
      });
      return;
    }
    json(404, { title: 'Not Found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, runs });
    }),
  );
}

describe('Event logs in the workbench (browser)', function () {
  let fixture: string;
  let stand: Awaited<ReturnType<typeof runServer>>;
  let wb: Workbench | undefined;

  before(async () => {
    stand = await runServer();
    fixture = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-events-'));
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

  it('runs an action with inputs from the form and shows its event in the events channel', async () => {
    wb = await openWorkbench({ fixture });
    const page = wb.page;
    const input = page.locator('.quick-input-widget input');
    await runCommand(page, 'Custom Actions: Sign In');
    await page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).or(page.locator('.quick-input-list .monaco-list-row', { hasText: 'UI App' })).first().waitFor();
    if (await page.locator('.quick-input-list .monaco-list-row', { hasText: 'UI App' }).count()) {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'UI App' }).first().click();
    }
    await page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).waitFor();
    await input.fill('ui-key');
    await input.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });

    await runCommand(page, 'Custom Actions: Run Action');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Greet' }).first().click({ timeout: 30_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Test' }).first().click({ timeout: 30_000 });
    await page.locator('.quick-input-widget', { hasText: 'times (number)' }).waitFor({ timeout: 30_000 });
    await input.fill('three');
    await page.locator('.quick-input-widget', { hasText: 'A number' }).waitFor();
    await input.fill('3');
    await input.press('Enter');

    // Toasts may go straight to the notification center in a headless window: open it to find the message.
    await runCommand(page, 'Notifications: Show Notifications');
    const message = page.locator('.notifications-center .monaco-list-row', { hasText: 'greet ran in Test: success' });
    await message.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'events-run-failed');
      throw new Error(`no run notification (runs: ${JSON.stringify(stand.runs)}): ${String(error)}`);
    });
    await message.locator('a.monaco-button', { hasText: 'Show Events' }).first().click();
    const output = page.locator('.panel .monaco-editor .view-lines');
    await output.filter({ hasText: 'the last greeting was loud' }).waitFor({ timeout: 30_000 });
    const text = (await output.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /\[Test\] greet success at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \(37 ms\)/);
    assert.match(text, /info {2}greeting 3 times/);
    assert.equal(text.split('greeting 3 times').length - 1, 1, 'the event is shown once');
    assert.deepEqual(stand.runs, [{ times: 3 }]);
    await screenshot(page, 'events-channel-after-run');
  });
});
