import * as vscode from 'vscode';
import { ApiError } from '../../core/client';
import { errorMessage } from '../connections';
import { pullAction } from '../pull';
import { type Services } from '../services';
import { explainUntrusted, UntrustedWorkspaceError } from '../trust';
import { isNode } from './pick';
import * as actions from './actions';
import * as connection from './connection';

type Handler = (s: Services, ...args: unknown[]) => unknown;

/**
 * Every command of the extension, by id. scripts/check-commands.mjs checks this table against
 * package.json's contributes.commands both ways. Features add their commands through `extra`.
 */
export const COMMANDS = {
  // Everything, whatever the argument: VS Code hands a view's title-bar actions the focused row.
  'customActions.refresh': (s) => (void s.project.reload(), s.model.refresh()),
  // A row's own Refresh, from its context menu; Retry on an error row is refreshNode.
  'customActions.refreshItem': (s, node) => s.tree.refresh(isNode(node) ? node : undefined),
  'customActions.refreshNode': (s, node) => s.tree.refresh(isNode(node) ? node : undefined),
  'customActions.signIn': connection.signIn,
  'customActions.signOut': connection.signOut,
  'customActions.startSandbox': connection.startSandbox,
  'customActions.stopSandbox': connection.stopSandbox,
  'customActions.initProject': connection.initProject,
  'customActions.addApplication': connection.addApplicationCommand,
  'customActions.removeApplication': connection.removeApplicationCommand,
  'customActions.newAction': actions.newAction,
  'customActions.createOnServer': actions.createOnServerCommand,
  'customActions.openCode': actions.openCode,
  'customActions.editMetadata': actions.editMetadata,
  'customActions.deleteAction': actions.deleteAction,
  'customActions.pullAction': pullAction,
  'customActions.copyActionId': actions.copyActionId,
  'customActions.copyEventsUrl': actions.copyEventsUrl,
  'customActions.openEvent': actions.openEvent,
  'customActions.openProjectFile': connection.openProjectFile,
  'customActions.showLog': (s) => s.log.show(),
  'customActions.pushImplementation': (s, arg) => s.deploy.pushByHand(arg),
} satisfies Record<string, Handler>;

export function registerCommands(s: Services, extra: Record<string, Handler> = {}): vscode.Disposable[] {
  return Object.entries({ ...COMMANDS, ...extra }).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await (handler as Handler)(s, ...args);
      } catch (error) {
        // The user cancelled: nothing to report.
        if (error instanceof ApiError && error.kind === 'cancelled') return undefined;
        // Waiting for trust is not a failure: say so, with the way to trust the folder.
        if (error instanceof UntrustedWorkspaceError) return explainUntrusted(error);
        // Commands report their own failures once, where the user is looking, and keep the details in the log.
        s.log.error(`${id}: ${errorMessage(error)}`);
        void vscode.window.showErrorMessage(errorMessage(error));
        return undefined;
      }
    }),
  );
}
