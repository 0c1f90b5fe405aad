/**
 * Issue #16's browser test: from a failed Test event of the demo, one click on Debug Event in the tree,
 * and the editor is paused on the failing line of main.ts under VS Code's own debugger.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { eventually, staysTrue } from '../support/eventually';
import { inlineAction } from './support/gestures';
import { notification } from './support/notifications';
import { readmeScreenshot, readmeScreenshotDir } from './support/readmeScreenshots';
import { openCustomActionsView, openWorkbench, repoRoot, runCommand, screenshot, treeRow, webview, type Workbench } from './support/workbench';

/** Expands a collapsed tree row by its twistie (a click on an action's label opens its main.ts instead). */
async function expand(page: Page, text: string): Promise<void> {
  const row = treeRow(page, text).first();
  await row.waitFor({ timeout: 120_000 });
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
  await eventually(async () => ((await row.getAttribute('aria-expanded')) === 'true' ? true : undefined), `${text} expanded`);
}

/** Width over height of the README's picture, from its PNG header. */
function pictureRatio(): number {
  const png = readFileSync(path.join(readmeScreenshotDir, 'debug-event-paused.png'));
  return png.readUInt32BE(16) / png.readUInt32BE(20);
}

describe('Debug Event in the workbench (browser)', function () {
  // A whole walk through the debugger, on a machine other builds share.
  this.timeout(300_000);
  let wb: Workbench | undefined;

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) await screenshot(wb.page, 'debug-failed');
  });
  after(async () => wb?.close());

  it('clicks Debug Event on a failed Test event of the demo and sees the editor paused on the failing line of main.ts', async () => {
    wb = await openWorkbench({ fixture: path.join(repoRoot, 'demo') });
    const { page } = wb;
    await page.setViewportSize({ width: 1200, height: 720 });
    await openCustomActionsView(page);
    await expand(page, 'Demo Helpdesk');
    await expand(page, 'Response Stats');
    await expand(page, 'Test');
    // The demo ran each input set once: `none` (no response times) failed.
    const failed = page.locator('.pane-body .monaco-list-row', { hasText: /failure/ }).first();
    await failed.waitFor({ timeout: 60_000 });
    await screenshot(page, 'debug-01-failed-event');
    await inlineAction(failed, 'Debug Event');

    // The debugger's own UI: the toolbar, the call stack paused, and the editor on main.ts's failing line.
    const toolbar = page.locator('.debug-toolbar');
    await toolbar.waitFor({ timeout: 60_000 });
    await page.locator('.tabs-container .tab.active', { hasText: 'main.ts' }).waitFor({ timeout: 60_000 });
    const current = page.locator('.editor-instance .monaco-editor .debug-top-stack-frame-line');
    await current.first().waitFor({ timeout: 60_000 });
    const line = page.locator('.editor-instance .monaco-editor .view-line').filter({ hasText: "throw new Error('no response times given')" });
    // The editor lays out again as its lenses arrive: the two are compared once they are on screen together.
    const where = async () => {
      const [currentBox, lineBox] = await Promise.all([current.first().boundingBox({ timeout: 1_000 }), line.first().boundingBox({ timeout: 1_000 })]);
      return currentBox && lineBox ? { current: Math.round(currentBox.y), line: Math.round(lineBox.y) } : undefined;
    };
    await eventually(
      async () => {
        const at = await where();
        return at && Math.abs(at.current - at.line) < 2 ? at : undefined;
      },
      `the current line on the throwing line (first seen: ${JSON.stringify(await where().catch(() => undefined))})`,
    );
    await page
      .locator('.debug-call-stack-title, .pane-header', { hasText: /call stack/i })
      .first()
      .waitFor({ timeout: 30_000 });
    await page
      .locator('.debug-call-stack .monaco-list-row', { hasText: /paused on breakpoint/i })
      .first()
      .waitFor({ timeout: 30_000 });
    // The run's inputs, in the Variables view's local scope (opened by a click when the view left it closed).
    const local = page.locator('.debug-variables .monaco-list-row', { hasText: 'Local' }).first();
    await local.waitFor({ timeout: 30_000 });
    if ((await local.getAttribute('aria-expanded')) === 'false') await local.click();
    await page.locator('.debug-variables .monaco-list-row', { hasText: 'responseMinutes' }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'debug-02-paused');
    // The session has the action's name, not the harness's, and the Debug Console says what runs, with no path of this machine.
    await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'response-stats (recorded event' }).first().waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'run-local' }).count(), 0, 'no session named after the harness');
    const debugConsole = page.locator('.repl .monaco-list-rows');
    await debugConsole.getByText('Debugging response-stats (recorded event').first().waitFor({ timeout: 30_000 });
    const printed = await debugConsole.innerText();
    // (main.ts's own path may show, in the stack of the error: it is the user's file, and a link to it.)
    for (const path of ['custom-actions-debug-', 'run-local.js', os.homedir(), repoRoot])
      assert.ok(!printed.includes(path), `the Debug Console shows ${path}:\n${printed}`);
    // The empty Watch view folded, so the picture shows the paused call stack under the variables.
    const watch = page.locator('.part.sidebar .pane-header', { hasText: /^\s*watch/i }).first();
    if ((await watch.getAttribute('aria-expanded')) === 'true') await watch.click();
    // The README's picture: the debugger's views and the editor, not the panel below.
    const top = (await page.locator('.part.sidebar').boundingBox())?.y ?? 0;
    const editorPart = await page.locator('.part.editor').boundingBox();
    assert.ok(editorPart, 'the editor part is on screen');
    await readmeScreenshot(page, 'debug-event-paused', {
      regions: [page.locator('.part.activitybar'), page.locator('.part.sidebar'), page.locator('.part.editor')],
      maxHeight: editorPart.y + editorPart.height - top,
    });

    // Continue: the run ends with the error the event recorded, and says so.
    await toolbar.locator('.action-label[aria-label^="Continue"]').click();
    const told = await notification(page, 'failed locally', 60_000);
    const said = (await told.innerText()).replace(/\s+/g, ' ');
    assert.match(said, /response-stats failed locally: Error: no response times given\. Same as the recorded event\./, said);
    await toolbar.waitFor({ state: 'hidden', timeout: 30_000 });
    await screenshot(page, 'debug-03-ended');
    // The run opens no port VS Code would forward: its inspector port is the JavaScript debugger's own,
    // which it keeps out of the Ports view. (VS Code forwards the other new ports it finds on the machine,
    // whoever opened them: on a shared machine the Ports tab may count other programs' servers.)
    await runCommand(page, 'Ports: Focus on Ports View');
    await page.locator('.part.panel .pane-header, .part.panel .composite-bar .action-item.checked', { hasText: /ports/i }).first().waitFor({ timeout: 30_000 });
    const ports = page.locator('.part.panel .monaco-table-tr');
    // The rows that name the run, for the failure to say which port went where (the process column is cut short on screen).
    let forwarded: string[] = [];
    await staysTrue(
      async () => {
        forwarded = (await ports.allInnerTexts()).filter((row) => /run-local|custom-actions-debug/.test(row));
        return forwarded.length === 0;
      },
      'no port of the debug run is forwarded',
      3_000,
    ).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}: ${forwarded.map((row) => row.replace(/\s+/g, ' ')).join(' | ')}`);
    });
  });

  it('the walkthrough’s Debug step shows the picture of a paused Debug Event', async () => {
    // The workbench of the test above when it ran (the demo, as it left it); alone, one of its own.
    wb ??= await openWorkbench({ fixture: path.join(repoRoot, 'demo') });
    const { page } = wb;
    // The walkthrough shows a step's media beside the steps only when the editor is wide enough.
    await page.setViewportSize({ width: 1600, height: 900 });
    // Each is offered only while its part shows (the panel does after a debug run, not in a fresh window).
    if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
    if (await page.locator('.part.sidebar').isVisible()) await runCommand(page, 'View: Close Primary Side Bar');
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page.locator('.quick-input-widget input').fill('Get started with Custom Actions');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Custom Actions' }).first().click({ timeout: 30_000 });
    await page.locator('.getting-started-step', { hasText: 'Debug a failed run' }).first().click({ timeout: 30_000 });
    const picture = webview(page).locator('img[alt^="Paused on the failing line"]');
    await picture.waitFor({ timeout: 30_000 });
    // Loaded, not its alt text in a broken image's place: drawn at the picture's own proportions.
    await eventually(async () => {
      const box = await picture.boundingBox();
      return box && box.width > 300 && Math.abs(box.width / box.height - pictureRatio()) < 0.2 ? box : undefined;
    }, 'the picture drawn');
    await screenshot(page, 'debug-04-walkthrough');
  });
});
