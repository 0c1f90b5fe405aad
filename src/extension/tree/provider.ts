import * as vscode from 'vscode';
import { ApiError, type NormalizedEvent } from '../../core/client';
import { ENVIRONMENTS } from '../../core/schema';
import { type ActionCatalog, type RemoteAction } from '../catalog';
import { type Connections, errorMessage, NoKeyError, NoProjectError } from '../connections';
import { Disposable } from '../lifecycle';
import { type KeyStore, normalizeBaseUrl } from '../keyStore';
import { type ActionLinks } from '../links';
import { scanLocalActions } from '../localActions';
import { type ProjectModel, type Application } from '../project';
import { type WorkspaceTrust } from '../trust';
import { toTreeItem } from './items';
import { type ActionNode, type ApplicationNode, type EnvironmentNode, mergeActions, type MessageNode, type TreeNode } from './nodes';

/** Where the Test and Live nodes get their recent events; the events watcher provides it, so there is one fetcher. */
export interface RecentEventsSource {
  /** `node` is the tree's own element, so the source can refresh exactly it when new events arrive. */
  recent(app: Application, action: RemoteAction, eventsUrl: string, node?: EnvironmentNode): Promise<NormalizedEvent[]>;
}

/** How long refreshes of everything are gathered into one. */
const REFRESH_BURST_MS = 10;

export type ViewState = 'loading' | 'noProject' | 'invalidProject' | 'untrusted' | 'noApplications' | 'noKey' | 'unreachable' | 'ready';

/**
 * applications → actions → Test/Live → recent events. Children load when a node is expanded, and a
 * refresh re-fires only the node that changed, so an application with thousands of actions costs one
 * list call per expand.
 */
