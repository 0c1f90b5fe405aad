import type * as vscode from 'vscode';
import { type DeployFeature } from './deploy';
import { type LocalDebug } from './debug';
import { type Events } from './events';
import { type Parts } from './parts';
import { type Testing } from './testing';
import { type ActionsTreeProvider, type TreeNode } from './tree';

/**
 * Every part and feature, built once in activate in the order they depend on each other. Activation
 * and the command table know it whole; a feature takes the parts it uses (`Pick<Parts, …>`, parts.ts)
 * and names what it uses of another feature by that feature's door type, never this one, so no
 * import leads from a feature back to itself.
 */
export interface Services extends Parts {
  /** A view of the model; nothing reads data from it. */
  readonly tree: ActionsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** Watched environments and the events channel; `poke(actionId)` after a push or a run. */
  readonly events: Events;
  /** Save to deploy and Push Implementation. */
  readonly deploy: DeployFeature;
  /** Local runs of main under VS Code's JavaScript debugger (debug/). */
  readonly debug: LocalDebug;
  /** Input sets as tests in the Testing view (testing/). */
  readonly testing: Testing;
}
