import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { openWorkbench, quickOpen, repoRoot, screenshot, webview, type Workbench } from './support/workbench';
import { eventually, staysTrue } from '../support/eventually';

const FIXTURE = path.join(repoRoot, 'test', 'host', 'fixtures', 'form');

/**
 * Runs a command by its title from the palette. The shared helper clicks the middle of the window
 * first, which here is the form's webview; F1 pressed inside a webview that is reloading can be lost,
 * so this one focuses the Explorer's title instead and picks the row by its label.
 */
async function command(page: Page, title: string): Promise<void> {
  const box = page.locator('.quick-input-widget input');
  const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${title}"]`).first();
  for (let attempt = 0; ; attempt++) {
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => page.keyboard.press('Escape'));
    await page
      .locator('.part.sidebar .composite.title')
      .click()
      .catch(() => undefined);
    await page.keyboard.press('F1');
    const opened = await box.waitFor({ timeout: 3_000 }).then(
      () => true,
      () => false,
    );
    // A webview that finishes loading meanwhile (a split's second form) takes the focus, and the
    // palette closes under the typing: then it is opened again.
    const typed =
      opened &&
      (await box.fill(`>${title}`, { timeout: 3_000 }).then(
        () => true,
        () => false,
      ));
    const listed =
      typed &&
      (await row.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ));
    if (
      listed &&
      (await row.click({ timeout: 3_000 }).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (attempt === 5) throw new Error(`The palette never listed "${title}"`);
  }
}

/** Picks a color theme the way a user does, through the palette's theme picker. */
async function pickTheme(page: Page, form: FrameLocator, theme: string, themeClass: string): Promise<void> {
  const background = async () => String(await form.locator('body').evaluate('getComputedStyle(document.body).backgroundColor'));
  const before = await background();
  await command(page, 'Preferences: Color Theme');
  await page.locator('.quick-input-widget input').fill(theme);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator(`.monaco-workbench.${themeClass}`).waitFor({ timeout: 20_000 });
  // The webview gets the new theme's variables a moment after the workbench repaints.
  await eventually(async () => ((await background()) !== before ? true : undefined), `the form in ${theme}`);
}

/** The native input inside a vscode-textfield or vscode-textarea (Playwright's CSS pierces shadow roots). */
function input(form: FrameLocator, id: string): Locator {
  return form.locator(`#${id}`).locator('input, textarea').first();
}

