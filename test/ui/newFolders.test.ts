/**
 * Action folders brought by a `git pull` while the workbench is open, as a user meets them: each
 * folder is made and its action.yaml written at once, as git does, which VS Code's watcher on Linux
 * does not tell of (model/actionFiles.ts). The tree shows every new action and its generated types
 * are written, with no Refresh.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { expandUiApp, type GreetWorkbench, openGreetWorkbench } from './support/standIn';
import { screenshot, treeRow } from './support/workbench';

const NEW = ['welcome', 'farewell', 'remind', 'thank', 'invite'];

describe('Action folders a git pull brings (browser)', function () {
  let greet: GreetWorkbench | undefined;

  before(async () => {
    greet = await openGreetWorkbench('new-folders');
  });

  after(async () => {
    await greet?.close();
  });

  it('shows each new action in the tree and writes its generated types, with no Refresh', async () => {
    const { page, wb } = greet!;
    await expandUiApp(page);
    await treeRow(page, 'Greet').first().waitFor({ timeout: 60_000 });

    // Into the folder the workbench opened (a copy of the fixture).
    const appFolder = path.join(wb.workspace, 'ui-app');
    for (const key of NEW) {
      const folder = path.join(appFolder, key);
      mkdirSync(folder);
      writeFileSync(
        path.join(folder, 'action.yaml'),
        `key: ${key}\nname: ${key[0]!.toUpperCase()}${key.slice(1)}\ndescription: d\ndeveloperEmail: dev@example.com\nparameters:\n  - name: who\n    type: text\nresult:\n  type: text\n`,
      );
    }
    for (const key of NEW)
      await treeRow(page, `${key[0]!.toUpperCase()}${key.slice(1)}`)
        .first()
        .waitFor({ timeout: 60_000 });
    await screenshot(page, 'new-folders-tree');
    const written = () => NEW.filter((key) => existsSync(path.join(appFolder, key, 'action.generated.ts'))).length;
    await eventually(() => written() === NEW.length || undefined, 'the generated types of every new folder', 60_000).catch(() =>
      assert.fail(`${written()} of ${NEW.length} generated files written`),
    );
  });
});
