import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../core/schema';
import { serverText } from '../core/text';
import { Disposable } from './lifecycle';
import { type ProjectModel, type ProjectState } from './project';
import { type SandboxManager } from './sandboxManager';

export type Reachability = 'unknown' | 'reachable' | 'unreachable';

/**
 * Which server the workspace talks to, and whether it answered last time. When customactions.yaml
 * names targets, the item names the active one (a protected one with a lock, on a warning background)
 * and a click switches it.
 */
export class TargetStatusBar extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('customActions.target', vscode.StatusBarAlignment.Left, 10));
  private reachability: Reachability = 'unknown';
  private lastError = '';
  /** The server the reachability was learnt of: another target's server starts unknown. */
  private server: string | undefined;

  constructor(
    private readonly project: ProjectModel,
    private readonly sandbox: SandboxManager,
  ) {
    super();
    const follow = () => {
      const state = this.shown();
      const server = state.kind === 'ok' ? state.baseUrl : undefined;
      if (server !== this.server) [this.server, this.reachability, this.lastError] = [server, 'unknown', ''];
      this.render();
    };
    this.register(project.onDidChange(follow));
    // With several projects the item names the one of the file being edited.
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.project.projects.length > 1 && follow()));
    this.register(sandbox.onDidChangeState(() => this.render()));
    this.render();
  }

  setReachability(reachability: Reachability, error = ''): void {
    if (this.reachability === reachability && this.lastError === error) return;
    this.reachability = reachability;
    this.lastError = error;
    this.render();
  }

  /** The project of the active editor's file, else the first. */
  private shown(): ProjectState {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && this.project.projectOf(uri)) ?? this.project.state;
  }

  private render(): void {
    const state = this.shown();
    if (state.kind !== 'ok') {
      this.item.hide();
      return;
    }
    const sandbox = state.baseUrl === LOCAL_SANDBOX;
    const target = sandbox ? 'Local Sandbox' : hostOf(state.baseUrl);
    let icon = sandbox ? '$(beaker)' : '$(cloud)';
    let tooltip = sandbox ? 'Custom Actions: the local sandbox' : `Custom Actions: ${state.baseUrl}`;
    const named = state.hasTargets ? state.target.target : undefined;
    if (named)
      tooltip = `Custom Actions: target ${named.name}${named.protected ? ' (protected: a save pushes nothing by itself)' : ''}, ${sandbox ? 'the local sandbox' : state.baseUrl}`;
    if (sandbox && this.sandbox.state.kind === 'starting') icon = '$(loading~spin)';
    if (sandbox && this.sandbox.state.kind === 'running') tooltip += ` at ${this.sandbox.state.url}`;
    if (this.reachability === 'unreachable' || (sandbox && this.sandbox.state.kind === 'failed')) {
      icon = '$(warning)';
      tooltip += ` (unreachable: ${this.lastError || (this.sandbox.state.kind === 'failed' ? this.sandbox.state.message : '')})`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      this.item.backgroundColor = undefined;
      if (this.reachability === 'reachable') tooltip += ' (reachable)';
    }
    if (named?.protected) {
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      icon = icon === '$(warning)' ? '$(warning) $(lock)' : '$(lock)';
    }
    // The base URL and the target's name are the workspace's text and the error the server's: all shown as text.
    this.item.text = `${icon} ${serverText(named ? named.name : target, 80)}`;
    // Switch Target of this very project (its row's argument), not a pick among all of them.
    this.item.command = named
      ? { command: 'customActions.switchTarget', title: 'Switch Target', arguments: [{ kind: 'project', project: state }] }
      : 'customActions.refresh';
    this.item.name = named ? 'Custom Actions: Target' : 'Custom Actions: Server';
    if (this.project.projects.length > 1) tooltip = `${state.name}: ${tooltip}`;
    this.item.tooltip = `${serverText(tooltip)}\n${named ? 'Click to switch the target.' : 'Click to refresh.'}`;
    this.item.show();
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
