import type * as vscode from 'vscode';
import { type NormalizedEvent } from '../../core/client';
import { type Environment } from '../../core/schema';
import { type ActionEntry } from '../model';
import { type Application } from '../project';

export interface ApplicationNode {
  readonly kind: 'application';
  readonly app: Application;
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

export interface MessageNode {
  readonly kind: 'message';
  readonly parent: TreeNode | undefined;
  readonly id: string;
  readonly text: string;
  readonly tooltip?: string;
  readonly icon: 'error' | 'info' | 'key' | 'warning';
  readonly command?: vscode.Command;
}

export type TreeNode = ApplicationNode | ActionNode | EnvironmentNode | EventNode | MessageNode;

export function actionNode(parent: ApplicationNode, entry: ActionEntry): ActionNode {
  return { kind: 'action', parent, ...entry };
}
