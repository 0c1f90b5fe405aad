import * as vscode from 'vscode';
import { NO_CODE, codeHash, metadataHash } from '../../core/deploy/base';
import { type ActionMetadata, formatProblem, validateMetadata } from '../../core/schema';
import { serverText } from '../../core/text';
import { generateTypes } from '../../core/typegen';
import { ACTION_FILE, checkServerKey, GENERATED_FILE, MAIN_FILE, newActionTemplate, serializeActionYaml, updateActionYaml } from '../../core/workspace';
import { abortOn } from '../cancellation';
import { pickAction } from '../commands/pick';
import { assertInsideWorkspace, createFolderInsideWorkspace, readText, writeInsideWorkspace } from '../files';
import { type Services } from '../services';
import { type ActionEntry } from '../model';
import { confirmReplace, type PlannedFile, readLocalFiles, unchangedSince } from './localFiles';
import { pullTarget } from './target';

/**
 * Pull: the server's metadata and code of an action into its folder. Everything the server says is
 * checked before it names a path (docs/workspace.md, "Pull"): the key must be a valid key, the folder
 * a direct child of the application's folder; local files that differ are replaced only when the
 * user says so, and files with unsaved changes in an editor never.
 */
export async function pullAction(s: Services, node?: unknown): Promise<void> {
  const action = await pickAction(s, node, (a) => a.remote !== undefined && a.state !== 'invalid');
  if (!action?.remote) return;
  const remote = action.remote;
  const app = action.app;
  const target = pullTarget(action);
  if (!target.ok) {
    void vscode.window.showErrorMessage(`The action "${serverText(remote.key, 120)}" cannot be pulled: ${target.reason}. Nothing was written.`);
    return;
  }
  const capabilities = await s.connections.call(app, (client) => client.capabilities());
  if (!capabilities.getAction) {
    void vscode.window.showWarningMessage(
      `The server lists ${serverText(remote.key, 120)} without its parameters or result and offers no way to read them, so it cannot be pulled in full. Ask its developer for the action's folder.`,
    );
    return;
  }
  const fetched = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Pulling ${serverText(remote.key, 120)}…`, cancellable: true },
    async (_p, token) => {
      const signal = abortOn(token);
      const { action: resource, etag } = await s.connections.call(app, (client) => client.getActionVersioned(remote.id, { signal }));
      const implementation = capabilities.getImplementation
        ? await s.connections.call(app, (client) => client.getImplementationVersioned(remote.id, { signal }))
        : undefined;
      const code = implementation?.code;
      return token.isCancellationRequested
        ? undefined
        : {
            metadata: serverMetadata(resource, remote.key),
            code,
            metadataBase: { etag, hash: metadataHash(resource) },
            // Read and found missing, as opposed to never read from a server that cannot return code.
            codeBase: implementation === undefined ? undefined : code === undefined ? NO_CODE : { etag: implementation.etag, hash: codeHash(code) },
          };
    },
  );
  // Cancelled: nothing was written, so a pull is all or nothing.
  if (!fetched) return;
  const folder = target.folder;
  const files = await plannedFiles(folder, fetched.metadata, fetched.code);
  const local = await readLocalFiles(folder, files);
  if (local.links.length > 0)
    throw new Error(`${serverText(remote.key, 120)} was not pulled: ${local.links.join(', ')}, and a write would follow it elsewhere.`);
  // The application's folder, or any folder above the action, may be a link: refused before anything is asked or written.
  for (const file of files) await assertInsideWorkspace(file.uri);
  if (local.unsaved.length > 0) {
    const names = local.unsaved.map((f) => f.name).join(', ');
    const show = await vscode.window.showWarningMessage(
      `${serverText(remote.key, 120)} was not pulled: ${names} has unsaved changes in an editor. Save or revert them, then pull again; nothing was written.`,
      'Show',
    );
    if (show && local.unsaved[0]) await vscode.window.showTextDocument(local.unsaved[0].uri);
    return;
  }
  if (local.differing.length > 0) {
    if (!(await confirmReplace(remote.key, local, s.serverVersions))) return;
    if (!(await unchangedSince(local, folder, files))) {
      void vscode.window.showWarningMessage(
        `The local files of ${serverText(remote.key, 120)} changed while you decided; nothing was written. Pull again to see the difference.`,
      );
      return;
    }
  }
  await createFolderInsideWorkspace(folder);
  for (const file of files) {
    if (local.onDisk.get(file.uri.toString()) !== file.text) await writeInsideWorkspace(file.uri, file.text);
  }
  // The folder holds the server's versions now: the next pushes are checked against them.
  s.deploy.recordBases(app, remote, { metadata: fetched.metadataBase, ...(fetched.codeBase ? { implementation: fetched.codeBase } : {}) });
  s.model.pulled(app, folder, remote.id);
  await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, MAIN_FILE));
}

/** For commands that need a local folder and were given an action that is only on the server. */
export async function offerPull(s: Services, action: ActionEntry | undefined): Promise<void> {
  if (!action) return;
  if (action.state === 'invalid') {
    void vscode.window.showErrorMessage(
      `The server lists an action whose key cannot name a folder ("${serverText(action.key, 120)}"), so it cannot be pulled into the workspace.`,
    );
    return;
  }
  const pull = await vscode.window.showInformationMessage(
    `${serverText(action.key, 120)} is only on the server. Pull it into the workspace first.`,
    'Pull Action',
  );
  if (pull) await pullAction(s, action);
}

/**
 * What the folder will hold: action.yaml with the server's value (written into the local file when
 * there is one, so its comments and layout stay where values agree), the generated types, and
 * main.ts with the server's code, or the template when the server has none and no main.ts exists.
 */
async function plannedFiles(folder: vscode.Uri, metadata: ActionMetadata, code: string | undefined): Promise<PlannedFile[]> {
  const at = (name: string) => vscode.Uri.joinPath(folder, name);
  const localYaml = await readText(at(ACTION_FILE)).catch(() => undefined);
  const localMain = await readText(at(MAIN_FILE)).catch(() => undefined);
  return [
    {
      name: ACTION_FILE,
      uri: at(ACTION_FILE),
      text: localYaml === undefined ? serializeActionYaml(metadata) : updateActionYaml(localYaml, metadata),
      generated: false,
    },
    { name: GENERATED_FILE, uri: at(GENERATED_FILE), text: generateTypes(metadata), generated: true },
    { name: MAIN_FILE, uri: at(MAIN_FILE), text: code ?? localMain ?? newActionTemplate(metadata), generated: false },
  ];
}

/** The server's resource as metadata: valid, and about the action the list named. */
function serverMetadata(resource: object, listedKey: string): ActionMetadata {
  const { id: _id, eventsUrls: _urls, hasImplementation: _has, updatedAt: _at, ...rest } = resource as Record<string, unknown>;
  const checked = validateMetadata(rest);
  if (!checked.ok) throw new Error(`The server's metadata is not valid here: ${serverText(checked.problems.map(formatProblem).join('; '))}`);
  if (checked.value.key !== listedKey || !checkServerKey(checked.value.key).ok) {
    throw new Error(
      `The server lists the action as "${serverText(listedKey, 120)}" but its metadata names the key "${serverText(checked.value.key, 120)}"; nothing was pulled.`,
    );
  }
  return checked.value;
}
