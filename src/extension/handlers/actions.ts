import * as vscode from 'vscode';
import { type ActionMetadata, limits, formatProblem, validateMetadata } from '../../core/schema';
import { generateTypes } from '../../core/typegen';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE, newActionMetadata, newActionTemplate, serializeActionYaml } from '../../core/workspace';
import { serverText } from '../../core/text';
import { abortOn } from '../cancellation';
import { assertInsideWorkspace, createFolderInsideWorkspace, exists, showFile, writeInsideWorkspace } from '../files';
import { readLocalAction } from '../localActions';
import { offerPull } from '../pull';
import { type DeployFeature } from '../deploy';
import { type Events } from '../events';
import { type Parts } from '../parts';
import { isNode, pickAction, pickApplication } from '../commands/commands';
import { closeEditorsIn, removeActionFolder } from './removeFolder';
import { staleProblemsOf } from './staleProblems';
import { DIAGNOSTIC_SOURCE } from '../diagnosticSource';

const LAST_EMAIL = 'customActions.lastDeveloperEmail';

/** What Create on Server and the offer to pull take: their own parameters, as narrow as deploy and pull make them. */
type CreateParts = { readonly deploy: DeployFeature };
type OfferPullParts = Parameters<typeof offerPull>[0];

/** What New Action asks for; given as the command's second argument (a keybinding, another extension), it asks nothing. */
export interface NewActionArgs {
  readonly key: string;
  readonly name: string;
  readonly developerEmail: string;
}

export async function newAction(s: Pick<Parts, 'context' | 'project'> & CreateParts, node?: unknown, args?: unknown): Promise<void> {
  const app = await pickApplication(s, node, 'New action in which application');
  if (!app) return;
  const given = readNewActionArgs(args);
  if (given) {
    const metadata = newActionMetadata(given.key, given.name, given.developerEmail);
    const checked = validateMetadata(metadata);
    if (!checked.ok) throw new Error(`New Action: ${checked.problems.map(formatProblem).join('; ')}`);
    const folder = vscode.Uri.joinPath(app.folderUri, given.key);
    if (await exists(folder)) throw new Error(`New Action: the folder ${given.key} exists already.`);
    await writeActionFolder(folder, metadata, undefined);
    await s.deploy.createOnServer(app, folder, metadata);
    return;
  }
  const key = await vscode.window.showInputBox({
    title: `New Action in ${app.label} (1/3)`,
    prompt: 'Key: an identifier-like short name, unique in the application',
    placeHolder: 'send-invoice',
    ignoreFocusOut: true,
    validateInput: async (v) => {
      if (!limits.keyPattern.test(v) || v.length > limits.keyMaxLength) return 'Start with a letter; letters, digits, _ and - only (at most 64)';
      return (await exists(vscode.Uri.joinPath(app.folderUri, v))) ? `A folder ${v} exists already` : undefined;
    },
  });
  if (!key) return;
  const name = await vscode.window.showInputBox({
    title: `New Action in ${app.label} (2/3)`,
    prompt: 'Display name',
    value: humanize(key),
    ignoreFocusOut: true,
  });
  if (!name) return;
  const developerEmail = await vscode.window.showInputBox({
    title: `New Action in ${app.label} (3/3)`,
    prompt: "The developer's contact address",
    value: s.context.globalState.get<string>(LAST_EMAIL, ''),
    ignoreFocusOut: true,
    validateInput: (v) => (validateMetadata({ ...newActionMetadata(key, name, v) }).ok ? undefined : 'An e-mail address'),
  });
  if (!developerEmail) return;
  await s.context.globalState.update(LAST_EMAIL, developerEmail);
  const metadata = newActionMetadata(key, name, developerEmail);
  const folder = vscode.Uri.joinPath(app.folderUri, key);
  await writeActionFolder(folder, metadata, undefined);
  await showFile(vscode.Uri.joinPath(folder, MAIN_FILE));
  await s.deploy.createOnServer(app, folder, metadata);
}

export async function createOnServerCommand(s: Pick<Parts, 'model' | 'project'> & CreateParts, node?: unknown): Promise<void> {
  const action = await pickAction(s, node, (a) => a.state === 'local');
  if (!action?.local) return;
  const local = await readLocalAction(action.local.folder);
  if (!local?.metadata) {
    void vscode.window
      .showErrorMessage(`${ACTION_FILE} of ${serverText(action.key, 120)} has problems; fix them before creating the action.`, 'Open')
      .then((o) => {
        if (o && action.local) void showFile(action.local.file);
      });
    return;
  }
  await s.deploy.createOnServer(action.app, action.local.folder, local.metadata);
}

export async function openCode(s: Pick<Parts, 'model' | 'project'> & OfferPullParts, node?: unknown): Promise<void> {
  const action = await pickAction(s, node, (a) => a.local !== undefined);
  if (!action?.local) return offerPull(s, action);
  await showFile(vscode.Uri.joinPath(action.local.folder, MAIN_FILE), { preview: false });
}

export async function editMetadata(s: Pick<Parts, 'model' | 'project'> & OfferPullParts, node?: unknown): Promise<void> {
  const action = await pickAction(s, node, (a) => a.local !== undefined);
  if (!action?.local) return offerPull(s, action);
  await vscode.commands.executeCommand('vscode.openWith', action.local.file, 'customActions.metadataEditor');
}

const REMOVE_FOLDER_TOO = 'Delete and Remove Local Folder';

