/**
 * A key changed in its folder, as a user meets it in the browser: the folder the lock recorded for the
 * server's `greet` now declares `hello`, and the tree shows one row for both, saying the key changed
 * here, as `custom-actions status` says it (no second row offering to create `hello`).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DeployLock, LOCK_FILE } from '../../src/core/deploy/lock';
import { ACTION_ID, greetWorkspace, signInToUiApp, type StandIn, standInServer } from './support/standIn';
import { openCustomActionsView, openWorkbench, screenshot, treeRow, type Workbench } from './support/workbench';

describe('A key changed in its folder (browser)', function () {
  let server: StandIn;
  let fixture: string;
  let wb: Workbench | undefined;
  let page: Page;

  before(async () => {
    server = await standInServer(() => false);
    fixture = greetWorkspace('key-changed', server.port);
    // Deployed from the folder greet as greet (the lock a deploy or a save wrote), then the key changed in action.yaml.
    const lock = DeployLock.empty().with(`http://127.0.0.1:${server.port}`, 'ui-app', 'greet', { id: ACTION_ID });
    writeFileSync(path.join(fixture, LOCK_FILE), lock.serialize());
    const yaml = path.join(fixture, 'ui-app', 'greet', 'action.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^key: greet$/m, 'key: hello'));
    wb = await openWorkbench({ fixture });
    page = wb.page;
    await signInToUiApp(page, 'key-changed');
  });

  after(async () => {
    await wb?.close();
    server.close();
    rmSync(fixture, { recursive: true, force: true });
  });

  it("shows the folder and the server's action as one row, the key changed here", async () => {
    await openCustomActionsView(page);
    const app = treeRow(page, 'UI App').first();
    await app.waitFor({ timeout: 60_000 });
    if ((await app.getAttribute('aria-expanded')) !== 'true') await app.click();
    await treeRow(page, 'key changed here (server: greet)').waitFor({ timeout: 60_000 });
    await screenshot(page, 'key-changed-tree');
    // One row: the server's greet is not offered again as an action only on the server.
    await treeRow(page, 'not created').waitFor({ state: 'detached', timeout: 5_000 });
  });
});
