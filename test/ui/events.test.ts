import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { greetWorkspace, signInToUiApp, type StandIn, standInServer, TEST_EVENTS } from './support/standIn';
import { openWorkbench, runCommand, screenshot, type Workbench } from './support/workbench';

/** A stand-in server with the run extra: its one action's runs record events with logs. */
async function runServer(): Promise<StandIn & { runs: unknown[] }> {
  const events: unknown[] = [];
  const runs: unknown[] = [];
  const server = await standInServer((req, url, reply) => {
    if (url.pathname === '/api') {
      reply.json(200, { service: 'stand-in', version: '1', extensions: { run: true } });
      return true;
    }
    if (url.pathname === TEST_EVENTS && req.method === 'GET') {
      reply.json(200, [...events].reverse());
      return true;
    }
    if (url.pathname !== TEST_EVENTS.replace('/events', '/runs') || req.method !== 'POST') return false;
    reply.body((body) => {
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
      reply.json(201, { event });
    });
    return true;
  });
  return { ...server, runs };
}

describe('Event logs in the workbench (browser)', function () {
  let fixture: string;
  let stand: Awaited<ReturnType<typeof runServer>>;
  let wb: Workbench | undefined;

  before(async () => {
    stand = await runServer();
    fixture = greetWorkspace('events', stand.port);
  });
  after(async () => {
    await wb?.close();
    stand.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('runs an action with inputs from the form and shows its event in the events channel', async () => {
    wb = await openWorkbench({ fixture });
    const page = wb.page;
    const input = page.locator('.quick-input-widget input');
    await signInToUiApp(page, 'ui-key');

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
