import * as assert from 'node:assert/strict';
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { greetWorkspace, signInToUiApp, type StandIn, standInServer } from './support/standIn';
import { openCustomActionsView, openWorkbench, quickOpen, runCommand, screenshot, treeRow, type Workbench } from './support/workbench';

const PROD_ID = 'act-prod';

/** A stand-in server that records the code pushed to its actions; `lists` gives the actions of more applications. */
async function recordingServer(lists: Record<string, { id: string; key: string; name: string }[]>): Promise<StandIn & { pushes: string[] }> {
  const pushes: string[] = [];
  const server = await standInServer((req, url, reply) => {
    const listed = /^\/api\/application\/([^/]+)\/actions$/.exec(url.pathname);
    if (listed && req.method === 'GET' && lists[listed[1]!]) {
      reply.json(
        200,
        lists[listed[1]!]!.map((a) => ({ ...a, description: '', eventsUrls: { Test: `/api/actions/${a.id}/environments/env-test/events` } })),
      );
      return true;
    }
    const push = /^\/api\/actions\/([^/]+)\/implementation$/.exec(url.pathname);
    if (!push || req.method !== 'PUT') return false;
    reply.body(() => {
      pushes.push(push[1]!);
      reply.empty(204);
    });
    return true;
  });
  return { ...server, pushes };
}

describe('Targets in the workbench (browser)', function () {
  let fixture: string;
  let staging: Awaited<ReturnType<typeof recordingServer>>;
  let qa: Awaited<ReturnType<typeof recordingServer>>;
  let wb: Workbench | undefined;

  before(async () => {
    // The file's own server is staging (ui-app lists greet); the target qa is another server, where UI
    // App is ui-qa and lists greet and qa-only.
    staging = await recordingServer({});
    qa = await recordingServer({
      'ui-qa': [
        { id: PROD_ID, key: 'greet', name: 'Greet' },
        { id: 'act-qa-only', key: 'qa-only', name: 'Only on QA' },
      ],
    });
    fixture = greetWorkspace('targets', staging.port);
    appendFileSync(
      path.join(fixture, 'customactions.yaml'),
      `targets:\n  qa:\n    baseUrl: http://127.0.0.1:${qa.port}\n    applications:\n      ui-app: ui-qa\n  live:\n    baseUrl: http://127.0.0.1:${qa.port}\n    protected: true\n    applications:\n      ui-app: ui-live\n`,
    );
  });
  after(async () => {
    await wb?.close();
    staging.close();
    qa.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it('Switch Target changes the tree, the status bar, the view’s title and where a save goes', async () => {
    wb = await openWorkbench({ fixture });
    const page = wb.page;
    await signInToUiApp(page, 'staging-key');
    await openCustomActionsView(page);
    await treeRow(page, 'UI App').first().click();
    await treeRow(page, 'greet').first().waitFor({ timeout: 60_000 });
    const status = page.locator('.statusbar-item', { hasText: 'default' }).first();
    await status.waitFor({ timeout: 30_000 });
    await screenshot(page, 'targets-default');

    // The switch, as a user makes it: the palette, then the target's row.
    await runCommand(page, 'Custom Actions: Switch Target');
    const qaRow = page.locator('.quick-input-list .monaco-list-row', { hasText: /^qa/ });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'live' }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'targets-pick');
    await qaRow.first().click();
    await page.locator('.statusbar-item', { hasText: 'qa' }).first().waitFor({ timeout: 30_000 });
    // The view's title, as VS Code shows a view alone in its container: "Custom Actions: qa".
    await page.locator('.part.sidebar .composite.title', { hasText: /Custom Actions: qa/i }).waitFor({ timeout: 30_000 });

    // A new server asks for its key; then the tree lists what qa runs.
    await signInToUiApp(page, 'qa-key');
    await treeRow(page, 'UI App').first().waitFor({ timeout: 30_000 });
    if ((await treeRow(page, 'qa-only').count()) === 0) await treeRow(page, 'UI App').first().click();
    await treeRow(page, 'qa-only').first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'targets-qa');

    // A save goes to qa's server, as ui-qa's action, and none to staging.
    await quickOpen(page, 'ui-app/greet/main.ts');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'hello' }).waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// saved for qa\n');
    await page.keyboard.press('Control+S');
    await page
      .locator('.statusbar-item', { hasText: /Pushed code of greet/ })
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        await screenshot(page, 'targets-save-missing');
        throw new Error(`no push confirmed (qa: ${qa.pushes.join(',')}; staging: ${staging.pushes.join(',')}): ${String(error)}`);
      });
    assert.deepEqual(qa.pushes, [PROD_ID]);
    assert.deepEqual(staging.pushes, [], 'nothing went to staging');

    // The protected target is marked in the status bar.
    await runCommand(page, 'Custom Actions: Switch Target');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'live' }).first().click();
    await page.locator('.statusbar-item', { hasText: 'live' }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'targets-live');
  });
});
