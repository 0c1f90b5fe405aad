/**
 * The README's screenshots, taken from the real workbench by the UI tests so they never fall behind
 * the extension. Every run writes them to test-results/screenshots (readme-<name>.png, to look at);
 * with CUSTOM_ACTIONS_UPDATE_SCREENSHOTS=1 they also replace media/screenshots/<name>.png, which is
 * committed, so an ordinary run leaves the working tree clean.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot, screenshotDir } from './workbench';

export const readmeScreenshotDir = path.join(repoRoot, 'media', 'screenshots');
const updating = process.env.CUSTOM_ACTIONS_UPDATE_SCREENSHOTS === '1';

export interface Crop {
  /** The parts of the workbench to show; the picture is the box around all of them. */
  readonly regions: readonly Locator[];
  /** Cuts the box to at most this height from its top, for a tall part with little in its lower half. */
  readonly maxHeight?: number;
  /** Cuts the box to at most this width from its left. */
  readonly maxWidth?: number;
  /** The window's size for this picture (the workbench lays itself out again), restored afterwards. */
  readonly window?: { readonly width: number; readonly height: number };
}

/** Writes a screenshot cropped to `crop`: small enough for a README, and only what it is about. */
export async function readmeScreenshot(page: Page, name: string, crop: Crop): Promise<string> {
  const before = page.viewportSize();
  if (!crop.window) return shoot(page, name, crop);
  await resize(page, crop.window);
  try {
    return await shoot(page, name, crop);
  } finally {
    if (before) await resize(page, before);
  }
}

async function shoot(page: Page, name: string, crop: Crop): Promise<string> {
  // Out of the way: a pointer left on a tree row shows that row's buttons in the picture.
  await page.mouse.move((page.viewportSize()?.width ?? 1200) / 2, 4);
  const boxes = await Promise.all(crop.regions.map((r) => r.first().boundingBox()));
  const shown = boxes.filter((b): b is NonNullable<typeof b> => b !== null);
  if (shown.length === 0) throw new Error(`Nothing to show for the screenshot ${name}: none of its regions is on screen`);
  const viewport = page.viewportSize() ?? { width: 1400, height: 900 };
  const x = Math.max(0, Math.min(...shown.map((b) => b.x)));
  const y = Math.max(0, Math.min(...shown.map((b) => b.y)));
  const right = Math.min(viewport.width, Math.max(...shown.map((b) => b.x + b.width)));
  const bottom = Math.min(viewport.height, Math.max(...shown.map((b) => b.y + b.height)));
  const clip = { x, y, width: Math.min(right - x, crop.maxWidth ?? Infinity), height: Math.min(bottom - y, crop.maxHeight ?? Infinity) };
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `readme-${name}.png`);
  await page.screenshot({ path: file, clip });
  if (updating) {
    mkdirSync(readmeScreenshotDir, { recursive: true });
    copyFileSync(file, path.join(readmeScreenshotDir, `${name}.png`));
  }
  return file;
}

/** Resizes the window and waits until the workbench has laid itself out and painted at the new size. */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  // Strings, so the Node-side type check needs no DOM library.
  const laidOut = `(() => { const b = document.querySelector('.monaco-workbench')?.getBoundingClientRect();
    return b !== undefined && Math.round(b.width) === ${size.width} && Math.round(b.height) === ${size.height}; })()`;
  await page.waitForFunction(laidOut);
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}
