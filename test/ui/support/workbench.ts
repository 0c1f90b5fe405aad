/**
 * Drives the real VS Code workbench (code-server) in headless Chromium with the extension loaded as an
 * extension under development. Selectors are the workbench's own: `.pane-header` and `.monaco-list-row`
 * for views, F1 for the command palette, nested iframes for webviews.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const screenshotDir = path.join(repoRoot, 'test-results', 'screenshots');

interface CodeServerModule {
  ensureHost(): unknown;
  startCodeServer(
    options: Record<string, unknown>,
  ): Promise<{ address: string; dataDir: string; url(o?: { testsPath?: string; workspaceFile?: string }): string; stop(): Promise<void> }>;
  launchBrowser(): Promise<Browser>;
  launchPersistentBrowser(profileDir: string): Promise<BrowserContext>;
  keepForSecretsCheck(profile: string, workspace: string, label: string): void;
  installVsix(options: { host: unknown; vsix: string; userDataDir: string }): void;
}

async function codeServer(): Promise<CodeServerModule> {
  // A native import: the helper is an ES module shared with the plain-Node scripts.
  const load = new Function('u', 'return import(u)') as (u: string) => Promise<CodeServerModule>;
  return load(pathToFileURL(path.join(repoRoot, 'scripts', 'host', 'codeServer.mjs')).href);
}

export type Theme = 'Default Dark Modern' | 'Default Light Modern' | 'Default High Contrast';

/** Where a persistent workbench keeps its workspace, VS Code profile and browser profile, and its port. */
export interface KeptState {
  readonly dir: string;
  readonly port: number;
}

export interface Workbench {
  readonly page: Page;
  readonly workspace: string;
  /** Set when opened with `persistent` or `resume`: pass it to openWorkbench({ resume }) after close(). */
  readonly state: KeptState | undefined;
  /** Changes a user setting; the workbench picks the file change up by itself. */
  setSetting(key: string, value: unknown): Promise<void>;
  /** Reloads the page (the extension host restarts) and waits for the workbench. */
  reload(): Promise<void>;
  /** Stops everything; a persistent workbench keeps its folders for `resume`, others delete them. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Fixture folder copied as the workspace (default: the host-test workspace). */
  readonly fixture?: string;
  /** A .code-workspace file of the fixture (relative to it) to open instead of its folder: a multi-root workspace. */
  readonly workspaceFile?: string;
  readonly theme?: Theme;
  readonly settings?: Record<string, unknown>;
  /**
   * Keeps the profiles (SecretStorage, settings, state) and the port, so a later openWorkbench({ resume })
   * sees what this one stored. Remove the folder with discard() at the end.
   */
  readonly persistent?: boolean;
  readonly resume?: KeptState;
  /**
   * Runs this packaged extension (packagedVsix()) instead of the checkout: installed into the fresh
   * profile the way a user installs one, and the folder opened with no extension under development.
   */
  readonly vsix?: string;
}

/** The .vsix `npm run package` writes (npm test's build stage runs it before the UI stage). */
export function packagedVsix(): string {
  const { name, version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const file = path.join(repoRoot, 'dist', `${name}-${version}.vsix`);
  if (!existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} does not exist: run \`npm run package\` first (npm test's build stage does).`);
  return file;
}

