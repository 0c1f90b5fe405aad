import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { INPUTS_FOLDER, isInputSetFileName, MAIN_FILE } from '../../core/workspace';
import { Disposable } from '../lifecycle';
import { type LocalAction, readLocalAction } from '../localActions';
import { type ActionsModel } from '../model';
import { type Application } from '../project';
import { caseName, readCase } from './cases';
import { type InputSetDiagnostics, isInputSetPath } from './diagnostics';
import { OutdatedVerdicts } from './outdated';

/** What a test item stands for. Items are found again by id; the data never comes from the view. */
export type ItemData =
  | { readonly kind: 'application'; readonly app: Application }
  | { readonly kind: 'action'; readonly app: Application; readonly folder: vscode.Uri; readonly key: string }
  | { readonly kind: 'case'; readonly app: Application; readonly folder: vscode.Uri; readonly uri: vscode.Uri };

export const CONTROLLER_ID = 'customActions';

/**
 * The Testing view's tree: applications → actions → input sets, read from the workspace through the
 * ActionsModel. Nothing is read until the view asks (`resolveHandler`): the applications when it is
 * opened, an application's action folders and an action's input sets when they are expanded or run.
 * What was read is kept in step: the model's changes (action.yaml created, changed, deleted; the
 * project file) and a watcher on inputs/*.json.
 */
export class ActionTestTree extends Disposable {
  readonly controller = this.register(vscode.tests.createTestController(CONTROLLER_ID, 'Custom Actions'));
  private readonly data = new WeakMap<vscode.TestItem, ItemData>();
  /** Ids of the items whose children have been read (the root as ''). */
  private readonly resolved = new Set<string>();

