import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ACTION_ID, greetWorkspace, signInToUiApp, type StandIn, standInServer } from './support/standIn';
import { openWorkbench, screenshot, type Workbench } from './support/workbench';

const IMPLEMENTATION = `/api/actions/${ACTION_ID}/implementation`;

/** A stand-in server that records the code pushed to its one action. */
async function pushServer(): Promise<StandIn & { pushes: { contentType: string | undefined; body: string }[] }> {
  const pushes: { contentType: string | undefined; body: string }[] = [];
  const server = await standInServer((req, url, reply) => {
    if (url.pathname !== IMPLEMENTATION || req.method !== 'PUT') return false;
    reply.body((body) => {
      pushes.push({ contentType: req.headers['content-type'], body });
      // A server that takes a moment, as real ones do: the status bar shows the push in flight.
      setTimeout(() => reply.empty(204), 300);
    });
    return true;
  });
  return { ...server, pushes };
}

describe('Save to deploy in the workbench (browser)', function () {
  let fixture: string;
  let stand: Awaited<ReturnType<typeof pushServer>>;
  let wb: Workbench | undefined;

  before(async () => {
    stand = await pushServer();
    fixture = greetWorkspace('deploy', stand.port);
  });
  after(async () => {
    await wb?.close();
    stand.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('saving main.ts in the editor pushes it and the status bar confirms', async () => {
    wb = await openWorkbench({ fixture });
    const page = wb.page;
    const input = page.locator('.quick-input-widget input');
    await signInToUiApp(page, 'ui-key');

    await page.keyboard.press('Control+P');
    await input.fill('main.ts');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.ts' }).first().waitFor({ timeout: 30_000 });
    await input.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'hello' }).waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// saved in the browser\n');
    await page.keyboard.press('Control+S');

    const pushed = page.locator('.statusbar-item', { hasText: /Pushed code of greet \(\d+ ms\)/ });
    await pushed.waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      await screenshot(page, 'deploy-status-missing');
      throw new Error(`no push confirmed in the status bar (pushes: ${stand.pushes.length}): ${String(error)}`);
    });
    await screenshot(page, 'deploy-status-pushed');
    const onDisk = readFileSync(path.join(wb.workspace, 'ui-app', 'greet', 'main.ts'), 'utf8');
    assert.match(onDisk, /\/\/ saved in the browser/);
    assert.equal(stand.pushes.length, 1);
    assert.equal(stand.pushes[0]?.body, onDisk, 'the server got exactly the saved file');
    assert.equal(stand.pushes[0]?.contentType, 'application/typescript');
  });
});
