/**
 * Issue #26, 1–5, as a user meets them in the browser with VS Code for the Web's defaults (auto-save
 * on): a colleague's pushes behind the user's back, the choices after Compare, what a Merge's message
 * promises and what an auto-save does after it, History after a Redeploy, and one row per push. The
 * server is a real sandbox started here; the colleague writes to it with a client of their own.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createClient } from '../../src/core/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { eventually, staysTrue } from '../support/eventually';
import { contextMenu, statusItem } from './support/gestures';
import { clearNotifications, notification } from './support/notifications';
import { signInToUiApp } from './support/standIn';
import { openCustomActionsView, openWorkbench, runCommand, screenshot, treeRow, type Workbench } from './support/workbench';

/** Ten lines: a change of the first and one of the last merge apart; two changes of the first conflict. */
const codeWith = (first: string, last: string) =>
  `export function main(times: number): string {\n  const a = '${first}';\n  const b = 2;\n  const c = 3;\n  const d = 4;\n  const e = 5;\n  const f = 6;\n  const g = '${last}';\n  return a + g + times;\n}\n`;

const METADATA = {
  key: 'greet',
  name: 'Greet',
  description: 'Says hello',
  developerEmail: 'dev@example.com',
  parameters: [{ name: 'times', type: 'number' as const, description: 'How often' }],
  result: { type: 'text' as const, description: 'The greeting' },
};