/**
 * Always asks, in a modal naming the key and the application; `{ confirmed: true, removeLocalFolder }`
 * as the second argument skips the question for callers that asked already.
 */
export async function deleteAction(
  s: Pick<Parts, 'connections' | 'context' | 'log' | 'model' | 'project'> & { readonly deploy: DeployFeature } & { readonly events: Events },
  node?: unknown,
  args?: unknown,
): Promise<void> {
  const action = await pickAction(s, node, (a) => a.remote !== undefined);
  if (!action?.remote) return;
  const app = action.app;
  const buttons = action.local ? ['Delete', REMOVE_FOLDER_TOO] : ['Delete'];
  const preset = args as { confirmed?: unknown; removeLocalFolder?: unknown } | undefined;
  const choice =
    preset?.confirmed === true
      ? preset.removeLocalFolder === true
        ? REMOVE_FOLDER_TOO
        : 'Delete'
      : await vscode.window.showWarningMessage(
          `Delete the action "${serverText(action.key, 120)}" from ${app.label} on the server? Its events go with it.`,
          { modal: true, detail: action.local ? 'The local folder is kept unless you choose to remove it too.' : undefined },
          ...buttons,
        );
  if (!choice) return;
  // Through a linked folder the removal would delete elsewhere: refused before anything is deleted, here or on the server.
  if (choice === REMOVE_FOLDER_TOO && action.local) await assertInsideWorkspace(action.local.folder, 'deleted');
  const remote = action.remote;
  const watched = await s.events.stopForDelete(app, Object.values(remote.eventsUrls));
  try {
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Deleting ${serverText(action.key, 120)}…`, cancellable: true },
        (_p, token) => s.connections.call(app, (client) => client.deleteAction(remote.id, { signal: abortOn(token) })),
      );
    } catch (error) {
      s.events.resume(watched);
      throw error;
    }
    if (choice === REMOVE_FOLDER_TOO && action.local) {
      // A regeneration of its types scheduled a moment ago would write into the folder again.
      const hold = await s.deploy.holdWrites(action.local.folder);
      let removal;
      let reopen: (() => Promise<void>) | undefined;
      try {
        // Closed before the files go, so no problem of theirs outlives them (removeFolder.ts).
        reopen = await closeEditorsIn(action.local.folder);
        removal = await removeActionFolder(action.local.folder, action.key, s.log);
      } finally {
        hold.dispose();
      }
      if (removal === 'kept') {
        await reopen();
        void vscode.window.showInformationMessage(`${serverText(action.key, 120)} was deleted on the server; its folder stays in the workspace.`);
      } else {
        // Any editor opened on them meanwhile (while the user answered the question of the trash).
        await closeEditorsIn(action.local.folder);
        // A checker's late answer for its files is dropped whenever it comes (staleProblems.ts).
        staleProblemsOf(s, DIAGNOSTIC_SOURCE).folderRemoved(action.local.folder);
      }
    }
  } finally {
    // Whatever became of the server's action and the folder, the row shows it: gone, or only in the workspace.
    s.model.deleted(app);
  }
}

export async function copyActionId(s: Pick<Parts, 'model' | 'project'>, node?: unknown): Promise<void> {
  const action = await pickAction(s, node, (a) => a.remote !== undefined);
  if (!action?.remote) return;
  await vscode.env.clipboard.writeText(action.remote.id);
  vscode.window.setStatusBarMessage(`Copied the id of ${serverText(action.key, 120)}`, 3000);
}

export async function copyEventsUrl(s: Pick<Parts, 'model' | 'project'>, node?: unknown): Promise<void> {
  if (isNode(node) && node.kind === 'environment') {
    await vscode.env.clipboard.writeText(node.eventsUrl);
    return;
  }
  const action = await pickAction(s, node, (a) => a.remote !== undefined);
  if (!action?.remote) return;
  const urls = action.remote.eventsUrls;
  const picked = await vscode.window.showQuickPick(
    Object.entries(urls).map(([environment, url]) => ({ label: environment, description: serverText(url, 300), url })),
    { placeHolder: 'Events URL of which environment' },
  );
  if (picked) await vscode.env.clipboard.writeText(picked.url);
}

export async function openEvent(s: Pick<Parts, 'eventDocuments'>, node?: unknown): Promise<void> {
  if (!isNode(node) || node.kind !== 'event') return;
  const env = node.parent;
  await s.eventDocuments.open([env.parent.app.uid, env.parent.key, env.environment, node.event.id], node.event.raw);
}

/** Writes action.yaml and the generated types; main.ts is replaced only by code that came from the server. */
async function writeActionFolder(folder: vscode.Uri, metadata: ActionMetadata, code: string | undefined): Promise<void> {
  const write = async (name: string, text: string, always: boolean) => {
    const uri = vscode.Uri.joinPath(folder, name);
    if (always || !(await exists(uri))) await writeInsideWorkspace(uri, text);
  };
  await createFolderInsideWorkspace(folder);
  await write(ACTION_FILE, serializeActionYaml(metadata), true);
  await write(GENERATED_FILE, generateTypes(metadata), true);
  await write(MAIN_FILE, code ?? newActionTemplate(metadata), code !== undefined);
}

function readNewActionArgs(args: unknown): NewActionArgs | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const a = args as Record<string, unknown>;
  return typeof a.key === 'string' && typeof a.name === 'string' && typeof a.developerEmail === 'string'
    ? { key: a.key, name: a.name, developerEmail: a.developerEmail }
    : undefined;
}

function humanize(key: string): string {
  const words = key
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
