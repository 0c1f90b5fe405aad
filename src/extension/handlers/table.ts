import { pullAction } from '../pull';
import { type Services } from '../services';
import { DEBUG_COMMANDS } from '../debug/commands';
import { DEPLOY_COMMANDS } from '../deploy/commands';
import { EVENT_COMMANDS } from '../events/commands';
import { TESTING_COMMANDS } from '../testing/commands';
import { TARGET_COMMANDS } from '../targets/commands';
import { isNode } from '../commands/commands';
import * as actions from './actions';
import * as connection from './connection';

export type Handler = (s: Services, ...args: unknown[]) => unknown;

/** The commands of the view and its rows; the features' own follow in COMMANDS. */
const VIEW_COMMANDS = {
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

/**
 * Every command of the extension, by id: what runs when one is invoked. It is in the on-demand bundle,
 * loaded on the first command; activation registers the ids of package.json's contributes.commands,
 * and scripts/check-commands.mjs checks the two lists against each other.
 */
export const COMMANDS: Readonly<Record<string, Handler>> = {
  ...VIEW_COMMANDS,
  ...EVENT_COMMANDS,
  ...DEBUG_COMMANDS,
  ...DEPLOY_COMMANDS,
  ...TESTING_COMMANDS,
  ...TARGET_COMMANDS,
  // Each feature's table takes what its handlers use; here, the one place that knows the whole, each is checked against it.
} satisfies Record<string, (s: Services, ...args: never[]) => unknown> as Record<string, Handler>;
