import * as vscode from 'vscode';
import { isHttpUrl, LOCAL_SANDBOX } from '../../core/schema';
import { addApplication, PROJECT_FILE, removeApplication } from '../../core/workspace';
import { count, serverText } from '../../core/text';
import { enterKey } from '../connections';
import { assertInsideWorkspace, writeInsideWorkspace } from '../files';
import { ANY_APPLICATION } from '../keyStore';
import { type ProjectState, requireProject } from '../project';
import { mayReplaceFile } from '../replaceFile';
import { type Parts } from '../parts';
import { isNode, pickApplication, pickProject, pickValidProject, projectFileOf } from '../commands/commands';

export async function signIn(s: Pick<Parts, 'connections' | 'keys' | 'model' | 'project' | 'trust'>, node?: unknown): Promise<void> {
  // Before the key is typed: it would be checked against the server the workspace names.
  s.trust.require('Sign In');
  // A project's row (its "Sign in" message) names the project; an application's row the application.
  const fromRow = isNode(node) && node.kind !== 'project';
  let app = fromRow ? await pickApplication(s, node) : undefined;
  let allApplications = false;
  if (!app) {
    const state = await pickValidProject(s, node, 'Sign in to the server of which project');
    if (!state) return;
    const items = [
      ...state.applications.map((a) => ({ label: a.label, description: serverText(a.id, 120), app: a, all: false })),
      ...(state.applications[0] ? [{ label: 'All applications of this server', description: 'a default key', app: state.applications[0], all: true }] : []),
    ];
    const picked = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { placeHolder: 'Which key to enter' });
    if (!picked) return;
    app = picked.app;
    allApplications = picked.all;
  }
  if (await enterKey(s.connections, s.keys, app, allApplications)) {
    void vscode.window.showInformationMessage(`Signed in to ${allApplications ? 'every application' : app.label}.`);
    s.model.refresh();
  }
}

export async function signOut(s: Pick<Parts, 'connections' | 'keys' | 'model' | 'project'>, node?: unknown): Promise<void> {
  const app = await pickApplication(s, node, 'Remove the key of which application');
  if (!app) return;
  const { logical } = await s.connections.baseUrl(app);
  await s.keys.delete(logical, app.id);
  const fallback = await s.keys.has(logical, app.id);
  if (fallback) {
    const also = await vscode.window.showInformationMessage(
      `Removed the key of ${app.label}. A default key for this server still applies to it.`,
      'Remove Default Key Too',
    );
    if (also) await s.keys.delete(logical, ANY_APPLICATION);
  } else {
    void vscode.window.showInformationMessage(`Signed out of ${app.label}: its key was removed.`);
  }
  s.model.refresh();
}

export async function startSandbox(s: Pick<Parts, 'model' | 'project' | 'sandbox' | 'trust'>, node?: unknown): Promise<void> {
  const projects = await s.project.all();
  // Several projects: the one the row or the editor decides, else one that names the sandbox, else a pick.
  const sandboxed = projects.filter((p) => p.kind === 'ok' && p.isSandbox);
  let state: ProjectState;
  if (projects.length === 0) state = { kind: 'none' };
  else if (sandboxed.length === 1 && !isNode(node) && !decidedByEditor(s)) state = sandboxed[0]!;
  else {
    const picked = await pickProject(s, node, 'Start the local sandbox for which project');
    if (!picked) return;
    state = picked;
  }
  if (state.kind === 'none') {
    const target = s.project.defaultUri();
    if (!target) {
      void vscode.window.showWarningMessage('Open a folder first: the local sandbox serves the applications of a workspace.');
      return;
    }
    if (!(await mayReplaceFile(target, NEW_SANDBOX_PROJECT, 'Start Local Sandbox'))) return;
    await writeInsideWorkspace(target, NEW_SANDBOX_PROJECT);
    state = (await s.project.reload()).find((p) => p.uri.toString() === target.toString()) ?? { kind: 'none' };
  }
  const project = requireProject(state);
  if (!project.isSandbox) {
    const open = await vscode.window.showInformationMessage(
      `${projects.length > 1 ? `The project ${serverText(project.name, 120)}` : 'This workspace'} talks to ${serverText(project.baseUrl, 200)}. The local sandbox is used when ${PROJECT_FILE} says "baseUrl: ${LOCAL_SANDBOX}".`,
      `Open ${PROJECT_FILE}`,
    );
    if (open) await vscode.window.showTextDocument(project.uri);
    return;
  }
  s.trust.require('Starting the local sandbox');
  // One sandbox for every project that names it.
  const { applications: apps, demo } = await s.project.sandboxApplications();
  const url = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the local sandbox…' }, () =>
    s.sandbox.ensure(apps, demo),
  );
  s.model.refresh();
  void vscode.window.showInformationMessage(
    `The local sandbox is running at ${url}; ${apps.length === 1 ? 'its key is' : 'its keys are'} stored for ${count(apps.length, 'application')}.`,
  );
}

export async function stopSandbox(s: Pick<Parts, 'model' | 'sandbox'>): Promise<void> {
  await s.sandbox.stop();
  s.model.refresh();
}

