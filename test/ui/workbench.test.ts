import * as assert from 'node:assert/strict';
import { openCustomActionsView, openWorkbench, paletteRows, runCommand, screenshot, showInPalette, treeRow, type Workbench } from './support/workbench';

describe('The workbench with the extension (browser)', function () {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench();
  });
  after(async () => wb?.close());

  it('shows the Custom Actions view container with the applications of the project file', async () => {
    await openCustomActionsView(wb.page);
    await treeRow(wb.page, 'Test App').waitFor({ timeout: 60_000 });
    assert.ok(await treeRow(wb.page, 'Other App').isVisible());
    await screenshot(wb.page, 'tree-applications');
  });

  it('lists its commands in the command palette under its category', async () => {
    // Any row of the category: which of its (many) commands the palette draws first depends on what
    // was run recently, and a given one may be below the rows it draws.
    await showInPalette(wb.page, 'Custom Actions: ');
    // The palette draws only the rows in view: every one of them is ours.
    const rows = await paletteRows(wb.page);
    assert.ok(rows.length >= 5 && rows.every((r) => r.includes('Custom Actions: ')), rows.join('\n'));
    await screenshot(wb.page, 'command-palette');
    await wb.page.keyboard.press('Escape');
    await showInPalette(wb.page, 'Custom Actions: Show Log');
    await wb.page.keyboard.press('Escape');
  });

  it('runs one of its commands from the command palette', async () => {
    await runCommand(wb.page, 'Custom Actions: Show Log');
    await wb.page.locator('.panel .monaco-editor, .panel .output-view').first().waitFor({ timeout: 20_000 });
  });
});