describe('Conflicts, merges and history in the workbench, auto-save on (browser)', function () {
  let sandbox: Sandbox;
  let fixture: string;
  let wb: Workbench;
  let page: Page;
  let id: string;
  let colleague: ReturnType<typeof createClient>;
  const mainFile = () => path.join(wb.workspace, 'ui-app', 'greet', 'main.ts');
  const onDisk = () => readFileSync(mainFile(), 'utf8');
  const onServer = () => colleague.getImplementation(id);
  const serverHolds = (code: string, what: string) => eventually(async () => ((await onServer()) === code ? true : undefined), what, 60_000);
  const editor = () => page.locator('.editor-instance .monaco-editor').first();

  /** Replaces the text of line `line` (1-based) of the active editor by typing, as a user does; auto-save follows. */
  async function retype(line: number, text: string): Promise<void> {
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(`:${line}`);
    await page.keyboard.press('Enter');
    // Home goes to the line's first character after its indentation, which stays.
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type(text.trimStart());
  }

  /** Opens main.ts alone (the diffs of the step before closed), as from Quick Open. */
  async function openMain(): Promise<void> {
    await runCommand(page, 'View: Close All Editors');
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('main.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.ts' }).first().click({ timeout: 30_000 });
    await editor().locator('.view-lines', { hasText: 'const a' }).waitFor({ timeout: 30_000 });
    await editor().locator('.view-lines').click();
  }

  /**
   * The notification saying `text`, once the status bar says `status` (this workbench shows no toasts:
   * its notifications go to the center, which is looked at once the extension has said it).
   */
  async function told(status: RegExp, text: RegExp): Promise<Locator> {
    await statusItem(page, status).waitFor({ timeout: 60_000 });
    return eventually(() => notification(page, text, 1_000), `a notification saying ${String(text)}`, 60_000);
  }

  /** The user's own change of the first line, typed and auto-saved: held, since the colleague pushed since. */
  async function typeAndHold(first: string): Promise<Locator> {
    await clearNotifications(page);
    await openMain();
    await retype(2, `  const a = '${first}';`);
    await eventually(() => (onDisk().includes(`const a = '${first}'`) ? true : undefined), 'the auto-save');
    return told(/greet changed on the server/, /greet changed on the server/);
  }

  before(async () => {
    sandbox = await startSandbox({ applications: [{ id: 'ui-app', name: 'UI App' }] });
    const key = sandbox.applications[0]?.key ?? '';
    colleague = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key), userAgent: 'colleague-cli' });
    id = (await colleague.createAction('ui-app', METADATA)).id;
    await colleague.putImplementation(id, codeWith('hello', 'end'));
    fixture = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-conflicts-'));
    mkdirSync(path.join(fixture, 'ui-app', 'greet'), { recursive: true });
    writeFileSync(path.join(fixture, 'customactions.yaml'), `baseUrl: ${sandbox.url}\napplications:\n  - id: ui-app\n    name: UI App\n    folder: ui-app\n`);
    writeFileSync(
      path.join(fixture, 'ui-app', 'greet', 'action.yaml'),
      'key: greet\nname: Greet\ndescription: Says hello\ndeveloperEmail: dev@example.com\nparameters:\n  - name: times\n    type: number\n    description: How often\nresult:\n  type: text\n  description: The greeting\n',
    );
    writeFileSync(path.join(fixture, 'ui-app', 'greet', 'main.ts'), codeWith('hello', 'end'));
    wb = await openWorkbench({ fixture });
    page = wb.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInToUiApp(page, key);
  });

  after(async () => {
    await wb?.close();
    await sandbox?.close();
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    await screenshot(page, `conflicts-failed-${(this.currentTest.title.split(':')[0] ?? 'step').replace(/\W+/g, '-')}`);
    await page.keyboard.press('Escape');
  });

  it('1 a first push from here records what the file is based on', async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('main.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.ts' }).first().click({ timeout: 30_000 });
    await editor().locator('.view-lines', { hasText: 'hello' }).waitFor({ timeout: 30_000 });
    await editor().locator('.view-lines').click();
    await retype(8, "  const g = 'mine';");
    await serverHolds(codeWith('hello', 'mine'), 'the auto-saved code pushed');
  });

  it('2 Compare, then Merge from the diff title: the merge waits for a save by hand, as its message says', async () => {
    await colleague.putImplementation(id, codeWith('hello', 'theirs'));
    const held = await typeAndHold('hi');
    await screenshot(page, 'conflicts-held');
    await held.locator('.monaco-button', { hasText: 'Compare' }).click();
    await page
      .locator('.tabs-container .tab', { hasText: /Server ↔ Local/ })
      .first()
      .waitFor({ timeout: 30_000 });
    // The notification is gone; Merge is in the diff editor's title.
    const merge = page.locator('.editor-actions .action-label[aria-label^="Merge with Server"]');
    await merge.waitFor({ timeout: 30_000 });
    await screenshot(page, 'conflicts-diff-title');
    await merge.click();
    const said = await told(/Merged main\.ts of greet: save by hand to push/, /Merged the server's main\.ts of greet/);
    assert.match(await said.innerText(), /auto-save does not push it/);
    const merged = codeWith('hi', 'theirs');
    await eventually(() => (onDisk() === merged ? true : undefined), 'the merge auto-saved to disk', 30_000);
    await staysTrue(async () => (await onServer()) === codeWith('hello', 'theirs'), 'the auto-saved merge is not pushed', 4_000);
    await screenshot(page, 'conflicts-merge-held');
    await page
      .locator('.tabs-container .tab', { hasText: /^main\.ts/ })
      .first()
      .click();
    await page.keyboard.press('Control+S');
    await serverHolds(merged, 'the save by hand pushed the merge');
  });

  it('3 Compare, then Overwrite from the status bar item', async () => {
    await colleague.putImplementation(id, codeWith('hi', 'theirs again'));
    const held = await typeAndHold('mine again');
    await held.locator('.monaco-button', { hasText: 'Compare' }).click();
    await page
      .locator('.tabs-container .tab', { hasText: /Server ↔ Local/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await statusItem(page, /greet changed on the server/).click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Overwrite' }).first().click({ timeout: 30_000 });
    await serverHolds(codeWith('mine again', 'theirs'), 'the file overwrote the server version');
  });

  it('4 Merge from the tree: a merge with conflicts is pushed by no save; Overwrite from the tree after it', async () => {
    await colleague.putImplementation(id, codeWith('theirs first', 'theirs'));
    await typeAndHold('my first');
    await openCustomActionsView(page);
    const app = treeRow(page, 'UI App');
    await app.waitFor({ timeout: 60_000 });
    if ((await app.getAttribute('aria-expanded')) !== 'true') await app.click();
    const action = treeRow(page, 'Greet').first();
    await action.waitFor({ timeout: 60_000 });
    await contextMenu(page, action, 'Merge with Server');
    await editor().locator('.view-lines', { hasText: '<<<<<<< Local' }).waitFor({ timeout: 30_000 });
    await eventually(() => (onDisk().includes('<<<<<<< Local') ? true : undefined), 'the markers auto-saved', 30_000);
    await page.keyboard.press('Control+S');
    await staysTrue(async () => (await onServer()) === codeWith('theirs first', 'theirs'), 'markers are never pushed', 4_000);
    await screenshot(page, 'conflicts-markers');
    // Undone, and auto-saved again: the user's own code, still not pushed by the auto-save.
    await editor().locator('.view-lines').click();
    await page.keyboard.press('Control+Z');
    await eventually(() => (onDisk() === codeWith('my first', 'theirs') ? true : undefined), 'the undo auto-saved', 30_000);
    await staysTrue(async () => (await onServer()) === codeWith('theirs first', 'theirs'), 'the auto-save does not push it', 2_000);
    await contextMenu(page, action, 'Overwrite Server Version');
    await serverHolds(codeWith('my first', 'theirs'), 'Overwrite from the tree');
  });

  it('5 History: one row per push, Redeploy shows at once, and typing afterwards does not undo the rollback', async () => {
    await clearNotifications(page);
    // Opened by their twisties: a click on the action's row opens its code, and the focus with it.
    for (const label of ['Greet', 'History']) {
      const row = treeRow(page, label).first();
      await row.waitFor({ timeout: 30_000 });
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
      await page.locator('.pane-body .monaco-list-row[aria-expanded="true"]', { hasText: label }).first().waitFor({ timeout: 30_000 });
    }
    const rows = page.locator('.pane-body .monaco-list-row', { has: page.locator('.label-name', { hasText: /^main\.ts$/ }) });
    const fromHere = rows.filter({ hasText: 'pushed from here' });
    // Pushed from here: at least the first push, the merge, the overwrite from the status bar and the one from the tree.
    await eventually(async () => ((await fromHere.count()) >= 4 ? true : undefined), 'the pushes from here', 30_000);
    for (const text of await fromHere.allInnerTexts())
      assert.match(text, /pushed from here · server version \d+ by custom-actions-vscode/, 'both facts on the row');
    assert.equal(await rows.filter({ hasText: /by custom-actions-vscode/ }).count(), await fromHere.count(), 'no second row for a push from here');
    // The colleague's: the first code, and one before each of steps 2, 3 and 4.
    assert.equal(await rows.filter({ hasText: /by colleague-cli/ }).count(), 4, "the colleague's pushes, a row each");
    await screenshot(page, 'conflicts-history-rows');
    const before = await rows.count();

    // The oldest push from here: redeployed.
    await fromHere.last().click();
    const offer = await eventually(() => notification(page, /Redeploy it to the server/, 1_000), 'the offer to redeploy', 60_000);
    await offer.locator('.monaco-button', { hasText: 'Redeploy This Version' }).click();
    const redeployed = codeWith('hello', 'mine');
    await serverHolds(redeployed, 'the version redeployed');
    await eventually(async () => ((await rows.count()) === before + 1 ? true : undefined), 'the redeploy listed without a Refresh', 30_000);
    await told(/main\.ts of greet differs from the server/, /Redeployed the chosen version of main\.ts of greet/);
    const differs = statusItem(page, /main\.ts of greet differs from the server/);
    await screenshot(page, 'conflicts-redeployed');

    // The next keystroke, auto-saved: the rollback stays.
    await page
      .locator('.tabs-container .tab', { hasText: /^main\.ts/ })
      .first()
      .click();
    await retype(3, '  const b = 22;');
    await eventually(() => (onDisk().includes('const b = 22;') ? true : undefined), 'the keystroke auto-saved', 30_000);
    await staysTrue(async () => (await onServer()) === redeployed, 'the redeployed version stays on the server', 4_000);

    // The notification's choice, from the status bar item (the notification may be gone by now).
    await differs.click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Take into Editor' }).first().click({ timeout: 30_000 });
    await eventually(() => (onDisk() === redeployed ? true : undefined), 'the redeployed version in the editor, auto-saved', 30_000);
    await staysTrue(async () => (await onServer()) === redeployed, 'the server keeps it', 2_000);
  });
});
