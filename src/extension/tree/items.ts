import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../core/client';
import { formatDuration, formatWhen } from '../../core/events';
import { serverMarkdown, serverText } from '../../core/text';
import { untrustedMarkdown } from '../markdown';
import { type ActionNode, type ProjectNode, type TreeNode } from './nodes';
import { hostOf } from '../serverHost';

/** Command ids the tree items invoke; contributed in package.json like every other command. */
export const OPEN_EVENT_COMMAND = 'customActions.openEvent';

export function toTreeItem(node: TreeNode): vscode.TreeItem {
  switch (node.kind) {
    case 'project':
      return projectItem(node);
    case 'application': {
      // The label, id and folder come from customactions.yaml: a cloned workspace's text, shown as text.
      const item = new vscode.TreeItem(serverText(node.app.label, 120), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `app/${node.app.uid}`;
      item.description = serverText(node.app.id, 120);
      item.tooltip = untrustedMarkdown(
        `**${serverMarkdown(node.app.label)}**\n\nApplication ${serverMarkdown(node.app.id)}, folder ${serverMarkdown(node.app.folder)}`,
      );
      item.iconPath = new vscode.ThemeIcon('project');
      item.contextValue = 'application';
      item.resourceUri = node.app.folderUri;
      return item;
    }
    case 'action':
      return actionItem(node);
    case 'environment': {
      const item = new vscode.TreeItem(node.environment, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `env/${node.parent.parent.app.uid}/${node.parent.key}/${node.environment}`;
      item.iconPath = new vscode.ThemeIcon(node.environment === 'Live' ? 'globe' : 'beaker');
      item.contextValue = `environment;${node.environment}`;
      item.tooltip = `${node.environment} events of ${serverText(node.parent.key, 120)}`;
      return item;
    }
    case 'event': {
      const { event } = node;
      const item = new vscode.TreeItem(formatStart(event), vscode.TreeItemCollapsibleState.None);
      item.id = `event/${node.parent.parent.parent.app.uid}/${node.parent.parent.key}/${node.parent.environment}/${event.id}`;
      item.description = [serverText(event.name, 80), event.duration === undefined ? '' : formatDuration(event.duration)].filter(Boolean).join(' · ');
      item.iconPath = event.ok
        ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
        : new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
      item.tooltip = serverText(event.error ? `${event.name}: ${event.error.message}` : event.name);
      item.contextValue = `event;${event.ok ? 'success' : 'failure'}`;
      item.command = { command: OPEN_EVENT_COMMAND, title: 'Open Event', arguments: [node] };
      return item;
    }
    case 'history': {
      const item = new vscode.TreeItem('History', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `history/${node.parent.parent.app.uid}/${node.parent.key}`;
      item.iconPath = new vscode.ThemeIcon('history');
      item.tooltip = `Versions of ${serverText(node.parent.key, 120)} pushed from here, and those the server keeps`;
      item.contextValue = 'history';
      return item;
    }
    case 'version': {
      const { item: version } = node;
      // The file first: a narrow view cuts the description (when, from where), never which file it is.
      const item = new vscode.TreeItem(version.row.label, vscode.TreeItemCollapsibleState.None);
      item.id = `version/${node.parent.parent.parent.app.uid}/${node.parent.parent.key}/${node.index}/${version.source}/${version.time ?? ''}`;
      item.description = version.row.description;
      item.tooltip = version.detail;
      item.iconPath = new vscode.ThemeIcon(version.source === 'server' ? 'cloud' : 'history');
      item.contextValue = `version;${version.source}`;
      item.command = { command: 'customActions.openHistoryVersion', title: 'Compare with This Version', arguments: [node] };
      return item;
    }
    case 'message': {
      // Messages carry server text (an error's detail): shown as text.
      const item = new vscode.TreeItem(serverText(node.text), vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.tooltip = serverText(node.tooltip ?? node.text);
      item.iconPath =
        node.icon === 'error'
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))
          : new vscode.ThemeIcon(node.icon === 'key' ? 'key' : node.icon);
      item.command = node.command;
      item.contextValue = 'message';
      return item;
    }
  }
}

/** A project's row: its folder's name, and where it deploys (its target, its server) beside it. */
function projectItem(node: ProjectNode): vscode.TreeItem {
  const { project } = node;
  // The folder's name and the server are the workspace's text: shown as text.
  const item = new vscode.TreeItem(serverText(project.name, 120), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `project/${project.root.toString()}`;
  item.resourceUri = project.root;
  // Menus match its kind, then whether it names targets (Switch Target) and the sandbox (Start Local Sandbox).
  item.contextValue = project.kind === 'ok' ? `project;ok${project.hasTargets ? ';targets' : ''}${project.isSandbox ? ';sandbox' : ''}` : 'project;invalid';
  const path = vscode.workspace.asRelativePath(project.uri);
  if (project.kind === 'invalid') {
    item.description = 'customactions.yaml is not valid';
    item.iconPath = new vscode.ThemeIcon('warning');
    item.tooltip = serverText(`${path}: ${project.message}`);
    return item;
  }
  const server = project.isSandbox ? 'local sandbox' : hostOf(project.baseUrl);
  const target = project.hasTargets ? project.target.target : undefined;
  item.description = serverText(target ? `${target.name}${target.protected ? ' (protected)' : ''} · ${server}` : server, 120);
  item.iconPath = new vscode.ThemeIcon(project.isSandbox ? 'beaker' : 'root-folder');
  item.tooltip = untrustedMarkdown(
    [
      `**${serverMarkdown(project.name)}**`,
      serverMarkdown(path),
      `Server: ${serverMarkdown(project.isSandbox ? 'the local sandbox' : project.baseUrl)}`,
      target ? `Target: ${serverMarkdown(target.name)}` : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
  );
  return item;
}

function actionItem(node: ActionNode): vscode.TreeItem {
  const hasEnvironments = node.remote !== undefined;
  // Keys, names, descriptions and ids come from the server or the workspace: each is shown as text.
  const item = new vscode.TreeItem(
    serverText(node.local?.name ?? node.remote?.name ?? node.key, 120),
    hasEnvironments ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  // An invalid key may be listed twice, or be anything: its row is told apart by the server's id.
  // So is a key two folders declare, by its folder.
  item.id =
    node.state === 'invalid' && node.remote
      ? `action/${node.parent.app.uid}/invalid/${node.remote.id}`
      : node.state === 'shared' && node.local
        ? `action/${node.parent.app.uid}/shared/${node.local.folder.toString()}`
        : `action/${node.parent.app.uid}/${node.key}`;
  const hints: Record<typeof node.state, [string, string]> = {
    synced: ['symbol-event', ''],
    local: ['cloud-upload', 'not created on the server yet'],
    remote: ['cloud', 'only on the server'],
    changed: ['diff-modified', node.change ?? 'changed locally'],
    invalid: ['error', `cannot be pulled: ${node.change ?? 'the key is not valid'}`],
    shared: ['warning', `${node.change ?? 'key also declared in another folder'}: not deployed`],
  };
  const [stateIcon, stateHint] =
    node.sharedBy && node.sharedBy.length > 0 ? ['cloud', `its key is declared in ${node.sharedBy.length} folders here: not matched`] : hints[node.state];
  const hint = node.outOfStep ? [stateHint, 'changed on the server since your last pull or push'].filter(Boolean).join(' · ') : stateHint;
  const icon = node.outOfStep ? 'cloud-download' : stateIcon;
  const problems = node.local && node.local.problemCount > 0 ? `${node.local.problemCount} problem(s) in action.yaml` : '';
  item.description = [serverText(node.key, 120), serverText(hint, 200), problems].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon(problems ? 'warning' : icon);
  const lines = [`**${serverMarkdown(node.key, 120)}**`, serverMarkdown(node.remote?.description ?? ''), hint && `_${serverMarkdown(hint, 200)}_`];
  if (node.state === 'remote') lines.push('The server lists no parameters or result: pull the action to get its full metadata.');
  if (node.remote) lines.push(`Id: ${serverMarkdown(node.remote.id, 120)}`);
  item.tooltip = untrustedMarkdown(lines.filter(Boolean).join('\n\n'));
  // outOfStep last: the menus that match ";local;remote" go on matching, Merge and Overwrite join them.
  item.contextValue = `action;${node.state}${node.local ? ';local' : ''}${node.remote ? ';remote' : ''}${node.outOfStep ? ';outOfStep' : ''}`;
  if (node.local) {
    item.resourceUri = node.local.folder;
    item.command = { command: 'customActions.openCode', title: 'Open Code', arguments: [node] };
  }
  return item;
}

export function formatStart(event: NormalizedEvent): string {
  return event.startTime === undefined ? '(no start time)' : formatWhen(event.startTime, true);
}
