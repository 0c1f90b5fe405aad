/**
 * Promote as a user meets it in the browser: a staging and a production server (two real sandboxes),
 * the palette's Promote, the two targets picked, production's key asked for on the way (the user
 * signed in on staging only), the plan and its diff in an editor beside the modal that asks, then
 * production running what staging runs.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createClient } from '../../src/core/client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { actionMetadata } from '../support/metadata';
import { eventually } from '../support/eventually';
import { dialog } from './support/gestures';
import { notification } from './support/notifications';
import { signInToUiApp } from './support/standIn';
import { openWorkbench, runCommand, screenshot, type Workbench } from './support/workbench';

const CODE = "export function main(): string {\n  return 'from staging';\n}\n";

describe('Promote in the workbench (browser)', function () {
  let staging: Sandbox;
  let production: Sandbox;
  let fixture: string;
  let wb: Workbench | undefined;
  let page: Page;

  const clientOf = (sandbox: Sandbox) => createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(sandbox.applications[0]!.key) });

  before(async () => {
    [staging, production] = await Promise.all([
      startSandbox({ applications: [{ id: 'ui-app', name: 'UI App' }] }),
      startSandbox({ applications: [{ id: 'ui-prod', name: 'UI App' }] }),
    ]);
    const stagingClient = clientOf(staging);
    const { id } = await stagingClient.createAction('ui-app', actionMetadata({ key: 'greet' }));
    await stagingClient.putImplementation(id, CODE);
    fixture = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-ui-promote-'));
    mkdirSync(path.join(fixture, 'ui-app'));
    writeFileSync(
      path.join(fixture, 'customactions.yaml'),
      `baseUrl: ${staging.url}\napplications:\n  - id: ui-app\n    name: UI App\n    folder: ui-app\ntargets:\n  production:\n    baseUrl: ${production.url}\n    protected: true\n    applications:\n      ui-app: ui-prod\n`,
    );
    wb = await openWorkbench({ fixture });
    page = wb.page;
    await signInToUiApp(page, staging.applications[0]!.key);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, 'promote-failed');
  });

  after(async () => {
    await wb?.close();
    await Promise.all([staging?.close(), production?.close()]);
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  it('picks the targets, asks for production’s key, shows the plan with its diff, asks, and sends what staging runs', async () => {
    const quickInput = page.locator('.quick-input-widget');
    const row = (text: string | RegExp) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
    // A pick's question is its input's placeholder, which is no text of the widget.
    const asking = (placeholder: string) => quickInput.locator(`input[placeholder="${placeholder}"]`).waitFor({ timeout: 30_000 });
    await runCommand(page, 'Custom Actions: Promote…');
    await asking('Promote from: the target whose server holds what goes');
    await row(/^default/).click();
    await asking('Promote from default to');
    await screenshot(page, 'promote-to');
    await row(/^production/).click();

    // Signed in on staging only: production's key is asked for here, not after a switch of targets.
    await quickInput.filter({ hasText: 'Key for ui-prod on target production' }).waitFor({ timeout: 30_000 });
    const input = quickInput.locator('input');
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill(production.applications[0]!.key);
    await input.press('Enter');

    await asking('The actions that go');
    await row('greet').waitFor();
    await input.press('Enter');

    const asked = await dialog(page, /1 action of default will be written to production .*a protected target/);
    // The plan, under the dialog: the action's line and the diff of the code production would run.
    const plan = page.locator('.editor-instance .view-lines');
    await plan.filter({ hasText: 'would-create' }).waitFor({ timeout: 30_000 });
    await plan.filter({ hasText: '+++ default:ui-app/greet/main.ts' }).waitFor({ timeout: 30_000 });
    // Read-only and named by its targets: closing it later asks nothing.
    const tab = page.locator('.tabs-container .tab', { hasText: 'Promote default to production.diff' });
    await tab.waitFor({ timeout: 30_000 });
    assert.equal(await tab.evaluate((t) => t.classList.contains('dirty')), false, 'the plan is no unsaved document');
    await screenshot(page, 'promote-plan');
    await asked.locator('.monaco-button', { hasText: 'Promote to production' }).click();

    await notification(page, /Promoted 1 action from default to production/);
    const productionClient = clientOf(production);
    const promoted = await eventually(async () => (await productionClient.listActions('ui-prod')).find((a) => a.key === 'greet'), 'greet on production');
    assert.equal(await productionClient.getImplementation(promoted.id), CODE);
    await screenshot(page, 'promote-done');
  });
});
