import type * as vscode from 'vscode';
import { type Connections } from '../connections';
import { actionFolderNames, readLocalAction, scanLocalActions } from '../localActions';
import { type ProjectModel } from '../project';
import { type WorkspaceTrust } from '../trust';
import { type ActionFileEvents } from './actionFiles';
import { ActionsModel, type ModelSources } from './actionsModel';

export { ActionFileEvents } from './actionFiles';
export { ActionsModel, type ActionsChange, type ActionsRemoved } from './actionsModel';
export { type ActionEntry, type ActionState, type RemoteAction } from './entries';
export { type ActionFile, folderNameOf } from './locate';

const OLD_LINKS = 'customActions.actionLinks';

/**
 * The model over the real sources (the lock's entries from `locked`, read by deploy's LockStore), told of what changes outside it: the project file, workspace
 * trust (what waited for it loads now), and action.yaml files on disk.
 */
export function createActionsModel(
  context: vscode.ExtensionContext,
  project: ProjectModel,
  connections: Connections,
  trust: WorkspaceTrust,
  actionFiles: ActionFileEvents,
  locked: ModelSources['locked'],
): ActionsModel {
  const model = new ActionsModel({
    // Every project's: a file is found in the applications of the project it belongs to (locate.ts).
    applications: async () => (await project.valid()).flatMap((p) => p.applications),
    // Valid or not: a nested project whose file is broken still owns its files, which no other project's application takes.
    projects: () => project.all(),
    listRemote: (app) => connections.call(app, (client) => client.listActions(app.id), { waitForKey: false }),
    scanLocal: scanLocalActions,
    readLocal: readLocalAction,
    folderNames: actionFolderNames,
    locked,
  });
  // Which server id each folder had was kept in workspace state before the lock recorded folders.
  if (context.workspaceState.get(OLD_LINKS) !== undefined) void context.workspaceState.update(OLD_LINKS, undefined);
  const onLocalChange = (uri: vscode.Uri) => void model.localChanged(uri);
  context.subscriptions.push(
    model,
    actionFiles.onDidCreate(onLocalChange),
    actionFiles.onDidChange(onLocalChange),
    actionFiles.onDidDelete(onLocalChange),
    trust.onDidChange(() => model.refresh()),
    project.onDidChange(() => model.refresh()),
  );
  return model;
}
