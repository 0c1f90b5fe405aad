import path from 'node:path';
import { openCustomActionsView, openWorkbench, repoRoot, screenshot, type Workbench } from './support/workbench';

/**
 * A workspace of two folders, each with its customactions.yaml, and a project nested in one of them:
 * the view shows a row per project, named by its folder, with its server beside it, and each row
 * holds its own project's applications (docs/workspace.md, *Several projects*).
 */
describe('Several projects in one workspace (browser)', function () {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench({ fixture: path.join(repoRoot, 'test', 'ui', 'fixtures', 'projects'), workspaceFile: 'projects.code-workspace' });
  });
  after(async () => wb?.close());

  it('a two-folder workspace shows two projects in the tree, and the nested one as a third', async () => {
    const { page } = wb;
    await openCustomActionsView(page);
    const view = page.locator('.pane', { has: page.locator('.pane-header[aria-label^="Custom Actions"]') });
    // A row whose own label is exactly `label` (a project's folder name is also in its applications' names).
    const row = (label: string) => view.locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) });
    await row('shop').waitFor({ timeout: 60_000 });
    await row('crm').waitFor();
    await row('admin').waitFor();
    // Each project's row says where it deploys, and holds its own applications (rows open expanded).
    await row('shop').locator('.label-description', { hasText: 'local sandbox' }).waitFor();
    await row('crm').locator('.label-description', { hasText: '127.0.0.1:9' }).waitFor();
    await row('Shop App').waitFor();
    await row('Admin App').waitFor();
    // crm's server has no key here: its row says so instead of listing what it cannot read.
    await view.locator('.monaco-list-row', { hasText: 'Sign in to see the actions' }).waitFor();
    await screenshot(page, 'projects-two-folders');
    const labels = await view.locator('.monaco-list-row .label-name').allInnerTexts();
    const order = ['shop', 'admin', 'crm'].map((l) => labels.indexOf(l));
    if (order.some((i) => i < 0) || !(order[0]! < order[1]! && order[1]! < order[2]!))
      throw new Error(`the projects in workspace order, nested after its folder's: ${labels.join(', ')}`);
  });
});
