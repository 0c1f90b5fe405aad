import * as vscode from 'vscode';
import { folderNameOf } from '../model';
import { type BaseVersion, createdBase } from '../../core/deploy/base';
import { type ActionMetadata } from '../../core/schema';
import { MAIN_FILE } from '../../core/workspace';
import { abortOn } from '../cancellation';
import { errorMessage } from '../connections';
import { exists } from '../files';
import { type Application } from '../project';
import { type Parts } from '../parts';
import { type PushResult } from './deployer';

/** What creating an action needs of deploy: its bases recorded, then its code pushed by hand. */
export interface CreateDeploy {
  recordBases(
    app: Application,
    action: { readonly id: string; readonly key: string; readonly folder?: string },
    bases: { readonly metadata: BaseVersion; readonly implementation?: BaseVersion },
  ): void;
  pushByHand(file: vscode.Uri): Promise<PushResult | undefined>;
}

/**
 * POSTs an action folder's metadata, then pushes its main.ts: the server holds no code for a new
 * action, and a run of it fails until it does. The server's id and the folder are recorded in the lock, with its base.
 */
export async function createOnServer(
  s: Pick<Parts, 'connections' | 'model'>,
  deploy: CreateDeploy,
  app: Application,
  folder: vscode.Uri,
  metadata: ActionMetadata,
): Promise<string | undefined> {
  let id: string;
  try {
    const created = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Creating ${metadata.key} on the server…`, cancellable: true },
      (_progress, token) => s.connections.call(app, (client) => client.createAction(app.id, metadata, { signal: abortOn(token) })),
    );
    id = created.id;
    // A new action has no code: its first push asks the server that it still has none.
    deploy.recordBases(app, { id, key: metadata.key, folder: folderNameOf(folder) }, createdBase(created.etag, metadata));
  } catch (error) {
    s.model.createFailed(app);
    // The folder is kept either way; the offer to retry does not hold up the command.
    void vscode.window
      .showErrorMessage(`${metadata.key} is saved in the workspace but was not created on the server: ${errorMessage(error)}`, 'Retry')
      .then((retry) => retry && createOnServer(s, deploy, app, folder, metadata));
    return undefined;
  }
  s.model.created(app);
  const pushed = await pushMain(deploy, folder);
  void vscode.window.showInformationMessage(`Created ${metadata.key} in ${app.label}${pushed ? ' with the code of its main.ts' : ''}.`);
  return id;
}

/**
 * Pushes main.ts through save to deploy (its checks, its one request per action), which tells the
 * user itself when the code was not pushed. Whether the server now holds it.
 */
async function pushMain(deploy: CreateDeploy, folder: vscode.Uri): Promise<boolean> {
  const main = vscode.Uri.joinPath(folder, MAIN_FILE);
  if (!(await exists(main))) return false;
  const result = await deploy.pushByHand(main);
  return result?.kind === 'pushed' || result?.kind === 'unchanged';
}
