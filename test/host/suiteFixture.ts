/**
 * The setup the host suites share: the workspace's files as a suite writes them, an action in the
 * workspace and on the server as after a Pull, an editor opened and saved by hand, the project pointed
 * at another server with the sandbox's key stored there, and the workbench put back after a test.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { codeHash, metadataHash } from '../../src/core/deploy/base';
import { LOCAL_SANDBOX, type ActionMetadata } from '../../src/core/schema';
import { generateTypes } from '../../src/core/typegen';
import { serializeActionYaml } from '../../src/core/workspace';
import { type Application, type Project } from '../../src/extension/project';
import { type Services } from '../../src/extension/services';
import { actionMetadata } from '../support/metadata';
import { NotificationSpy } from './notifications';
import { api, eventually, removeActions, restoreProjectFile, workspaceRoot } from './support';

export const readText = async (uri: vscode.Uri): Promise<string> => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
export const writeText = (uri: vscode.Uri, text: string): Thenable<void> => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));

/** The workspace's customactions.yaml. */
export const projectFile = (): vscode.Uri => vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml');
/** The folder of action `key` of the fixture's test-app (its folder is `actions`). */
export const actionFolder = (key: string): vscode.Uri => vscode.Uri.joinPath(workspaceRoot(), 'actions', key);
export const mainOf = (key: string): vscode.Uri => vscode.Uri.joinPath(actionFolder(key), 'main.ts');

export const codeReturning = (expression: string): string => `export function main(n: number): number {\n  return ${expression};\n}\n`;

/** An action of one number `n` in and a number out, as `codeReturning` says; `fields` name the rest. */
export function numberAction(key: string, fields: Partial<ActionMetadata> = {}): ActionMetadata {
  return actionMetadata({ key, parameters: [{ name: 'n', type: 'number', description: 'A number' }], result: { type: 'number', description: '' }, ...fields });
}

/** action.yaml and action.generated.ts of `metadata` in `folder`, and main.ts when `code` is given. */
export async function writeActionFiles(folder: vscode.Uri, metadata: ActionMetadata, code?: string): Promise<void> {
  await writeText(vscode.Uri.joinPath(folder, 'action.yaml'), serializeActionYaml(metadata));
  await writeText(vscode.Uri.joinPath(folder, 'action.generated.ts'), generateTypes(metadata));
  if (code !== undefined) await writeText(vscode.Uri.joinPath(folder, 'main.ts'), code);
}

/**
 * An action in `folder` and on `app`'s server with `code` on both, whose bases are recorded as after a
 * Pull: the saves are checked against them. Returns the server's id.
 */
export async function actionAsPulled(services: Services, app: Application, folder: vscode.Uri, metadata: ActionMetadata, code: string): Promise<string> {
  await writeActionFiles(folder, metadata, code);
  const made = await services.connections.call(app, (c) => c.createAction(app.id, metadata));
  const put = await services.connections.call(app, (c) => c.putImplementation(made.id, code));
  services.deploy.recordBases(
    app,
    { id: made.id, key: metadata.key },
    { metadata: { etag: made.etag, hash: metadataHash(metadata) }, implementation: { etag: put.etag, hash: codeHash(code) } },
  );
  return made.id;
}

/** Actions a suite made as after a Pull, each in the fixture's actions folder: `removeAll()` takes them away after the suite. */
export class PulledActions {
  private readonly ids: string[] = [];
  private readonly keys = new Set<string>();

  constructor(
    private readonly services: () => Services,
    private readonly app: () => Application,
  ) {}

  /** Action `key` in the workspace and on the server with `code` on both (actionAsPulled), the model read afresh; its id. */
  async add(key: string, code: string, metadata: ActionMetadata): Promise<string> {
    this.keys.add(key);
    const id = await actionAsPulled(this.services(), this.app(), actionFolder(key), metadata, code);
    this.ids.push(id);
    this.services().model.refresh();
    return id;
  }

  /** Deletes them on the server, and their folders. */
  removeAll(): Promise<void> {
    return removeActions(this.services(), this.app(), this.ids, [...this.keys].map(actionFolder));
  }
}

