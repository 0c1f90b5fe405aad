import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../core/schema';
import { serverText } from '../core/text';
import { Disposable } from './lifecycle';
import { type ProjectModel, type ProjectState, serverOf } from './project';
import { type SandboxManager } from './sandboxManager';
import { hostOf } from './serverHost';

export type Reachability = 'unknown' | 'reachable' | 'unreachable';

/**
 * Which server the workspace talks to, and whether it answered last time. When customactions.yaml
 * names targets, the item names the active one (a protected one with a lock, on a warning background)
 * and a click switches it. With several projects it shows the project of the file being edited, and
 * whether that project's server answered: each server has its own mark, so another project's requests
 * (the tree's, in the background) never speak for it.
 */
export class TargetStatusBar extends Disposable {
  /** The item VS Code shows (its text and tooltip are what the user reads). */
  readonly item = this.register(vscode.window.createStatusBarItem('customActions.target', vscode.StatusBarAlignment.Left, 10));
  /** Whether each server answered last time, by its identity (serverOf); a server not asked yet is unknown. */
  private readonly reached = new Map<string, { readonly reachability: Reachability; readonly error: string }>();

  constructor(
    private readonly project: ProjectModel,
    private readonly sandbox: SandboxManager,
  ) {
    super();
    this.register(project.onDidChange(() => this.render()));
    // With several projects the item names the one of the file being edited.
    this.register(vscode.window.onDidChangeActiveTextEditor(() => this.project.projects.length > 1 && this.render()));
    this.register(sandbox.onDidChangeState(() => this.render()));
    this.render();
  }

  /** Whether `server` (serverOf's identity) answered the last request sent to it. */
  setReachability(server: string, reachability: Reachability, error = ''): void {
    const before = this.reached.get(server);
    if (before?.reachability === reachability && before.error === error) return;
    this.reached.set(server, { reachability, error });
    if (server === serverOf(this.shown())) this.render();
  }

  /**
   * The project of the active editor's file; else the first of the tree's order (with one project, the
   * project; with several and no file of one open, the status bar still has to name one).
   */
  private shown(): ProjectState {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return (uri && this.project.projectOf(uri)) ?? this.project.projects[0] ?? { kind: 'none' };
  }

  private render(): void {
    const state = this.shown();
    if (state.kind !== 'ok') {
      this.item.hide();
      return;
    }
    const { reachability, error: lastError } = this.reached.get(serverOf(state) ?? '') ?? { reachability: 'unknown', error: '' };
    const sandbox = state.baseUrl === LOCAL_SANDBOX;
    const target = sandbox ? 'Local Sandbox' : hostOf(state.baseUrl);
    let icon = sandbox ? '$(beaker)' : '$(cloud)';
    let tooltip = sandbox ? 'Custom Actions: the local sandbox' : `Custom Actions: ${state.baseUrl}`;
    const named = state.hasTargets ? state.target.target : undefined;
    if (named)
      tooltip = `Custom Actions: target ${named.name}${named.protected ? ' (protected: a save pushes nothing by itself)' : ''}, ${sandbox ? 'the local sandbox' : state.baseUrl}`;
    if (sandbox && this.sandbox.state.kind === 'starting') icon = '$(loading~spin)';
    if (sandbox && this.sandbox.state.kind === 'running') tooltip += ` at ${this.sandbox.state.url}`;
    if (reachability === 'unreachable' || (sandbox && this.sandbox.state.kind === 'failed')) {
      icon = '$(warning)';
      tooltip += ` (unreachable: ${lastError || (this.sandbox.state.kind === 'failed' ? this.sandbox.state.message : '')})`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      this.item.backgroundColor = undefined;
      if (reachability === 'reachable') tooltip += ' (reachable)';
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
