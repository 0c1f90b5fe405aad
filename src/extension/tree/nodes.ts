import type * as vscode from 'vscode';
import { type NormalizedEvent, type VersionedResource } from '../../core/client';
import { type Environment } from '../../core/schema';
import { type ActionEntry } from '../model';
import { type Application, type FoundProject } from '../project';

/** One version of an action's code or metadata: pushed from here (local) or kept by the server. */
export interface HistoryItem extends vscode.QuickPickItem {
  readonly source: 'local' | 'server';
  readonly part: VersionedResource;
  /** ISO 8601, when known. */
  readonly time: string | undefined;
  /** For the tree's row: the file (main.ts or action.yaml), then when and where from, which a narrow view may cut. */
  readonly row: { readonly label: string; readonly description: string };
  /** The version as pushed: code, or metadata as JSON. */
  content(): Promise<string>;
}

/** A project of a workspace of several (a folder holding customactions.yaml); with one project the applications are the roots. */
export interface ProjectNode {
  readonly kind: 'project';
  readonly project: FoundProject;
}

export interface ApplicationNode {
  readonly kind: 'application';
  readonly app: Application;
  /** Its project's row, when the workspace has several projects. */
  readonly parent?: ProjectNode;
}

/** A model entry as a row: menus hand it to commands, which read it as the entry it is. */
export interface ActionNode extends ActionEntry {
  readonly kind: 'action';
  readonly parent: ApplicationNode;
}

export interface EnvironmentNode {
  readonly kind: 'environment';
  readonly parent: ActionNode;
  readonly environment: Environment;
  readonly eventsUrl: string;
}

export interface EventNode {
  readonly kind: 'event';
  readonly parent: EnvironmentNode;
  readonly event: NormalizedEvent;
}

/** The deploy history of an action in the workspace and on the server: versions, newest first. */
export interface HistoryNode {
  readonly kind: 'history';
  readonly parent: ActionNode;
}

/** One version in that history: opening it compares it with the file, then offers Redeploy or Restore. */
export interface VersionNode {
  readonly kind: 'version';
  readonly parent: HistoryNode;
  readonly item: HistoryItem;
  /** Its place in the list, for a stable row id. */
  readonly index: number;
}

export interface MessageNode {
  readonly kind: 'message';
  readonly parent: TreeNode | undefined;
  readonly id: string;
  readonly text: string;
  readonly tooltip?: string;
  readonly icon: 'error' | 'info' | 'key' | 'warning';
  readonly command?: vscode.Command;
}

export type TreeNode = ProjectNode | ApplicationNode | ActionNode | EnvironmentNode | EventNode | HistoryNode | VersionNode | MessageNode;

export function actionNode(parent: ApplicationNode, entry: ActionEntry): ActionNode {
  return { kind: 'action', parent, ...entry };
}

/** Whether a command's argument is a row of the tree (VS Code passes the row a command was run on). */
export function isNode(value: unknown): value is TreeNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
