import type * as vscode from 'vscode';
import { type Config } from './config';
import { type Connections } from './connections';
import { type EventDocuments } from './eventDocuments';
import { type HeldTexts } from './heldTexts';
import { type LockStore } from './lockStore';
import { type KeyStore } from './keyStore';
import { type ActionFileEvents, type ActionsModel } from './model';
import { type ProjectModel } from './project';
import { type SandboxManager } from './sandboxManager';
import { type TargetStatusBar } from './statusBar';
import { type WorkspaceTrust } from './trust';

/**
 * The parts activation builds before the features, none of which knows a feature. A feature takes
 * the members it uses (`Pick<Parts, …>`) and declares what it needs of another feature as its own
 * small type; only activation and the command table know the whole (`Services`, services.ts), so no
 * import, not even of a type, leads from a feature back to itself.
 */
export interface Parts {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  config(): Config;
  readonly keys: KeyStore;
  readonly project: ProjectModel;
  readonly sandbox: SandboxManager;
  readonly connections: Connections;
  /** Every application's actions: where an action is found, told of every change. */
  readonly model: ActionsModel;
  /** action.yaml files created, changed or deleted on disk, new action folders included (model/actionFiles.ts). */
  readonly actionFiles: ActionFileEvents;
  /** customactions.lock.json of each project: the base of every push, and the folder each action was deployed or pulled from. */
  readonly locks: LockStore;
  readonly eventDocuments: EventDocuments;
  readonly statusBar: TargetStatusBar;
  /** Whether the workspace is trusted; nothing contacts a server, runs or deploys until it is. */
  readonly trust: WorkspaceTrust;
  /** The server's texts shown beside local files in diff editors (Pull's Compare, conflicts, history). */
  readonly serverVersions: HeldTexts;
  /** A local run's outcome and the recorded one, for Open Result and Compare with Recorded (debug/outcome.ts). */
  readonly runResults: HeldTexts;
  /** Plans shown read-only before they are carried out (Promote's), so a closed tab asks nothing. */
  readonly plans: HeldTexts;
}
