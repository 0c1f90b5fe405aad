import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readmeScreenshot } from './support/readmeScreenshots';
import { greetWorkspace, type StandIn, standInServer } from './support/standIn';
import { eventually } from '../support/eventually';
import { openWorkbench, quickOpen, runCommand, screenshot, type Workbench } from './support/workbench';

describe('Testing view in the workbench (browser)', function () {
  let fixture: string;
  let stand: StandIn;
  let wb: Workbench | undefined;

  before(async () => {
    // Local runs need no server: this one answers nothing.
    stand = await standInServer(() => false);
    fixture = greetWorkspace('testing', stand.port);
    const inputs = path.join(fixture, 'ui-app', 'greet', 'inputs');
    mkdirSync(inputs, { recursive: true });
    writeFileSync(path.join(inputs, 'polite.json'), JSON.stringify({ description: 'says hello', inputs: { times: 3 }, expect: { result: 'hello' } }, null, 2));
    writeFileSync(path.join(inputs, 'loud.json'), JSON.stringify({ inputs: { times: 1 }, expect: { result: 'HELLO' } }, null, 2));
  });
  after(async () => {
    await wb?.close();
    stand.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('runs an action’s input sets from the Testing view and shows which passed, and why one failed', async () => {
    wb = await openWorkbench({ fixture });
    const page = wb.page;
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const rows = page.locator('.test-explorer .monaco-list-row');
    const row = (label: string) => rows.filter({ hasText: label }).first();
    await row('UI App').waitFor({ timeout: 60_000 });
    // Expanded as a user does: the application, then the action.
    for (const label of ['UI App', 'greet']) {
      const current = row(label);
      if ((await current.getAttribute('aria-expanded')) !== 'true') await current.locator('.monaco-tl-twistie').click();
      await page.locator('.test-explorer .monaco-list-row[aria-expanded="true"]', { hasText: label }).first().waitFor({ timeout: 30_000 });
    }
    await row('polite').waitFor({ timeout: 30_000 });
    await row('loud').waitFor();

    await row('greet').hover();
    await row('greet')
      .locator('.action-label[aria-label^="Run Test"]')
      .click({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        await screenshot(page, 'testing-view-no-run-button');
        throw error;
      });
    await row('loud').locator('.codicon-testing-failed-icon').waitFor({ timeout: 60_000 });
    await row('polite').locator('.codicon-testing-passed-icon').waitFor({ timeout: 30_000 });

    // The failure's message, as VS Code shows it: the peek of the failed test, opened from the explorer.
    await row('loud').dblclick();
    await page
      .getByText('the result differs from the expected one')
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        await screenshot(page, 'testing-view-no-message');
        throw error;
      });
    await screenshot(page, 'testing-view-results');
    // The README's picture: the Testing view and the failure's peek, the panel left out.
    const shot = await readmeScreenshot(page, 'testing-view', { regions: [page.locator('.part.sidebar'), page.locator('.part.editor')], maxHeight: 420 });
    assert.ok(shot.endsWith('.png'));
  });

  it('marks a case that passed as outdated once its action’s main.ts changes (auto-save on)', async () => {
    wb ??= await openWorkbench({ fixture });
    const page = wb.page;
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    const rows = page.locator('.test-explorer .monaco-list-row');
    const row = (label: string) => rows.filter({ hasText: label }).first();
    for (const label of ['UI App', 'greet']) {
      await row(label).waitFor({ timeout: 60_000 });
      if ((await row(label).getAttribute('aria-expanded')) !== 'true') await row(label).locator('.monaco-tl-twistie').click();
    }
    // Verdicts of this session, current: polite passed, loud failed (the test above may have run them already).
    await row('greet').hover();
    await row('greet').locator('.action-label[aria-label^="Run Test"]').click({ timeout: 10_000 });
    await row('polite').locator('.codicon-testing-passed-icon:not(.retired)').waitFor({ timeout: 60_000 });
    await row('loud').locator('.codicon-testing-failed-icon:not(.retired)').waitFor({ timeout: 30_000 });

    // The user changes main.ts so that the case would now fail; VS Code for the Web saves it by itself.
    await quickOpen(page, 'greet/main.ts');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-line', { hasText: "return 'hello'" }).first().click();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type("return 'goodbye';");
    const tab = page.locator('.tabs-container .tab', { hasText: 'main.ts' }).first();
    await eventually(async () => ((await tab.getAttribute('class'))?.includes('dirty') ? undefined : true), 'main.ts saved by auto-save', 30_000);

    // Outdated, as VS Code shows a result that no longer holds: the same icon, faded.
    await row('polite').locator('.codicon-testing-passed-icon.retired').waitFor({ timeout: 30_000 });
    await row('loud').locator('.codicon-testing-failed-icon.retired').waitFor({ timeout: 30_000 });
    await screenshot(page, 'testing-view-outdated');
  });
});
