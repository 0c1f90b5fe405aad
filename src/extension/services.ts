import type * as vscode from 'vscode';
import { type Config } from './config';
import { type Connections } from './connections';
import { type DeployFeature } from './deploy';
import { type LocalDebug } from './debug';
import { type EventDocuments } from './eventDocuments';
import { type Events } from './events';
import { type KeyStore } from './keyStore';
import { type ActionsModel } from './model';
import { type ProjectModel } from './project';
import { type HeldTexts } from './heldTexts';
import { type SandboxManager } from './sandboxManager';
import { type Testing } from './testing';
import { type TargetStatusBar } from './statusBar';
import { type ActionsTreeProvider, type TreeNode } from './tree';
import { type WorkspaceTrust } from './trust';

/**
 * Every part and feature, built once in activate in the order they depend on each other. The command
 * table dispatches with it; every function and constructor takes the members it uses
 * (`Pick<Services, …>`), and a feature's parts stay behind its door (its folder's index.ts).
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  config(): Config;
  readonly keys: KeyStore;
  readonly project: ProjectModel;
  readonly sandbox: SandboxManager;
  readonly connections: Connections;
  /** Every application's actions: where an action is found, told of every change. */
  readonly model: ActionsModel;
  /** A view of the model; nothing reads data from it. */
  readonly tree: ActionsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly eventDocuments: EventDocuments;
  /** Watched environments and the events channel; `poke(actionId)` after a push or a run. */
  readonly events: Events;
  readonly statusBar: TargetStatusBar;
  /** Whether the workspace is trusted; nothing contacts a server, runs or deploys until it is. */
  readonly trust: WorkspaceTrust;
  /** Save to deploy and Push Implementation. */
  readonly deploy: DeployFeature;
  /** Local runs of main under VS Code's JavaScript debugger (debug/). */
  readonly debug: LocalDebug;
  /** The server's texts shown beside local files in diff editors (Pull's Compare, conflicts, history). */
  readonly serverVersions: HeldTexts;
  /** A local run's outcome and the recorded one, for Open Result and Compare with Recorded (debug/outcome.ts). */
  readonly runResults: HeldTexts;
  /** Input sets as tests in the Testing view (testing/). */
  readonly testing: Testing;
}
