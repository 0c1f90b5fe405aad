/**
 * What a user sees of notifications: toasts, the notification center and the bell in the status bar.
 * A workbench with the development driver (every workbench but an installed .vsix's) shows no toasts:
 * its notifications go to the center only, so `notification()` looks there, at once.
 */
import type { Locator, Page } from 'playwright-core';
import { runCommand, showsToasts } from './workbench';

/** The toasts on screen. */
export function toasts(page: Page): Locator {
  return page.locator('.notifications-toasts .notification-toast');
}

/** Toasts and center rows of error severity. */
export function errorNotifications(page: Page): Locator {
  return page.locator('.notification-toast, .notifications-center .monaco-list-row').filter({ has: page.locator('.codicon-error') });
}

/** The bell's dot: notifications arrived that the user has not seen. */
export function unseenBell(page: Page): Locator {
  return page.locator('[id="status.notifications"] .codicon-bell-dot');
}

function centerRows(page: Page): Locator {
  return page.locator('.notifications-center .monaco-list-row');
}

/**
 * The notification showing `text`: its toast, or its row in the notification center when no toast
 * came within `toastMs` (one that faded already). A workbench that shows no toasts is looked at in
 * the center at once, for as long, rather than after waiting out a toast that cannot come. Fails with
 * every notification's text, so a failure says what the user was told instead.
 */
export async function notification(page: Page, text: string | RegExp, toastMs = 30_000): Promise<Locator> {
  const toast = toasts(page).filter({ hasText: text }).first();
  if (
    showsToasts(page) &&
    (await toast.waitFor({ timeout: toastMs }).then(
      () => true,
      () => false,
    ))
  )
    return toast;
  await showCenter(page);
  const row = centerRows(page).filter({ hasText: text }).first();
  if (
    await row.waitFor({ timeout: showsToasts(page) ? 10_000 : toastMs + 10_000 }).then(
      () => true,
      () => false,
    )
  )
    return row;
  throw new Error(`No notification says ${String(text)}. The notifications: ${JSON.stringify(await notificationTexts(page))}`);
}

/** Every notification's text, from the center (opened for it). */
export async function notificationTexts(page: Page): Promise<string[]> {
  await showCenter(page);
  return (await centerRows(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

async function showCenter(page: Page): Promise<void> {
  if (await page.locator('.notifications-center.visible').count()) return;
  await runCommand(page, 'Notifications: Show Notifications');
  await page.locator('.notifications-center.visible').waitFor({ timeout: 10_000 });
}

/** Clears every notification (toasts and the center) and closes the center, so what comes next stands out. */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await toasts(page)
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  if (await page.locator('.notifications-center.visible').count()) await runCommand(page, 'Notifications: Hide Notifications');
}
