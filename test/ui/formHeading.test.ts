import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { openWorkbench, quickOpen, repoRoot, screenshot, webview, type Workbench } from './support/workbench';
import { eventually } from '../support/eventually';

const FIXTURE = path.join(repoRoot, 'test', 'host', 'fixtures', 'form');

/** A parameter's card is headed by its name: the heading follows the name as it is typed, not at the next rebuild. */
describe('Metadata form: card headings follow typing (browser)', function () {
  let wb: Workbench;
  let page: Page;
  let form: FrameLocator;

  before(async () => {
    wb = await openWorkbench({ fixture: FIXTURE, settings: { 'workbench.editor.enablePreview': false } });
    page = wb.page;
    form = webview(page);
  });
  after(async () => wb?.close());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `form-heading-failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  it('renames a parameter and its card heading follows every keystroke, and stays after the field loses focus', async () => {
    await quickOpen(page, 'greet/action.yaml');
    await form.locator('h1', { hasText: 'Greet' }).waitFor({ timeout: 60_000 });
    const card = form.locator('#f-parameters--1');
    const heading = card.locator('.item-title');
    assert.equal(await heading.innerText(), 'Parameter 2: times');
    const name = form.locator('#f-parameters--1--name').locator('input').first();
    await name.click();
    // Not Ctrl+A: the workbench's Select All, handed on by the webview, can land after the first letter.
    await name.selectText();
    await name.pressSequentially('gree', { delay: 30 });
    await eventually(async () => ((await heading.innerText()) === 'Parameter 2: gree' ? true : undefined), 'the heading after four letters', 5_000);
    await name.pressSequentially('ting', { delay: 30 });
    await eventually(async () => ((await heading.innerText()) === 'Parameter 2: greeting' ? true : undefined), 'the heading after the whole name', 5_000);
    assert.equal(await card.getAttribute('aria-label'), 'Parameter 2: greeting', 'the card is announced by its new name');
    const focused = String(await form.locator('body').evaluate('document.activeElement && document.activeElement.id'));
    assert.equal(focused, 'f-parameters--1--name', 'still typing: the field has the focus');

    // Leave the field, let the edit reach the file, and look again.
    await form.locator('h2', { hasText: 'Parameters' }).click();
    await page.keyboard.press('Control+S');
    const file = path.join(wb.workspace, 'greet', 'action.yaml');
    await eventually(() => (readFileSync(file, 'utf8').includes('- name: greeting') ? true : undefined), 'the renamed parameter saved');
    assert.equal(await heading.innerText(), 'Parameter 2: greeting');
    assert.equal(await form.locator('#f-parameters--0 .item-title').innerText(), 'Parameter 1: who', 'the other card keeps its heading');
  });
});