  constructor(
    private readonly model: ActionsModel,
    private readonly diagnostics: InputSetDiagnostics,
  ) {
    super();
    this.controller.resolveHandler = (item) => this.resolve(item);
    this.controller.refreshHandler = async () => {
      this.resolved.clear();
      await this.resolve(undefined);
    };
    this.register(model.onDidChange((change) => void this.changed(change.app)));
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${INPUTS_FOLDER}/*.json`));
    this.register(watcher.onDidCreate((uri) => void this.inputSetChanged(uri, true)));
    this.register(watcher.onDidChange((uri) => void this.inputSetChanged(uri, false)));
    this.register(watcher.onDidDelete((uri) => void this.inputSetChanged(uri, true)));
    // Made with the tree, as its own watcher is: made later (once the view had read the applications),
    // the view's watchers got no events after the project file was switched and back (host tests).
    this.register(new OutdatedVerdicts(this.controller, (folder, file) => this.itemFor(folder, file)));
    // An unsaved edit of an input set changes what a run would use: its description and problems follow it.
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && isInputSetPath(e.document.uri)) void this.inputSetChanged(e.document.uri, false);
      }),
    );
  }

  dataOf(item: vscode.TestItem): ItemData | undefined {
    return this.data.get(item);
  }

  /** Reads the children of `item` (the applications for undefined), once. */
  async resolve(item: vscode.TestItem | undefined): Promise<void> {
    const id = item?.id ?? '';
    if (this.resolved.has(id)) return;
    this.resolved.add(id);
    if (item) item.busy = true;
    try {
      if (!item) await this.loadApplications();
      else {
        const data = this.data.get(item);
        if (data?.kind === 'application') await this.loadActions(item, data.app);
        if (data?.kind === 'action') await this.loadCases(item, data);
      }
    } catch (error) {
      this.resolved.delete(id);
      if (item) item.error = `Could not be read: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      if (item) item.busy = false;
    }
  }

  /** The test cases under `item` (itself for a case), read as far down as needed. */
  async casesUnder(item: vscode.TestItem): Promise<vscode.TestItem[]> {
    const data = this.data.get(item);
    if (data?.kind === 'case') return [item];
    await this.resolve(item);
    const children: vscode.TestItem[] = [];
    item.children.forEach((child) => children.push(child));
    return (await Promise.all(children.map((child) => this.casesUnder(child)))).flat();
  }

  /** Every case of the workspace (a run of everything). */
  async allCases(): Promise<vscode.TestItem[]> {
    await this.resolve(undefined);
    const roots: vscode.TestItem[] = [];
    this.controller.items.forEach((item) => roots.push(item));
    return (await Promise.all(roots.map((root) => this.casesUnder(root)))).flat();
  }

  /** The item of the action in `folder`, or of its case in `file`, when they have been read. */
  itemFor(folder: vscode.Uri, file?: vscode.Uri): vscode.TestItem | undefined {
    let action: vscode.TestItem | undefined;
    this.controller.items.forEach((app) => (action ??= app.children.get(`action:${folder.toString()}`)));
    return file ? action?.children.get(file.toString()) : action;
  }

  private async loadApplications(): Promise<void> {
    const apps = await this.model.applications();
    const several = new Set(apps.map((app) => app.project.root.toString())).size > 1;
    this.controller.items.replace(
      apps.map((app) => {
        const item = this.item(`app:${app.uid}`, app.label, app.folderUri, { kind: 'application', app }, this.controller.items.get(`app:${app.uid}`));
        item.canResolveChildren = true;
        // Several projects may each have an application of that name: the project says which.
        item.description = several ? serverText(app.project.name, 120) : undefined;
        return item;
      }),
    );
  }

  private async loadActions(parent: vscode.TestItem, app: Application): Promise<void> {
    const locals = await this.model.localActions(app);
    parent.children.replace(locals.map((local) => this.actionItem(parent, app, local)));
    parent.error = undefined;
  }

  private actionItem(parent: vscode.TestItem, app: Application, local: LocalAction): vscode.TestItem {
    const id = `action:${local.folder.toString()}`;
    const item = this.item(
      id,
      local.key,
      vscode.Uri.joinPath(local.folder, MAIN_FILE),
      { kind: 'action', app, folder: local.folder, key: local.key },
      parent.children.get(id),
    );
    item.description = local.name;
    item.canResolveChildren = true;
    item.error = local.metadata ? undefined : `action.yaml has ${local.problemCount} problem(s): its parameters and result type come from it.`;
    return item;
  }

  private async loadCases(parent: vscode.TestItem, data: Extract<ItemData, { kind: 'action' }>): Promise<void> {
    const action = await readLocalAction(data.folder);
    let entries: [string, vscode.FileType][] = [];
    try {
      entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(data.folder, INPUTS_FOLDER));
    } catch {
      // No inputs folder: no cases yet.
    }
    const files = entries
      .filter(([name, type]) => type === vscode.FileType.File && isInputSetFileName(name))
      .map(([name]) => vscode.Uri.joinPath(data.folder, INPUTS_FOLDER, name))
      .sort((a, b) => a.path.localeCompare(b.path));
    const items = await Promise.all(files.map((uri) => this.caseItem(parent, data, uri, action)));
    parent.children.replace(items);
  }

  private async caseItem(
    parent: vscode.TestItem,
    data: Extract<ItemData, { kind: 'action' }>,
    uri: vscode.Uri,
    action: LocalAction | undefined,
  ): Promise<vscode.TestItem> {
    const item = this.item(
      uri.toString(),
      serverText(caseName(uri), 120),
      uri,
      { kind: 'case', app: data.app, folder: data.folder, uri },
      parent.children.get(uri.toString()),
    );
    try {
      const testCase = await readCase(uri, action);
      this.diagnostics.show(testCase);
      // The description and problems are the file's text (a clone's, or a server's event pinned): shown, not obeyed.
      item.description =
        testCase.file.description !== undefined
          ? serverText(testCase.file.description, 200)
          : testCase.file.expect
            ? undefined
            : 'no expectation: passes when main does not throw';
      item.error = testCase.file.problems.length > 0 ? serverText(testCase.file.problems.map((p) => p.message).join('; '), 800) : undefined;
    } catch (error) {
      item.error = serverText(`Could not be read: ${error instanceof Error ? error.message : String(error)}`, 800);
    }
    return item;
  }

  private item(id: string, label: string, uri: vscode.Uri, data: ItemData, existing: vscode.TestItem | undefined): vscode.TestItem {
    // The same item again keeps its children and results; a changed label is set on it.
    const item = existing ?? this.controller.createTestItem(id, label, uri);
    item.label = label;
    this.data.set(item, data);
    return item;
  }

  /** The model says an application's actions (or everything) changed: what was read is read again. */
  private async changed(app: Application | undefined): Promise<void> {
    if (!this.resolved.has('')) return;
    if (!app) {
      this.resolved.delete('');
      await this.resolve(undefined);
      const roots: vscode.TestItem[] = [];
      this.controller.items.forEach((item) => roots.push(item));
      for (const root of roots) if (this.resolved.has(root.id)) await this.reload(root);
      return;
    }
    const item = this.controller.items.get(`app:${app.uid}`);
    if (item && this.resolved.has(item.id)) await this.reload(item);
  }

  /** Reads an application's actions again, and the cases of those that were read (action.yaml may have changed). */
  private async reload(appItem: vscode.TestItem): Promise<void> {
    this.resolved.delete(appItem.id);
    await this.resolve(appItem);
    const actions: vscode.TestItem[] = [];
    appItem.children.forEach((item) => actions.push(item));
    for (const action of actions)
      if (this.resolved.has(action.id)) {
        this.resolved.delete(action.id);
        await this.resolve(action);
      }
  }

  /** An input set was created or deleted (`listed`: the list changes), or its text changed. */
  private async inputSetChanged(uri: vscode.Uri, listed: boolean): Promise<void> {
    const found = await this.model.inputSetAt(uri);
    if (!found) return;
    const actionItem = this.controller.items.get(`app:${found.app.uid}`)?.children.get(`action:${found.action.folder.toString()}`);
    const data = actionItem && this.data.get(actionItem);
    if (!actionItem || data?.kind !== 'action' || !this.resolved.has(actionItem.id)) return;
    const existing = actionItem.children.get(uri.toString());
    if (!listed && existing) {
      await this.caseItem(actionItem, data, uri, found.action);
      return;
    }
    this.resolved.delete(actionItem.id);
    await this.resolve(actionItem);
    if (!actionItem.children.get(uri.toString())) this.diagnostics.forget(uri);
  }
}
