import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { type Application } from '../project';
import { type Parts } from '../parts';
import { type ActionEntry } from '../model';
import { type TreeNode } from '../tree/nodes';

/** The application a command acts on: the node it was invoked on, else the only one, else the user's pick. */
export async function pickApplication(s: Pick<Parts, 'project'>, node: unknown, placeHolder = 'Application'): Promise<Application | undefined> {
  const fromNode = applicationOf(node);
  if (fromNode) return fromNode;
  const state = await s.project.require();
  if (state.applications.length === 0) {
    void vscode.window.showInformationMessage('customactions.yaml lists no applications yet: add one first.', 'Add Application').then((c) => {
      if (c) void vscode.commands.executeCommand('customActions.addApplication');
    });
    return undefined;
  }
  if (state.applications.length === 1) return state.applications[0];
  const picked = await vscode.window.showQuickPick(
    state.applications.map((app) => ({ label: app.label, description: serverText(app.id, 120), app })),
    { placeHolder },
  );
  return picked?.app;
}

/** The action a command acts on: the tree node, or the action folder of the given file or the active editor, or a pick. */
export async function pickAction(
  s: Pick<Parts, 'model' | 'project'>,
  node: unknown,
  filter: (a: ActionEntry) => boolean = () => true,
): Promise<ActionEntry | undefined> {
  if (isNode(node) && node.kind === 'action') return node;
  if (isNode(node) && node.kind === 'history') return node.parent;
  const editorUri = node instanceof vscode.Uri ? node : vscode.window.activeTextEditor?.document.uri;
  const found = editorUri ? await s.model.actionAt(editorUri) : undefined;
  if (found && filter(found)) return found;
  const chosenApp = await pickApplication(s, undefined);
  if (!chosenApp) return undefined;
  const actions = (await s.model.actions(chosenApp)).filter(filter);
  if (actions.length === 0) {
    void vscode.window.showInformationMessage(`No action of ${chosenApp.label} fits this command.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    actions.map((a) => ({ label: serverText(a.local?.name ?? a.remote?.name ?? a.key, 120), description: serverText(a.key, 120), action: a })),
    { placeHolder: 'Action' },
  );
  return picked?.action;
}

function applicationOf(node: unknown): Application | undefined {
  if (!isNode(node)) return undefined;
  switch (node.kind) {
    case 'application':
      return node.app;
    case 'action':
      return node.parent.app;
    case 'environment':
      return node.parent.parent.app;
    case 'event':
      return node.parent.parent.parent.app;
    case 'history':
      return node.parent.parent.app;
    case 'version':
      return node.parent.parent.parent.app;
    default:
      return undefined;
  }
}

export function isNode(value: unknown): value is TreeNode {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