export async function initProject(s: Pick<Parts, 'project'>): Promise<void> {
  // A workspace of several folders: the user says which one the new project is (each may be one).
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder = folders.length > 1 ? await vscode.window.showWorkspaceFolderPick({ placeHolder: `Create ${PROJECT_FILE} in which folder` }) : folders[0];
  if (folders.length > 1 && !folder) return;
  const target = folder && vscode.Uri.joinPath(folder.uri, PROJECT_FILE);
  if (!target) {
    void vscode.window.showWarningMessage('Open a folder first.');
    return;
  }
  const choice = await vscode.window.showQuickPick(
    [
      { label: '$(beaker) Local sandbox', description: 'try everything offline, no account needed', sandbox: true },
      { label: '$(cloud) A platform server', description: 'enter its base URL', sandbox: false },
    ],
    { placeHolder: 'Where do the actions of this workspace live?' },
  );
  if (!choice) return;
  let text = NEW_SANDBOX_PROJECT;
  if (!choice.sandbox) {
    const baseUrl = await vscode.window.showInputBox({
      prompt: 'Base URL of the platform (requests go to <base URL>/api/…)',
      placeHolder: 'https://platform.example.com',
      ignoreFocusOut: true,
      validateInput: (v) => (isHttpUrl(v.trim()) ? undefined : 'An http(s) URL'),
    });
    if (!baseUrl) return;
    text = `# The server and the applications of this workspace. Keys are kept in VS Code's secret storage, never here.\nbaseUrl: ${baseUrl.trim()}\napplications: []\n`;
  }
  if (!(await mayReplaceFile(target, text, 'Create Project File'))) return;
  await writeInsideWorkspace(target, text);
  await s.project.reload();
  await vscode.window.showTextDocument(target);
}

export async function addApplicationCommand(s: Pick<Parts, 'project'>, node?: unknown): Promise<void> {
  const state = await pickValidProject(s, node, 'Add an application to which project');
  if (!state) return;
  const id = await vscode.window.showInputBox({
    title: 'Add Application (1/3)',
    prompt: 'The application id of the platform',
    ignoreFocusOut: true,
    validateInput: (v) =>
      !v.trim() ? 'Enter the id' : state.applications.some((a) => a.projectId === v.trim()) ? 'This application is listed already' : undefined,
  });
  if (!id) return;
  const name = await vscode.window.showInputBox({ title: 'Add Application (2/3)', prompt: 'Display name', value: id.trim(), ignoreFocusOut: true });
  if (name === undefined) return;
  const folder = await vscode.window.showInputBox({
    title: 'Add Application (3/3)',
    prompt: `Folder for its actions, relative to ${PROJECT_FILE}`,
    value: id.trim().replace(/[^\w.-]+/g, '-'),
    ignoreFocusOut: true,
    validateInput: (v) => (!v.trim() || v.includes('..') || /^[\\/]/.test(v) ? 'A relative folder inside the workspace' : undefined),
  });
  if (!folder) return;
  await editProjectFile(state.uri, (text) => addApplication(text, { id: id.trim(), name: name.trim() || id.trim(), folder: folder.trim() }));
  await s.project.reload();
}

export async function removeApplicationCommand(s: Pick<Parts, 'project'>, node?: unknown): Promise<void> {
  const app = await pickApplication(s, node, 'Remove which application from this workspace');
  if (!app) return;
  const state = s.project.current(app.project.root);
  if (state?.kind !== 'ok') return;
  const confirm = await vscode.window.showWarningMessage(
    `Remove "${app.label}" from ${projectFileOf(state, s.project.projects.length)}? Its folder and the actions on the server are kept.`,
    { modal: true },
    'Remove',
  );
  if (confirm !== 'Remove') return;
  await editProjectFile(state.uri, (text) => removeApplication(text, app.id));
  await s.project.reload();
}

export async function openProjectFile(s: Pick<Parts, 'project'>, node?: unknown): Promise<void> {
  if ((await s.project.all()).length === 0) return initProject(s);
  const state = await pickProject(s, node, 'Open the customactions.yaml of which project');
  if (state) await vscode.window.showTextDocument(state.uri);
}

/** Whether the active editor's file is in a project (it then decides which one a command means). */
function decidedByEditor(s: Pick<Parts, 'project'>): boolean {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri !== undefined && s.project.projectOf(uri) !== undefined;
}

/** Edits through a WorkspaceEdit so the change is undoable and respects an open, dirty editor of the file. */
async function editProjectFile(uri: vscode.Uri, change: (text: string) => string): Promise<void> {
  // The save below is the extension's own write.
  await assertInsideWorkspace(uri);
  const document = await vscode.workspace.openTextDocument(uri);
  const next = change(document.getText());
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), next);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not edit ${PROJECT_FILE}.`);
  await document.save();
}

const NEW_SANDBOX_PROJECT = `# The server and the applications of this workspace. Keys are kept in VS Code's secret storage, never here.
# "local-sandbox" is the sandbox built into the extension: it runs on this machine, no account needed.
baseUrl: ${LOCAL_SANDBOX}
applications:
  - id: my-app
    name: My App
    folder: actions
`;
