import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openCustomActionsView, openWorkbench, repoRoot, runCommand, screenshot, treeRow, type Workbench } from './support/workbench';

describe('The Custom Actions tree (browser)', function () {
  describe('on the demo workspace', () => {
    let wb: Workbench;
    before(async () => {
      wb = await openWorkbench({ fixture: path.join(repoRoot, 'demo') });
    });
    after(async () => wb?.close());

    it("shows a demo application's actions and their Test events", async () => {
      const { page } = wb;
      await openCustomActionsView(page);
      await treeRow(page, 'Demo CRM').click();
      const action = treeRow(page, 'Score lead');
      await action.waitFor({ timeout: 120_000 });
      await action.click();
      await page.keyboard.press('ArrowRight');
      await treeRow(page, 'Test').first().click();
      await page.keyboard.press('ArrowRight');
      const event = page.locator('.pane-body .monaco-list-row', { hasText: /success|failure/ }).first();
      await event.waitFor({ timeout: 60_000 });
      await screenshot(page, 'tree-demo-events');
      await event.click();
      // The event's document, named by its action, environment and time.
      await page
        .locator('.tabs-container .tab', { hasText: /· Test ·/ })
        .first()
        .waitFor({ timeout: 20_000 });
      await screenshot(page, 'event-json');
    });

    it("lists an action's versions under History, each row naming its file before its time", async () => {
      const { page } = wb;
      await openCustomActionsView(page);
      // A click toggles a row and ArrowRight opens it: together they leave it open whatever it was, so
      // this test does not lean on the one before it having opened the application.
      for (const row of ['Demo CRM', 'Score lead', 'History']) {
        const target = treeRow(page, row).first();
        await target.waitFor({ timeout: 120_000 });
        await target.click();
        await page.keyboard.press('ArrowRight');
      }
      const version = page.locator('.pane-body .monaco-list-row', { has: page.locator('.label-name', { hasText: /^(main\.ts|action\.yaml)$/ }) }).first();
      await version.waitFor({ timeout: 60_000 });
      // The time is short: the time of day, with the date only when it is not today's.
      assert.match(
        (await version.locator('.label-description').textContent()) ?? '',
        /^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2} · (server version|pushed from here)/,
      );
      await screenshot(page, 'tree-history');
    });
  });

  describe('for a newcomer with an empty folder', () => {
    let wb: Workbench;
    let empty: string;
    before(async () => {
      empty = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-empty-'));
      wb = await openWorkbench({ fixture: empty });
    });
    after(async () => {
      await wb?.close();
      rmSync(empty, { recursive: true, force: true });
    });

    it('goes from the welcome view to a created action with no manual configuration', async () => {
      const { page } = wb;
      await openCustomActionsView(page);
      const start = page.locator('.welcome-view-content .monaco-button', { hasText: 'Start Local Sandbox' });
      await start.waitFor({ timeout: 30_000 });
      await screenshot(page, 'welcome-no-project');
      await start.click();
      await treeRow(page, 'My App').waitFor({ timeout: 120_000 });
      const project = readFileSync(path.join(wb.workspace, 'customactions.yaml'), 'utf8');
      assert.match(project, /baseUrl: local-sandbox/);
      assert.doesNotMatch(project, /^\s*[\w-]*key\s*:/im, 'no key field in the project file');

      await runCommand(page, 'Custom Actions: New Action…');
      const input = page.locator('.quick-input-widget input');
      await input.fill('hello-world');
      await page
        .locator('.quick-input-message', { hasText: /letter/ })
        .waitFor({ state: 'detached', timeout: 5_000 })
        .catch(() => undefined);
      await input.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'Display name' }).waitFor();
      await input.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'contact address' }).waitFor();
      await input.fill('me@example.com');
      await input.press('Enter');

      await page.locator('.tabs-container .tab', { hasText: 'main.ts' }).waitFor({ timeout: 30_000 });
      await treeRow(page, 'My App').click();
      const created = treeRow(page, 'Hello world');
      await created.waitFor({ timeout: 60_000 });
      // Created on the server: the row loses its "not created" hint once the list shows the action.
      await created.filter({ hasNotText: 'not created' }).waitFor({ timeout: 60_000 });
      await screenshot(page, 'newcomer-created-action');
    });
  });
});
