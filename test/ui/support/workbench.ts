/**
 * Drives the real VS Code workbench (code-server) in headless Chromium with the extension loaded as an
 * extension under development. Selectors are the workbench's own: `.pane-header` and `.monaco-list-row`
 * for views, F1 for the command palette, nested iframes for webviews.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, FrameLocator, Page } from 'playwright-core';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const screenshotDir = path.join(repoRoot, 'test-results', 'screenshots');

interface CodeServerModule {
  ensureHost(): unknown;
  startCodeServer(options: Record<string, unknown>): Promise<{ address: string; dataDir: string; url(o?: { testsPath?: string }): string; stop(): Promise<void> }>;
  launchBrowser(): Promise<Browser>;
}

async function codeServer(): Promise<CodeServerModule> {
  // A native import: the helper is an ES module shared with the plain-Node scripts.
  const load = new Function('u', 'return import(u)') as (u: string) => Promise<CodeServerModule>;
  return load(pathToFileURL(path.join(repoRoot, 'scripts', 'host', 'codeServer.mjs')).href);
}

export interface Workbench {
  readonly page: Page;
  readonly workspace: string;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Fixture folder copied as the workspace (default: the host-test workspace). */
  readonly fixture?: string;
  readonly theme?: 'Default Dark Modern' | 'Default Light Modern' | 'Default High Contrast';
  readonly settings?: Record<string, unknown>;
}

export async function openWorkbench(options: OpenOptions = {}): Promise<Workbench> {
  const cs = await codeServer();
  const host = cs.ensureHost();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-'));
  const workspace = path.join(scratch, 'workspace');
  cpSync(options.fixture ?? path.join(repoRoot, 'test', 'host', 'fixtures', 'workspace'), workspace, { recursive: true });
  const server = await cs.startCodeServer({
    host,
    workspace,
    userDataDir: path.join(scratch, 'profile'),
    settings: { 'workbench.colorTheme': options.theme ?? 'Default Dark Modern', ...options.settings },
  });
  const browser = await cs.launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(server.url());
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  return {
    page,
    workspace,
    async close() {
      await browser.close().catch(() => undefined);
      await server.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Runs a command by its title through the command palette (F1). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => undefined);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 20_000 });
  await input.press('Enter');
}

/** Opens the extension's view container from the activity bar. */
export async function openCustomActionsView(page: Page): Promise<void> {
  await page.locator('.activitybar .action-item a[aria-label^="Custom Actions"]').click();
  // With a single view the pane header is hidden and the container's title stands for it.
  await page.locator('.pane-header[aria-label^="Custom Actions"]').waitFor({ state: 'attached' });
}

export function treeRow(page: Page, text: string) {
  return page.locator('.pane-body .monaco-list-row', { hasText: text });
}

export function webview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