async function choose(form: FrameLocator, id: string, option: string): Promise<void> {
  const select = form.locator(`#${id}`);
  const item = select.locator('li[role="option"]', { hasText: option }).first();
  // A card still settling (one just added) can lie over the open list for a moment, and the list
  // closes before the click lands (once in a fresh-clone CI under load); a person opens it again.
  for (let attempt = 1; ; attempt++) {
    await select.click();
    const clicked = await item.click({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (clicked) return;
    if (attempt === 3) throw new Error(`"${option}" of #${id} could not be clicked in 3 openings of its list.`);
  }
}

/** Ctrl+S from inside the form: the webview hands the keybinding to the workbench, as in a text editor. */
async function save(page: Page): Promise<void> {
  await page.keyboard.press('Control+S');
}

/** The fixture's action.yaml: each test starts from it (or from a variant of it) in a fresh form. */
const GREET = readFileSync(path.join(FIXTURE, 'greet', 'action.yaml'), 'utf8');

/**
 * Each test starts from a file it writes and a form opened on it, so a test that fails leaves the next
 * one nothing to trip on and any test runs alone (`--grep`). They share one window: a workbench takes
 * several seconds to start.
 */
describe('Metadata form (browser)', function () {
  let wb: Workbench;
  let page: Page;
  let form: FrameLocator;
  let file: string;
  const disk = () => readFileSync(file, 'utf8');
  /** The saved file once it passes `test`; the last line must be there, so a file half written does not count. */
  const saved = (test: (text: string) => boolean, what: string) =>
    eventually(() => {
      const text = disk();
      return text.includes('x-owner: team-a') && test(text) ? text : undefined;
    }, what);

  /**
   * No editor open, greet/action.yaml on disk as `text`, then opened in the form: asked for by name
   * when VS Code opens it as text, as it does for a file last reopened as text.
   */
  async function openGreet(text = GREET): Promise<void> {
    await closeEditors();
    writeFileSync(file, text);
    await quickOpen(page, 'greet/action.yaml');
    const title = /^name: (.*)$/m.exec(text)?.[1] ?? '';
    const inForm = () => form.locator('h1', { hasText: title }).waitFor({ timeout: 10_000 });
    const opened = await inForm().then(
      () => true,
      () => false,
    );
    if (!opened) {
      await command(page, 'View: Reopen Editor With...');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Custom Action Metadata' }).first().click();
      await form.locator('h1', { hasText: title }).waitFor({ timeout: 30_000 });
    }
  }

  /** Every editor closed, one a test left with unsaved edits reverted first, so closing asks nothing. */
  async function closeEditors(): Promise<void> {
    const tabs = page.locator('.tabs-container .tab');
    if ((await page.locator('.tabs-container .tab.dirty').count()) > 0) await command(page, 'File: Revert File');
    if ((await tabs.count()) > 0) await command(page, 'View: Close All Editors');
    await eventually(async () => ((await tabs.count()) === 0 ? true : undefined), 'every editor closed');
  }

  before(async () => {
    // Saves by hand, as on the desktop: an auto-save a second after each change would cover up a save
    // that missed the last keystrokes, and race the revert below.
    wb = await openWorkbench({ fixture: FIXTURE, settings: { 'workbench.editor.enablePreview': false, 'files.autoSave': 'off' } });
    page = wb.page;
    form = webview(page);
    file = path.join(wb.workspace, 'greet', 'action.yaml');
    // The first form of a window loads the extension and its webview: given more time than the next.
    await quickOpen(page, 'greet/action.yaml');
    await form.locator('h1', { hasText: 'Greet' }).waitFor({ timeout: 60_000 });
  });
  after(async () => wb?.close());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `form-failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  it('opens action.yaml in the form, with no problems to report', async () => {
    await openGreet();
    await form.locator('#summary', { hasText: 'No problems' }).waitFor();
    assert.equal(await input(form, 'f-key').inputValue(), 'greet');
    assert.equal(await input(form, 'f-parameters--1--name').inputValue(), 'times');
  });

  it('edits the action fields and shows problems as the user types', async () => {
    await openGreet();
    await input(form, 'f-name').fill('Greet Someone');
    await input(form, 'f-description').fill('Says hello, politely.');
    await input(form, 'f-developerEmail').fill('not an address');
    await form.locator('#summary', { hasText: 'will not be pushed' }).waitFor();
    await form.locator('#summary li', { hasText: 'must be an e-mail address' }).waitFor();
    await form.locator('.field:has(#f-developerEmail) .problem', { hasText: 'Must be an e-mail address' }).waitFor();
    await screenshot(page, 'form-problem');
    await input(form, 'f-developerEmail').fill('greeter@example.com');
    await input(form, 'f-key').fill('greet-someone');
    await form.locator('#summary', { hasText: 'No problems' }).waitFor();
    await save(page);
    const text = await saved((t) => t.includes('greeter@example.com') && t.includes('greet-someone'), 'the saved file');
    assert.match(text, /^# Metadata of the greet action; comments like this one survive edits made in the form\.\n/);
    assert.match(text, /^key: greet-someone\nname: Greet Someone\ndescription: Says hello, politely\.\ndeveloperEmail: greeter@example\.com\n/m);
    assert.match(text, /x-owner: team-a # a field the form does not know\n/);
  });

  it('adds a single-choice parameter with choices and makes another one a collection', async () => {
    await openGreet();
    await form.locator('#add-parameter').click();
    await input(form, 'f-parameters--2--name').fill('tone');
    await choose(form, 'f-parameters--2--type', 'Single choice');
    // A new choice type starts with one choice to fill in.
    await input(form, 'f-parameters--2--type--choices--0--id').fill('warm');
    await input(form, 'f-parameters--2--type--choices--0--label').fill('Warm');
    await form.locator('#f-parameters--2--type--choices--add').click();
    await input(form, 'f-parameters--2--type--choices--1--id').fill('formal');
    await input(form, 'f-parameters--2--type--choices--1--label').fill('Formal');
    await choose(form, 'f-parameters--1--type', 'Collection');
    await input(form, 'f-parameters--2--description').fill('How to greet');
    await save(page);
    const text = await saved((t) => t.includes('How to greet'), 'the saved parameters');
    assert.match(
      text,
      /parameters:\n {2}- name: who # the person to greet\n {4}type: text\n {4}description: Whom to greet\n {2}- name: times\n {4}type:\n {6}type: collection\n {6}items: number\n {2}- name: tone\n {4}type:\n {6}type: single-choice\n {6}choices:\n {8}- id: warm\n {10}label: Warm\n {8}- id: formal\n {10}label: Formal\n {4}description: How to greet\n/,
    );
    await choose(form, 'f-parameters--2--type', 'Multiple select');
    await save(page);
    await saved((t) => t.includes('type: multiple-select\n      choices:\n        - id: warm'), 'choices kept when switching to multiple select');
  });

  it('reorders parameters with the buttons, Alt+Up/Down and drag and drop, and removes one', async () => {
    await openGreet(GREET.replace('result:', '  - name: tone\n    type: text\nresult:'));
    const order = async () => {
      const names: string[] = [];
      for (let i = 0; i < 3; i++) names.push(await input(form, `f-parameters--${i}--name`).inputValue());
      return names.join(',');
    };
    await form.locator('#f-parameters--2--up').click();
    assert.equal(await order(), 'who,tone,times');
    await input(form, 'f-parameters--1--name').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await eventually(async () => ((await order()) === 'tone,who,times' ? true : undefined), 'Alt+Up to move the parameter');
    // Focus follows the moved parameter, so the next Alt+Down moves it back.
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(async () => ((await order()) === 'who,tone,times' ? true : undefined), 'Alt+Down to move it back');
    await form.locator('#f-parameters--2 .grip').dragTo(form.locator('#f-parameters--0'), { targetPosition: { x: 40, y: 5 } });
    await eventually(async () => ((await order()) === 'times,who,tone' ? true : undefined), 'a drag to the top');
    await save(page);
    await saved((t) => /parameters:\n {2}- name: times\b[\s\S]*- name: who\b[\s\S]*- name: tone\b/.test(t), 'the saved order');
    await form.locator('#f-parameters--0--remove').click();
    await save(page);
    const text = await saved((t) => !t.includes('name: times'), 'the removed parameter');
    assert.match(text, /parameters:\n {2}- name: who\b.*\n {4}type: text\n {4}description: Whom to greet\n {2}- name: tone\n/);
    assert.match(text, /x-owner: team-a # a field the form does not know\n/);
  });

  it('edits an object result with properties, refusing names with whitespace', async () => {
    await openGreet();
    await choose(form, 'f-result--type', 'Object');
    const name = input(form, `f-result--type--properties--_23_--0--name`);
    await name.fill('first name');
    await form.locator('.problem', { hasText: 'must not contain whitespace' }).waitFor();
    await name.fill('firstName');
    await form.locator('#add-property').click();
    await input(form, `f-result--type--properties--_23_--1--name`).fill('tags');
    await choose(form, 'f-result--type--properties--_23_--1--type', 'Collection');
    await input(form, 'f-result--description').fill('The greeting, split up');
    await form.locator('#summary', { hasText: 'No problems' }).waitFor();
    await screenshot(page, 'form-result-object');
    await save(page);
    const text = await saved((t) => t.includes('split up'), 'the saved result');
    assert.doesNotMatch(text, /first name/);
    assert.match(
      text,
      /result:\n {2}type:\n {4}type: object\n {4}properties:\n {6}firstName:\n {8}type: text\n {6}tags:\n {8}type:\n {10}type: collection\n {10}items: text\n {2}description: The greeting, split up\n/,
    );
  });

  it('undoes and redoes form edits as document edits', async () => {
    await openGreet();
    await input(form, 'f-name').fill('Undo Me');
    await eventually(async () => ((await form.locator('h1').innerText()) === 'Undo Me' ? true : undefined), 'the title');
    // Undo works on the document: the form sends the edit after its pause in typing.
    await eventually(
      async () => ((await page.locator('.tabs-container .tab.dirty').count()) > 0 || /Undo Me/.test(disk()) ? true : undefined),
      'the edit in the document',
    );
    await form.locator('h2', { hasText: 'Action' }).click();
    await page.keyboard.press('Control+Z');
    await eventually(async () => ((await input(form, 'f-name').inputValue()) === 'Greet' ? true : undefined), 'the undone name');
    await page.keyboard.press('Control+Shift+Z');
    await eventually(async () => ((await input(form, 'f-name').inputValue()) === 'Undo Me' ? true : undefined), 'the redone name');
  });

  it('reverts to the file on disk', async () => {
    await openGreet();
    await input(form, 'f-name').fill('Revert Me');
    await page.locator('.tabs-container .tab.dirty').waitFor();
    await command(page, 'File: Revert File');
    await eventually(async () => ((await input(form, 'f-name').inputValue()) === 'Greet' ? true : undefined), 'the reverted name');
    await eventually(async () => ((await page.locator('.tabs-container .tab.dirty').count()) === 0 ? true : undefined), 'the tab clean');
    assert.doesNotMatch(disk(), /Revert Me/);
  });

  it('follows the text editor beside it, and the text editor follows the form', async () => {
    await openGreet();
    await command(page, 'View: Split Editor Right');
    // The split's own form takes the focus once it is ready; the next command waits for that.
    await eventually(async () => ((await page.locator('iframe.webview.ready').count()) === 2 ? true : undefined), 'the split’s form');
    await command(page, 'View: Reopen Editor With...');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Text Editor' }).first().click();
    const editor = page.locator('.monaco-editor .view-lines').first();
    await editor.filter({ hasText: 'key: greet' }).waitFor();
    await editor.locator('.view-line', { hasText: 'name: Greet' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Today');
    await eventually(async () => ((await input(form, 'f-name').inputValue()) === 'Greet Today' ? true : undefined), 'the form to show the text edit');
    await input(form, 'f-key').fill('greet-today');
    await editor.filter({ hasText: 'key: greet-today' }).waitFor();
    await save(page);
    await saved((t) => t.includes('key: greet-today\nname: Greet Today\n'), 'the saved text');
  });

  it('shows why a file it cannot read cannot be edited, and reopens it as text', async () => {
    await closeEditors();
    await quickOpen(page, 'broken/action.yaml');
    await form.locator('.unreadable', { hasText: 'The form cannot read this action.yaml' }).waitFor({ timeout: 30_000 });
    await form.locator('.unreadable', { hasText: /line \d+, column \d+/ }).waitFor();
    await screenshot(page, 'form-unreadable');
    await form.locator('#open-text').click();
    await page.locator('.monaco-editor .view-lines', { hasText: 'name: [unclosed' }).waitFor();
    assert.equal(await page.locator('iframe.webview.ready').count(), 0, 'the form tab was replaced');
  });

  it('looks like VS Code in the dark, light and high-contrast themes', async () => {
    await openGreet();
    await screenshot(page, 'form-dark');
    await pickTheme(page, form, 'Light Modern', 'vs');
    await screenshot(page, 'form-light');
    await pickTheme(page, form, 'Dark High Contrast', 'hc-black');
    await screenshot(page, 'form-high-contrast');
    // A string, so the Node-side type check needs no DOM library.
    const color = String(await form.locator('body').evaluate('getComputedStyle(document.body).backgroundColor'));
    assert.equal(color, 'rgb(0, 0, 0)', 'the form takes the theme’s editor background');
    // The next tests in the window's own theme.
    await pickTheme(page, form, 'Dark Modern', 'vs-dark');
  });

  it('saves the last keystrokes when Ctrl+S comes right after typing, and the tab stays clean', async () => {
    await openGreet();
    const name = input(form, 'f-name');
    await name.click();
    await name.press('End');
    // Within the form's pause in typing (300 ms), before it has sent the last letters on its own.
    await name.pressSequentially(' at once');
    await save(page);
    await saved((t) => /^name: Greet at once$/m.test(t), 'the last keystrokes saved');
    // The file is written a moment before the workbench marks the tab clean; then nothing the form
    // still held back may dirty it again.
    const dirtyTabs = () => page.locator('.tabs-container .tab.dirty').count();
    await eventually(async () => ((await dirtyTabs()) === 0 ? true : undefined), 'the tab to be clean after the save');
    await staysTrue(async () => (await dirtyTabs()) === 0, 'the tab to stay clean', 2_000);
  });
});
