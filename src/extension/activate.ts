import * as vscode from 'vscode';
import { closeAllPools } from '../core/client';
import { registerCommands } from './commands';
import { DEPLOY_COMMANDS } from './deploy/commands';
import { DEBUG_COMMANDS, LocalDebug, registerDebug } from './debug';
import { DeployFeature } from './deploy';
import { affectsConfig, readConfig, type Config } from './config';
import { Connections } from './connections';
import { EventDocuments } from './eventDocuments';
import { EVENT_COMMANDS, EventWatchers, registerEvents } from './events';
import { registerMetadataEditor } from './form';
import { KeyStore } from './keyStore';
import { createLog } from './log';
import { createActionsModel } from './model';
import { ProjectModel } from './project';
import { ServerVersions } from './pull/serverVersions';
import { treeHistory } from './deploy/historyView';
import { SandboxManager } from './sandboxManager';
import { type Services } from './services';
import { TargetStatusBar } from './statusBar';
import { TESTING_COMMANDS, TestingFeature } from './testing';
import { ActionsTreeProvider } from './tree/provider';
import { WorkspaceTrust } from './trust';

export const VIEW_ID = 'customActions.actions';

/**
 * Builds the services and registers what VS Code must know about. No request and no process start
 * happens here, and one file is read (customactions.yaml, below): everything else waits for the view
 * to be shown or a command to run.
 */
export function activateExtension(context: vscode.ExtensionContext): Services {
  const log = createLog();
  context.subscriptions.push(log);
  let config: Config = readConfig();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsConfig(e)) config = readConfig();
    }),
  );
  const trust = own(context, new WorkspaceTrust(context.extensionMode === vscode.ExtensionMode.Test));
  // Save to deploy is off in an untrusted workspace whatever the setting says (src/core/trust).
  const getConfig = () => (trust.policy(config).deployOnSave === config.deployOnSave ? config : { ...config, deployOnSave: false });
  const keys = own(context, new KeyStore(context.secrets));
  const project = own(context, new ProjectModel());
  const sandbox = own(context, new SandboxManager(context.extensionUri, context.globalStorageUri, keys, log));
  const connections = own(context, new Connections(project, keys, sandbox, getConfig, trust));
  const model = createActionsModel(context, project, connections, trust);
  const events = own(context, new EventWatchers(connections, getConfig, (app, eventsUrl) => model.eventsChanged(app, eventsUrl)));
  const tree = own(context, new ActionsTreeProvider(project, model, events, keys, trust));
  const treeView = own(context, vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  const eventDocuments = own(context, new EventDocuments());
  const statusBar = own(context, new TargetStatusBar(project, sandbox));
  const debug = own(context, new LocalDebug(context.extensionUri, trust, getConfig));
  context.subscriptions.push(
    connections.onDidReach((r) => statusBar.setReachability(r.ok ? 'reachable' : 'unreachable', r.error)),
    tree.onDidChangeViewState((state) => void vscode.commands.executeCommand('setContext', 'customActions.viewState', state)),
    keys.onDidChange(() => model.refresh()),
    // The applications of a local-sandbox workspace are on screen: the sandbox starts while the user reads.
    tree.onDidShowSandboxApplications((shown) => sandbox.warmUp(shown.applications, shown.demo)),
    { dispose: () => void closeAllPools() },
  );
  const built: { deploy?: DeployFeature; testing?: TestingFeature } = {};
  const services: Services = {
    context,
    log,
    config: getConfig,
    keys,
    project,
    sandbox,
    connections,
    model,
    tree,
    treeView,
    eventDocuments,
    statusBar,
    events,
    trust,
    debug,
    serverVersions: own(context, new ServerVersions()),
    // Deploy is built with the services it is one of; nothing reads it before activate returns.
    get deploy() {
      if (!built.deploy) throw new Error('Deploy is not ready yet.');
      return built.deploy;
    },
    get testing() {
      if (!built.testing) throw new Error('Testing is not ready yet.');
      return built.testing;
    },
  };
  built.deploy = own(context, new DeployFeature(services));
  tree.showHistoryFrom(treeHistory(services));
  built.testing = own(context, new TestingFeature(services));
  context.subscriptions.push(
    ...registerCommands(services, { ...EVENT_COMMANDS, ...DEBUG_COMMANDS, ...DEPLOY_COMMANDS, ...TESTING_COMMANDS }),
    ...registerEvents(services),
    ...registerDebug(services),
  );
  context.subscriptions.push(registerMetadataEditor(services));
  // Shows the status bar item for a workspace that has a project file; reading one small file is cheap.
  void project.get();
  return services;
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