export class ActionsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this.register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stateChanged = this.register(new vscode.EventEmitter<ViewState>());
  readonly onDidChangeViewState = this.stateChanged.event;
  private readonly sandboxShown = this.register(new vscode.EventEmitter<{ applications: readonly Application[]; demo: boolean }>());
  /** The view shows the applications of a local-sandbox workspace: an expand is coming, and it needs the sandbox. */
  readonly onDidShowSandboxApplications = this.sandboxShown.event;
  private appNodes = new Map<string, ApplicationNode>();
  private viewState: ViewState = 'loading';
  private unreachable: string | undefined;
  private refreshAll: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly project: ProjectModel,
    private readonly connections: Connections,
    private readonly catalog: ActionCatalog,
    private readonly links: ActionLinks,
    private readonly events: RecentEventsSource,
    private readonly keys: KeyStore,
    private readonly trust: WorkspaceTrust,
  ) {
    super();
    this.register({ dispose: () => clearTimeout(this.refreshAll) });
    // Trust granted: what waited for it (the server's lists, the sandbox) loads now.
    this.register(trust.onDidChange(() => this.refresh()));
    this.register(project.onDidChange(() => this.refresh()));
    this.register(catalog.onDidChange((app) => this.refreshApplication(app.id)));
    const actionFiles = this.register(vscode.workspace.createFileSystemWatcher('**/action.yaml'));
    const onLocalChange = (uri: vscode.Uri) => this.refreshApplicationContaining(uri);
    this.register(actionFiles.onDidCreate(onLocalChange));
    this.register(actionFiles.onDidChange(onLocalChange));
    this.register(actionFiles.onDidDelete(onLocalChange));
  }

  get state(): ViewState {
    return this.viewState;
  }

  /** Everything, or one node and what is below it. */
  refresh(node?: TreeNode): void {
    if (!node) {
      this.unreachable = undefined;
      this.catalog.forget();
      this.refreshAllSoon();
      return;
    }
    if (node.kind === 'application') this.catalog.forget(node.app);
    this.changed.fire(node);
  }

  /**
   * Reasons to refresh everything come in bursts (Start Local Sandbox stores a key per application, each
   * store a change, then refreshes itself): they become one change event. VS Code takes the first change
   * at once and merges later ones into a second refresh 200 ms on, which a reveal or an expand waits for.
   */
  private refreshAllSoon(): void {
    if (this.refreshAll) return;
    this.refreshAll = setTimeout(() => {
      this.refreshAll = undefined;
      this.changed.fire(undefined);
    }, REFRESH_BURST_MS);
  }

  refreshApplication(applicationId: string, refetch = false): void {
    const node = this.appNodes.get(applicationId);
    if (!node) return;
    if (refetch) this.catalog.forget(node.app);
    this.changed.fire(node);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.kind === 'application' ? undefined : node.parent;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.roots();
    switch (node.kind) {
      case 'application':
        return this.actions(node);
      case 'action':
        return ENVIRONMENTS.flatMap((environment) => {
          const eventsUrl = node.remote?.eventsUrls[environment];
          return eventsUrl ? [{ kind: 'environment', parent: node, environment, eventsUrl } satisfies EnvironmentNode] : [];
        });
      case 'environment':
        return this.recentEvents(node);
      default:
        return [];
    }
  }

  /** Finds the node of an application's action by key, for reveal. */
  async findAction(applicationId: string, key: string): Promise<ActionNode | undefined> {
    const app = this.appNodes.get(applicationId) ?? (await this.roots(), this.appNodes.get(applicationId));
    if (!app) return undefined;
    const children = await this.actions(app);
    return children.find((c): c is ActionNode => c.kind === 'action' && c.key === key);
  }

  private async roots(): Promise<TreeNode[]> {
    const state = await this.project.get();
    if (state.kind === 'none') return this.setState('noProject', []);
    if (state.kind === 'invalid') return this.setState('invalidProject', []);
    if (!this.trust.isTrusted) return this.setState('untrusted', []);
    if (state.applications.length === 0) return this.setState('noApplications', []);
    if (this.unreachable) return this.setState('unreachable', []);
    if (!state.isSandbox && !(await this.anyKey(state.baseUrl, state.applications))) return this.setState('noKey', []);
    // The same object for the same application, however often the roots are read (and they are read
    // concurrently): VS Code refreshes a node only when it is handed the very object it was given.
    const previous = this.appNodes;
    this.appNodes = new Map(
      state.applications.map((app) => {
        const known = previous.get(app.id);
        const same = known && known.app.label === app.label && known.app.folderUri.toString() === app.folderUri.toString();
        return [app.id, same ? known : ({ kind: 'application', app } satisfies ApplicationNode)];
      }),
    );
    if (state.isSandbox) this.sandboxShown.fire({ applications: state.applications, demo: state.demo });
    return this.setState('ready', [...this.appNodes.values()]);
  }

  private async actions(node: ApplicationNode): Promise<TreeNode[]> {
    try {
      const [local, remote] = await Promise.all([scanLocalActions(node.app), this.catalog.list(node.app)]);
      const merged = mergeActions(node, local, remote, this.links.all());
      this.links.remember(merged);
      return merged.length > 0 ? merged : [message(node, 'empty', 'No actions yet', 'info', { command: 'customActions.newAction', title: 'New Action', arguments: [node] })];
    } catch (error) {
      return [this.failure(node, error)];
    }
  }

  private async recentEvents(node: EnvironmentNode): Promise<TreeNode[]> {
    const action = node.parent;
    if (!action.remote) return [];
    try {
      const events = await this.events.recent(action.parent.app, action.remote, node.eventsUrl, node);
      if (events.length === 0) return [message(node, 'none', 'No events yet', 'info')];
      return events.map((event) => ({ kind: 'event', parent: node, event }));
    } catch (error) {
      return [this.failure(node, error)];
    }
  }

  /** Errors appear on the node that failed, with the command that fixes them, never as a modal. */
  private failure(parent: TreeNode, error: unknown): MessageNode {
    const app = parent.kind === 'application' ? parent : parent.kind === 'environment' ? parent.parent.parent : undefined;
    const appArgs = app ? [app] : [];
    if (error instanceof NoKeyError || (error instanceof ApiError && error.kind === 'auth')) {
      return message(parent, 'key', error instanceof NoKeyError ? 'Sign in to see the actions' : 'The key was refused: sign in again', 'key', {
        command: 'customActions.signIn',
        title: 'Sign In',
        arguments: appArgs,
      });
    }
    if (error instanceof NoProjectError) return message(parent, 'project', error.message, 'warning');
    if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout') && parent.kind === 'application') {
      this.unreachable = errorMessage(error);
      void vscode.commands.executeCommand('setContext', 'customActions.unreachableReason', this.unreachable);
      queueMicrotask(() => this.changed.fire(undefined));
    }
    return message(parent, 'error', errorMessage(error), 'error', { command: 'customActions.refreshNode', title: 'Retry', arguments: [parent] });
  }

  private async anyKey(baseUrl: string, apps: readonly Application[]): Promise<boolean> {
    const found = await Promise.all(apps.map((app) => this.keys.has(normalizeBaseUrl(baseUrl), app.id)));
    return found.includes(true);
  }

  private setState(state: ViewState, nodes: TreeNode[]): TreeNode[] {
    if (state !== this.viewState) {
      this.viewState = state;
      this.stateChanged.fire(state);
    }
    return nodes;
  }

  private refreshApplicationContaining(uri: vscode.Uri): void {
    const path = uri.path;
    for (const node of this.appNodes.values()) {
      if (path.startsWith(node.app.folderUri.path + '/')) this.changed.fire(node);
    }
  }
}

function message(parent: TreeNode, suffix: string, text: string, icon: MessageNode['icon'], command?: vscode.Command): MessageNode {
  const parentId = toTreeItem(parent).id ?? 'root';
  return { kind: 'message', parent, id: `${parentId}/message/${suffix}`, text, tooltip: text, icon, command };
}