export async function openWorkbench(options: OpenOptions = {}): Promise<Workbench> {
  const cs = await codeServer();
  const host = cs.ensureHost();
  const state = options.resume ?? (options.persistent ? { dir: mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-')), port: await freePort() } : undefined);
  const scratch = state?.dir ?? mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-'));
  const workspace = path.join(scratch, 'workspace');
  if (!existsSync(workspace)) cpSync(options.fixture ?? path.join(repoRoot, 'test', 'host', 'fixtures', 'workspace'), workspace, { recursive: true });
  if (options.vsix && !options.resume) cs.installVsix({ host, vsix: options.vsix, userDataDir: path.join(scratch, 'profile') });
  const starting = cs.startCodeServer({
    host,
    workspace,
    userDataDir: path.join(scratch, 'profile'),
    port: state?.port ?? 0,
    settings: { ...(options.resume ? {} : { 'workbench.colorTheme': options.theme ?? 'Default Dark Modern' }), ...options.settings },
    developmentDriver: !options.vsix,
  });
  // The browser starts while code-server does: neither needs the other before the page opens.
  const opening = state ? persistentPage(cs, path.join(scratch, 'browser')) : freshPage(cs);
  const [started, opened] = await Promise.allSettled([starting, opening]);
  if (started.status === 'rejected' || opened.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    if (opened.status === 'fulfilled') await opened.value.close().catch(() => undefined);
    if (!state) rmSync(scratch, { recursive: true, force: true });
    throw started.status === 'rejected' ? started.reason : (opened as PromiseRejectedResult).reason;
  }
  const server = started.value;
  const { page, close } = opened.value;
  // An installed extension needs no payload: without extensionDevelopmentPath the checkout stays out of it.
  const url = options.vsix
    ? `${server.address}/?folder=${encodeURIComponent(workspace)}`
    : server.url(options.workspaceFile ? { workspaceFile: path.join(workspace, options.workspaceFile) } : {});
  if (!options.vsix) withoutToasts.add(page);
  await page.goto(url);
  await waitForWorkbench(page);
  const settingsFile = path.join(server.dataDir, 'User', 'settings.json');
  return {
    page,
    workspace,
    state,
    async setSetting(key, value) {
      const current = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      writeFileSync(settingsFile, JSON.stringify({ ...current, [key]: value }, null, 2));
    },
    async reload() {
      await page.goto(url);
      await waitForWorkbench(page);
    },
    async close() {
      await close().catch(() => undefined);
      await server.stop();
      // Kept for the secrets check, after each window (a persistent one's profile grows from run to run).
      cs.keepForSecretsCheck(path.join(scratch, 'profile'), workspace, path.join('ui', path.basename(scratch)));
      if (!state) rmSync(scratch, { recursive: true, force: true });
    },
  };
}

interface OpenedPage {
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * One Chromium serves every workbench that keeps no browser profile, each in a context of its own:
 * as fresh as a new browser (no storage, cookies or cache shared), without a browser start each.
 * Launched on first need; the root hook (hooks.ts) closes it after the last spec.
 */
let sharedBrowser: Promise<Browser> | undefined;

async function freshPage(cs: CodeServerModule): Promise<OpenedPage> {
  let browser = sharedBrowser ? await sharedBrowser.catch(() => undefined) : undefined;
  if (!browser?.isConnected()) {
    sharedBrowser = cs.launchBrowser();
    browser = await sharedBrowser;
  }
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** A browser of its own on a profile folder that outlives it (SecretStorage's key is kept there). */
async function persistentPage(cs: CodeServerModule, profileDir: string): Promise<OpenedPage> {
  const context = await cs.launchPersistentBrowser(profileDir);
  const page = context.pages()[0] ?? (await context.newPage());
  return { page, close: () => context.close() };
}

/** Closes the browser the workbenches shared, if one was started. */
export async function closeSharedBrowser(): Promise<void> {
  const browser = sharedBrowser;
  sharedBrowser = undefined;
  await (await browser?.catch(() => undefined))?.close();
}

/** Pages of workbenches with the development driver, which shows notifications in the center only, never as toasts. */
const withoutToasts = new WeakSet<Page>();

/** Whether this workbench shows notifications as toasts (only one running an installed .vsix does). */
export function showsToasts(page: Page): boolean {
  return !withoutToasts.has(page);
}

/** Deletes what a persistent workbench kept. */
export function discard(state: KeptState | undefined): void {
  if (state) rmSync(state.dir, { recursive: true, force: true });
}

async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
}

const themeClass: Record<Theme, string> = { 'Default Dark Modern': 'vs-dark', 'Default Light Modern': 'vs', 'Default High Contrast': 'hc-black' };

/** Switches the color theme through the user settings and waits until the workbench has repainted. */
export async function setTheme(wb: Workbench, theme: Theme): Promise<void> {
  await wb.setSetting('workbench.colorTheme', theme);
  await wb.page.locator(`.monaco-workbench.${themeClass[theme]}`).waitFor({ timeout: 20_000 });
}

export async function currentThemeClass(page: Page): Promise<string | undefined> {
  const classes = (await page.locator('.monaco-workbench').getAttribute('class')) ?? '';
  return Object.values(themeClass).find((c) => classes.split(/\s+/).includes(c));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Opens the command palette (F1) on `text` and waits until a row shows `title` (default: `text`). The
 * palette lists what was registered when it opened, and the extension's commands arrive a moment after
 * the workbench, so it reopens until the row shows up. The palette is left open.
 */
export async function showInPalette(page: Page, text: string, title = text, timeoutMs = 60_000): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const end = Date.now() + timeoutMs;
  for (;;) {
    await page
      .locator('.monaco-workbench')
      .click({ position: { x: 700, y: 400 } })
      .catch(() => undefined);
    await page.keyboard.press('F1');
    await input.waitFor();
    await input.fill(`>${text}`);
    const found = await row.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (found) return;
    await page.keyboard.press('Escape');
    if (Date.now() > end) throw new Error(`The command palette never listed "${title}"`);
  }
}

/** The titles the open command palette lists. */
export function paletteRows(page: Page): Promise<string[]> {
  return page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
}

/** Runs a command by its title through the command palette. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await showInPalette(page, title);
  await page.locator('.quick-input-widget input').press('Enter');
}

/** Opens the extension's view container from the activity bar; one already open stays open (a second click would close it). */
export async function openCustomActionsView(page: Page): Promise<void> {
  const item = page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Custom Actions"]') });
  await item.waitFor();
  const open = ((await item.getAttribute('class')) ?? '').split(/\s+/).includes('checked');
  if (!open) await item.locator('a').click();
  // With a single view the pane header is hidden and the container's title stands for it ("Custom
  // Actions", or "Custom Actions: <target>" in a project with targets).
  await page.locator('.part.sidebar .composite.title', { hasText: /^\s*Custom Actions/i }).waitFor({ state: 'attached' });
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

/**
 * Opens a file through Quick Open, which uses its default editor (the form for action.yaml). `file` is
 * relative to the workspace; the row of its folder is picked, not a recently opened namesake.
 */
export async function quickOpen(page: Page, file: string): Promise<void> {
  const box = page.locator('.quick-input-widget input');
  // A palette that just ran a command may still be fading out.
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => page.keyboard.press('Escape'));
  // The first key may land nowhere (a fresh window, editors just closed): focus the editor area and ask again.
  for (let attempt = 0; !(await box.isVisible()); attempt++) {
    if (attempt > 0)
      await page
        .locator('.part.editor')
        .click({ position: { x: 300, y: 300 } })
        .catch(() => undefined);
    await page.keyboard.press('Control+P');
    await box.waitFor({ timeout: 3_000 }).catch(() => undefined);
    if (attempt === 5) throw new Error('Quick Open did not open');
  }
  await box.fill(file);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: path.dirname(file) })
    .filter({ hasText: path.basename(file) })
    .first()
    .click();
}
