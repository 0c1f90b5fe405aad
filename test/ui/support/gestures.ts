/** Mouse gestures on the workbench that several walks share: a row's context menu and inline buttons, modal dialogs. */
import type { Locator, Page } from 'playwright-core';

/** Right-clicks `row` and picks `item` from its context menu (the menu lives in a shadow root, which CSS selectors pierce). */
export async function contextMenu(page: Page, row: Locator, item: string): Promise<void> {
  const entry = page.locator('.context-view .monaco-menu .action-item', { hasText: item }).first();
  // A right-click that comes while the focus is leaving a webview (the metadata form) can open no
  // menu; a person would right-click again, and so does the walk, twice at the most.
  for (let attempt = 1; ; attempt++) {
    await row.click({ button: 'right' });
    const shown = await entry.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (shown) break;
    if (attempt === 3) throw new Error(`No "${item}" in the context menu after ${attempt} right-clicks on the row.`);
    await page.keyboard.press('Escape');
  }
  await entry.click();
  // A click that lands while the menu is still settling can be dropped: the item it hovered has the
  // focus then, and Enter runs it.
  const menu = page.locator('.context-view .monaco-menu');
  if (
    !(await menu.waitFor({ state: 'hidden', timeout: 3_000 }).then(
      () => true,
      () => false,
    ))
  )
    await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Clicks one of the buttons a tree row shows while hovered (its inline actions), by its label. */
export async function inlineAction(row: Locator, label: string): Promise<void> {
  await row.hover();
  await row.locator(`.actions .action-label[aria-label^="${label}"]`).click();
}

/** The modal dialog that says `text`, once it is on screen. */
export async function dialog(page: Page, text: string | RegExp): Promise<Locator> {
  const box = page.locator('.monaco-dialog-box').filter({ hasText: text });
  await box.waitFor({ timeout: 30_000 });
  return box;
}

/** A status bar entry showing `text` (the deploy item, the sandbox…). */
export function statusItem(page: Page, text: string | RegExp): Locator {
  return page.locator('.part.statusbar .statusbar-item', { hasText: text });
}
