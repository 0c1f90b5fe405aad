/**
 * One key, one folder, as a user meets it in the browser with auto-save on: a copied action folder
 * declares the key of the original, the tree shows both folders marked (no row lost, no error), and
 * typing in the copy pushes nothing, saying why in the status bar.
 */
import * as assert from 'node:assert/strict';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { staysTrue } from '../support/eventually';
import { statusItem } from './support/gestures';
import { greetWorkspace, signInToUiApp, type StandIn, standInServer } from './support/standIn';
import { openCustomActionsView, openWorkbench, quickOpen, screenshot, treeRow, type Workbench } from './support/workbench';

describe('A key two folders declare (browser)', function () {
  let server: StandIn;
  let pushes: number;
  let fixture: string;
  let wb: Workbench | undefined;
  let page: Page;

  before(async () => {
    pushes = 0;
    server = await standInServer((req, url, reply) => {
      if (req.method !== 'PUT') return false;
      pushes++;
      reply.empty(204);
      return true;
    });
    fixture = greetWorkspace('shared-key', server.port);
    cpSync(path.join(fixture, 'ui-app', 'greet'), path.join(fixture, 'ui-app', 'greet-copy'), { recursive: true });
    wb = await openWorkbench({ fixture });
    page = wb.page;
    await signInToUiApp(page, 'shared-key');
  });

  after(async () => {
    await wb?.close();
    server.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('shows both folders marked in the tree, and a save of the copy pushes nothing and says why', async () => {
    await openCustomActionsView(page);
    const app = treeRow(page, 'UI App').first();
    await app.waitFor({ timeout: 60_000 });
    if ((await app.getAttribute('aria-expanded')) !== 'true') await app.click();
    await treeRow(page, 'key also declared in greet-copy').waitFor({ timeout: 60_000 });
    await treeRow(page, 'key also declared in greet: not deployed').waitFor({ timeout: 30_000 });
    await screenshot(page, 'shared-key-tree');

    await quickOpen(page, 'greet-copy/main.ts');
    const editor = page.locator('.editor-instance').first();
    await editor.locator('.view-lines', { hasText: 'hello' }).waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// mine\n');
    // Auto-saved, and refused in the status bar; its tooltip names the other folder.
    const refused = statusItem(page, 'greet not pushed').first();
    await refused.waitFor({ timeout: 30_000 });
    await refused.hover();
    await page.locator('.monaco-hover', { hasText: 'also declared in ui-app/greet/action.yaml' }).first().waitFor({ timeout: 30_000 });
    await staysTrue(() => pushes === 0, 'nothing is pushed', 2_000);
    assert.equal(pushes, 0);
    await screenshot(page, 'shared-key-refused');
  });
});
