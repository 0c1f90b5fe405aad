import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../support/eventually';
import { discard, openCustomActionsView, openWorkbench, runCommand, screenshot, treeRow, type KeptState } from './support/workbench';

/** A stand-in server that lists no actions, and remembers which keys it was sent. */
function fakeServer(): Promise<{ server: Server; port: number; keys: string[] }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) {
      res.writeHead(401).end();
      return;
    }
    keys.push(auth.slice('Bearer '.length));
    res.writeHead(200, { 'content-type': 'application/json' }).end(req.method === 'GET' ? '[]' : '{}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, keys });
    }),
  );
}

describe('Keys in SecretStorage across a restart (browser)', function () {
  let state: KeptState | undefined;
  let fixture: string;
  let fake: Awaited<ReturnType<typeof fakeServer>>;

  before(async () => {
    fake = await fakeServer();
    fixture = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-fixture-'));
    mkdirSync(path.join(fixture, 'ui-app'));
    writeFileSync(
      path.join(fixture, 'customactions.yaml'),
      `baseUrl: http://127.0.0.1:${fake.port}\napplications:\n  - id: ui-app\n    name: UI App\n    folder: ui-app\n`,
    );
  });
  after(() => {
    fake.server.close();
    rmSync(fixture, { recursive: true, force: true });
    discard(state);
  });

  it('asks for a key, keeps it through Sign In, and still has it after code-server and the browser restart', async () => {
    const first = await openWorkbench({ persistent: true, fixture });
    state = first.state;
    try {
      await openCustomActionsView(first.page);
      await first.page.getByText('No key is stored').waitFor({ timeout: 60_000 });
      await runCommand(first.page, 'Custom Actions: Sign In');
      await first.page.locator('.quick-input-list .monaco-list-row', { hasText: 'UI App' }).first().click();
      const input = first.page.locator('.quick-input-widget input');
      await first.page.locator('.quick-input-widget', { hasText: 'Key for UI App' }).waitFor();
      await input.fill('key-from-the-ui');
      await input.press('Enter');
      await treeRow(first.page, 'UI App').waitFor({ timeout: 30_000 });
      await screenshot(first.page, 'signed-in');
    } finally {
      await first.close();
    }
    fake.keys.length = 0;

    const second = await openWorkbench({ resume: state });
    try {
      await openCustomActionsView(second.page);
      await treeRow(second.page, 'UI App')
        .waitFor({ timeout: 30_000 })
        .catch(async () => {
          // Once in a fresh-clone CI the restored window showed no row in 60 s, and left no picture: one
          // is kept, and the view is brought up again by its icon, as a person would, before waiting on.
          await screenshot(second.page, 'keys-restart-no-tree');
          const icon = second.page.locator('.activitybar .action-item a[aria-label^="Custom Actions"]');
          await icon.click();
          await openCustomActionsView(second.page);
          await treeRow(second.page, 'UI App').waitFor({ timeout: 30_000 });
        });
      assert.equal(await second.page.getByText('No key is stored').count(), 0);
      await treeRow(second.page, 'UI App').click();
      await second.page.keyboard.press('ArrowRight');
      await eventually(() => (fake.keys.includes('key-from-the-ui') ? true : undefined), 'the stored key sent to the server', 30_000);
    } finally {
      await second.close();
    }
  });
});
