/**
 * A key changed in its folder, as a user meets it in the browser: the folder the lock recorded for the
 * server's `greet` now declares `hello`, and the tree shows one row for both, saying the key changed
 * here, as `custom-actions status` says it (no second row offering to create `hello`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DeployLock, LOCK_FILE } from '../../src/core/deploy/lock';
import { ACTION_ID, expandUiApp, type GreetWorkbench, openGreetWorkbench } from './support/standIn';
import { screenshot, treeRow } from './support/workbench';

describe('A key changed in its folder (browser)', function () {
  let greet: GreetWorkbench | undefined;

  before(async () => {
    greet = await openGreetWorkbench('key-changed', {
      prepare: (fixture, server) => {
        // Deployed from the folder greet as greet (the lock a deploy or a save wrote), then the key changed in action.yaml.
        const lock = DeployLock.empty().with(`http://127.0.0.1:${server.port}`, 'ui-app', 'greet', { id: ACTION_ID });
        writeFileSync(path.join(fixture, LOCK_FILE), lock.serialize());
        const yaml = path.join(fixture, 'ui-app', 'greet', 'action.yaml');
        writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^key: greet$/m, 'key: hello'));
      },
    });
  });

  after(async () => {
    await greet?.close();
  });

  it("shows the folder and the server's action as one row, the key changed here", async () => {
    const { page } = greet!;
    await expandUiApp(page);
    await treeRow(page, 'key changed here (server: greet)').waitFor({ timeout: 60_000 });
    await screenshot(page, 'key-changed-tree');
    // One row: the server's greet is not offered again as an action only on the server.
    await treeRow(page, 'not created').waitFor({ state: 'detached', timeout: 5_000 });
  });
});
