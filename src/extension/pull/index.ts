import * as vscode from 'vscode';
import { type BaseVersion, type DeployBase } from '../../core/deploy/base';
import { planPull } from '../../core/deploy/pull';
import { serverText } from '../../core/text';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE } from '../../core/workspace';
import { abortOn } from '../cancellation';
import { pickAction } from '../commands/commands';
import { assertInsideWorkspace, createFolderInsideWorkspace, readText, showFile, writeInsideWorkspace } from '../files';
import { type Parts } from '../parts';
import { type ActionEntry, folderNameOf } from '../model';
import { type Application } from '../project';
import { confirmReplace, type PlannedFile, readLocalFiles, unchangedSince } from './localFiles';
import { pullTarget } from './target';

/** What a pull asks and tells deploy (its door, `DeployFeature`, is one): the base a local copy was derived from, and the bases of what it brought. */
export interface PullDeploy {
  baseOf(app: Application, id: string): Promise<DeployBase | undefined>;
  recordBases(
    app: Application,
    action: { readonly id: string; readonly key: string; readonly folder?: string },
    bases: { readonly metadata: BaseVersion; readonly implementation?: BaseVersion },
  ): void;
}

/** What a pull uses: the picker, the server, the diff of a local change, and deploy for the bases it brought. */
type PullParts = Pick<Parts, 'connections' | 'model' | 'project' | 'serverVersions'> & { readonly deploy: PullDeploy };

/**
 * Pull: the server's metadata and code of an action into its folder. Everything the server says is
 * checked before it names a path (docs/workspace.md, "Pull"): the key must be a valid key, the folder
 * a direct child of the application's folder; local files that differ are replaced only when the
 * user says so, and files with unsaved changes in an editor never.
 */
export async function pullAction(s: PullParts, node?: unknown): Promise<void> {
  const action = await pickAction(s, node, (a) => a.remote !== undefined && a.state !== 'invalid');
  if (!action?.remote) return;
  const remote = action.remote;
  const app = action.app;
  const target = pullTarget(action);
  if (!target.ok) {
    void vscode.window.showErrorMessage(
      `The action "${serverText(remote.key, 120)}" cannot be pulled: ${serverText(target.reason, 600)}. Nothing was written.`,
    );
    return;
  }
  const capabilities = await s.connections.call(app, (client) => client.capabilities());
  if (!capabilities.getAction) {
    void vscode.window.showWarningMessage(
      `The server lists ${serverText(remote.key, 120)} without its parameters or result and offers no way to read them, so it cannot be pulled in full. Ask its developer for the action's folder.`,
    );
    return;
  }
  const folder = target.folder;
  const at = (name: string) => vscode.Uri.joinPath(folder, name);
  const fetched = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Pulling ${serverText(remote.key, 120)}…`, cancellable: true },
    async (_p, token) => {
      const signal = abortOn(token);
      const { action: resource, etag } = await s.connections.call(app, (client) => client.getActionVersioned(remote.id, { signal }));
      const implementation = capabilities.getImplementation
        ? await s.connections.call(app, (client) => client.getImplementationVersioned(remote.id, { signal }))
        : undefined;
      if (token.isCancellationRequested) return undefined;
      return { resource, etag, implementation };
    },
  );
  // Cancelled: nothing was written, so a pull is all or nothing.
  if (!fetched) return;
  const onDisk: Record<string, string | undefined> = {};
  for (const name of [ACTION_FILE, MAIN_FILE, GENERATED_FILE]) onDisk[name] = await readText(at(name)).catch(() => undefined);
  const plan = planPull({ listedKey: remote.key, ...fetched, onDisk, base: await s.deploy.baseOf(app, remote.id) });
  if (plan.kind === 'refused') throw new Error(`${serverText(remote.key, 120)} was not pulled: ${serverText(plan.reason)}. Nothing was written.`);
  const files: PlannedFile[] = plan.files.map((f) => ({ ...f, uri: at(f.name) }));
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
  // The plan's conflict (a local change since the base would be lost) is asked about, as the user is
  // there to answer; the command line, which cannot ask, refuses it without --force.
  const differing = files.filter((f) => f.step === 'replace');
  if (plan.kind === 'conflict') {
    if (!(await confirmReplace(remote.key, differing, s.serverVersions))) return;
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
  s.deploy.recordBases(app, { id: remote.id, key: remote.key, folder: folderNameOf(folder) }, plan.base);
  s.model.pulled(app, remote.id);
  await showFile(vscode.Uri.joinPath(folder, MAIN_FILE));
}

/** For commands that need a local folder and were given an action that is only on the server. */
export async function offerPull(s: PullParts, action: ActionEntry | undefined): Promise<void> {
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
