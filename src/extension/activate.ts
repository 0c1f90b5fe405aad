import * as vscode from 'vscode';
import { closeDefaultTransport } from '../core/client';
import { NO_PROCESSES, PLATFORM } from './platform';
import { registerCommands } from './commands';
import { registerDebug } from './debug';
import { onDemand } from './loadOnDemand';
import type * as OnDemandEntry from './onDemand/index';
import { DeployFeature } from './deploy';
import { affectsConfig, readConfig, type Config } from './config';
import { Connections } from './connections';
import { EventDocuments } from './eventDocuments';
import { EventWatchers, registerEvents } from './events';
import { registerMetadataEditor } from './form';
import { KeyStore } from './keyStore';
import { createLog } from './log';
import { LockStore } from './lockStore';
import { ActionFileEvents, createActionsModel } from './model';
import { ProjectModel } from './project';
import { HeldTexts, PLAN_SCHEME, PULLED_SCHEME, RUN_SCHEME } from './heldTexts';
import { SandboxManager } from './sandboxManager';
import { type Services } from './services';
import { TargetStatusBar } from './statusBar';
import { TestingFeature } from './testing';
import { ActiveTarget } from './targets';
import { onUnexpectedError } from './unexpectedErrors';
import { ActionsTreeProvider } from './tree';
import { WorkspaceTrust } from './trust';

export const VIEW_ID = 'customActions.actions';

/**
 * Builds the services and registers what VS Code must know about. No request and no process start
 * happens here, and one file is read (customactions.yaml, below): everything else waits for the view
 * to be shown or a command to run.
 */
export function activateExtension(context: vscode.ExtensionContext): Services {
  const log = createLog();
  context.subscriptions.push(
    log,
    // A listener or a dispose that throws is caught so the others still run; its error is logged here.
    onUnexpectedError((error, where) => log.error(`Unexpected error in ${where}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)),
  );
  if (!PLATFORM.processes) {
    // VS Code for the Web: the menus and welcome views that start a process are hidden (package.json's `!customActions.web`).
    void vscode.commands.executeCommand('setContext', 'customActions.web', true);
    log.info(NO_PROCESSES);
  }
  let config: Config = readConfig();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsConfig(e)) config = readConfig();
    }),
  );
  const trust = own(context, new WorkspaceTrust(context.extensionMode === vscode.ExtensionMode.Test));
  // Save to deploy is off in an untrusted workspace whatever the setting says (src/core/trust).
  const getConfig = () => (trust.policy(config).deployOnSave === config.deployOnSave ? config : { ...config, deployOnSave: false });
  // The parts, each built from those above it (docs/architecture.md, *Building the extension*, has the picture).
  const keys = own(context, new KeyStore(context.secrets));
  const project = own(context, new ProjectModel(context.workspaceState));
  const sandbox = own(context, new SandboxManager(context.extensionUri, context.globalStorageUri, keys, log));
  const connections = own(context, new Connections(project, keys, sandbox, getConfig, trust));
  const actionFiles = own(context, new ActionFileEvents(project));
  const locks = own(context, new LockStore(project, trust, log));
  const model = createActionsModel(context, project, connections, trust, actionFiles, (app) => locks.entries(app));
  const events = own(context, new EventWatchers(connections, getConfig, context));
  // The History rows list deploy's history, read in the on-demand bundle with the services (below) when a
  // row is expanded, after activate has returned.
  const tree = own(
    context,
    new ActionsTreeProvider(project, model, events, keys, trust, (action) => onDemand<typeof OnDemandEntry>(context).treeHistory(services, action)),
  );
  const treeView = own(context, vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true }));
  const eventDocuments = own(context, new EventDocuments());
  const statusBar = own(context, new TargetStatusBar(project, sandbox));
  const serverVersions = own(context, new HeldTexts(PULLED_SCHEME, '// This version from the server is no longer held: compare again.\n'));
  const runResults = own(context, new HeldTexts(RUN_SCHEME, '// This result is no longer held in memory.\n'));
  const plans = own(context, new HeldTexts(PLAN_SCHEME, '# This plan is no longer held in memory: run the command again to see it.\n'));
  context.subscriptions.push(
    connections.onDidReach((r) => statusBar.setReachability(r.server, r.ok ? 'reachable' : 'unreachable', r.error)),
    tree.onDidChangeViewState((state) => void vscode.commands.executeCommand('setContext', 'customActions.viewState', state)),
    keys.onDidChange(() => model.refresh()),
    // The applications of a local-sandbox workspace are on screen: the sandbox starts while the user reads.
    tree.onDidShowSandboxApplications(() => void project.sandboxApplications().then((shown) => sandbox.warmUp(shown.applications, shown.demo))),
    { dispose: () => void closeDefaultTransport() },
  );
  // Then the features. Local debugging is made on its first use: its code is in the on-demand bundle.
  const debug = once(() => own(context, onDemand<typeof OnDemandEntry>(context).localDebug({ context, trust, config: getConfig, runResults })));
  const deploy = own(
    context,
    new DeployFeature({ actionFiles, locks, config: getConfig, connections, context, events, log, model, project, serverVersions, tree, trust }),
  );
  // The Testing view's runs are made by the first run, in the on-demand bundle, with the services (below).
  const testing = own(
    context,
    new TestingFeature(model, (testTree, diagnostics) => onDemand<typeof OnDemandEntry>(context).testRuns(services, testTree, diagnostics)),
  );
  // The active target where the user looks (the view's title, the Testing view's server profile); a switch ends the old target's watches.
  own(context, new ActiveTarget({ project, log, treeView, events, testing }));
  const services: Services = {
    context,
    log,
    config: getConfig,
    keys,
    project,
    sandbox,
    connections,
    model,
    actionFiles,
    locks,
    tree,
    treeView,
    eventDocuments,
    statusBar,
    events,
    trust,
    serverVersions,
    runResults,
    plans,
    testing,
    deploy,
    get debug() {
      return debug();
    },
  };
  context.subscriptions.push(
    ...registerCommands(services, () => onDemand<typeof OnDemandEntry>(context).COMMANDS),
    ...registerEvents(services),
    ...registerDebug(services),
  );
  context.subscriptions.push(registerMetadataEditor(services));
  // Shows the status bar item for a workspace that has a project file; reading one small file is cheap.
  void project.all();
  return services;
}

/** The value `make` returns, made on the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, disposable: T): T {
  context.subscriptions.push(disposable);
  return disposable;
}
