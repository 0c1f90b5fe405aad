/**
 * One key, one folder, as a user meets it in the browser with auto-save on: a copied action folder
 * declares the key of the original, the tree shows both folders marked (no row lost, no error), and
 * typing in the copy pushes nothing, saying why in the status bar.
 */
import * as assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { staysTrue } from '../support/eventually';
import { statusItem } from './support/gestures';
import { expandUiApp, type GreetWorkbench, openGreetWorkbench } from './support/standIn';
import { quickOpen, screenshot, treeRow } from './support/workbench';

describe('A key two folders declare (browser)', function () {
  let pushes = 0;
  let greet: GreetWorkbench | undefined;

  before(async () => {
    greet = await openGreetWorkbench('shared-key', {
      route: (req, _url, reply) => {
        if (req.method !== 'PUT') return false;
        pushes++;
        reply.empty(204);
        return true;
      },
      prepare: (fixture) => cpSync(path.join(fixture, 'ui-app', 'greet'), path.join(fixture, 'ui-app', 'greet-copy'), { recursive: true }),
    });
  });

  after(async () => {
    await greet?.close();
  });

  it('shows both folders marked in the tree, and a save of the copy pushes nothing and says why', async () => {
    const { page } = greet!;
    await expandUiApp(page);
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