/**
 * `uri` in an editor, once its document holds what is on disk: a file written a moment ago may still be
 * announced as changed on disk, and a save racing that reads as a conflict.
 */
export async function openAsWritten(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const onDisk = await readText(uri);
  const document = await eventually(async () => {
    const opened = await vscode.workspace.openTextDocument(uri);
    return opened.getText() === onDisk ? opened : undefined;
  }, `${uri.path} as written`);
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Replaces the editor's whole text with `text`, unsaved. */
export async function replaceText(e: vscode.TextEditor, text: string): Promise<void> {
  const whole = e.document.validateRange(new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0));
  assert.ok(await e.edit((b) => b.replace(whole, text)));
}

/** Puts `text` in the editor and saves it by hand, as the user would. */
export async function saveText(e: vscode.TextEditor, text: string): Promise<void> {
  await replaceText(e, text);
  if (await e.document.save()) return;
  // The first save in a fresh window can race the file service announcing the files just written.
  await eventually(async () => (!e.document.isDirty || (await e.document.save()) ? true : undefined), `saved (dirty: ${e.document.isDirty})`);
}

/** Closes every editor a test left open, the active one's unsaved changes reverted. */
export async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * A new NotificationSpy for each test of the suite, handed to `use`; after the test it is disposed and
 * the editors are closed. Call it in the suite's describe.
 */
export function spyPerTest(use: (spy: NotificationSpy) => void): void {
  let spy: NotificationSpy | undefined;
  beforeEach(() => use((spy = new NotificationSpy())));
  afterEach(async () => {
    spy?.dispose();
    spy = undefined;
    await closeEditors();
  });
}

/** The key the sandbox minted for `appId`, stored for `baseUrl` as well, as a user signed in there would have it. */
export async function sandboxKeyAt(services: Services, baseUrl: string, appId: string): Promise<string> {
  const key = await services.keys.get(LOCAL_SANDBOX, appId);
  assert.ok(key, `the sandbox minted a key for ${appId}`);
  await services.keys.set(baseUrl, appId, key);
  return key;
}

export interface ProjectElsewhere {
  /** The project as read on the other server. */
  readonly project: Project;
  /** The application `appId` as the project on the other server names it. */
  readonly app: Application;
  /** The sandbox's key of the application, now stored for the other server too. */
  readonly key: string;
  /** customactions.yaml as it was before. */
  readonly text: string;
  /** Puts the project file back, and reads the project and model afresh. */
  restore(): Promise<void>;
}

/**
 * The workspace's project on `baseUrl` (a proxy in front of the sandbox, or the sandbox by its URL),
 * with the sandbox's key of `appId` stored there. By default the file's own server is replaced;
 * `rewrite` changes the file otherwise (a target of its own, say), as long as the project then is on `baseUrl`.
 */
export async function projectOn(
  services: Services,
  baseUrl: string,
  { appId = 'test-app', rewrite = (text: string) => text.replace('baseUrl: local-sandbox', `baseUrl: ${baseUrl}`) } = {},
): Promise<ProjectElsewhere> {
  const key = await sandboxKeyAt(services, baseUrl, appId);
  const text = await readText(projectFile());
  await writeText(projectFile(), rewrite(text));
  await services.project.reload();
  const state = await services.project.only();
  assert.ok(state.kind === 'ok' && state.baseUrl === baseUrl, `the project is on ${baseUrl}`);
  const app = state.applications.find((a) => a.id === appId);
  assert.ok(app, `the project names ${appId}`);
  return { project: state, app, key, text, restore: () => restoreProjectFile(services, text) };
}

/**
 * For a suite that changes customactions.yaml or picks a target: the file as it was before the suite
 * (`text`), put back after it with no target picked. Call it in the suite's describe.
 */
export function keepProjectFile(): { readonly text: string } {
  let text: string | undefined;
  before(async () => {
    text = await readText(projectFile());
  });
  after(async () => {
    const { services } = await api();
    await services.project.pickTarget(undefined);
    if (text !== undefined) await restoreProjectFile(services, text);
  });
  return {
    get text() {
      assert.ok(text !== undefined, 'the project file is read before the suite');
      return text;
    },
  };
}
