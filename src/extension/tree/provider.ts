import * as vscode from 'vscode';
import { ApiError, type NormalizedEvent } from '../../core/client';
import { ENVIRONMENTS } from '../../core/schema';
import { errorMessage, NoKeyError } from '../connections';
import { NoProjectError } from '../project';
import { Disposable } from '../lifecycle';
import { type KeyStore, normalizeBaseUrl } from '../keyStore';
import { type ActionsModel } from '../model';
import { type Application, type FoundProject, type Project, type ProjectModel } from '../project';
import { type WorkspaceTrust } from '../trust';
import { toTreeItem } from './items';
import { type HistoryItem } from './nodes';
import {
  type ActionNode,
  actionNode,
  type ApplicationNode,
  type EnvironmentNode,
  type HistoryNode,
  type MessageNode,
  type ProjectNode,
  type TreeNode,
} from './nodes';

/** Where the Test and Live nodes get their recent events and hear of new ones: the events watchers, so there is one fetcher. */
export interface RecentEventsSource {
  recent(app: Application, eventsUrl: string): Promise<NormalizedEvent[]>;
  /** What changed: events `arrived` in an environment, or its watch began or ended (the events watchers' signal). */
  readonly onDidChangeEvents: vscode.Event<{ readonly app: Application; readonly eventsUrl: string; readonly kind: 'arrived' | 'watched' | 'unwatched' }>;
}

/** How long refreshes of everything are gathered into one. */
const REFRESH_BURST_MS = 10;

export type ViewState = 'loading' | 'noProject' | 'invalidProject' | 'untrusted' | 'noApplications' | 'noKey' | 'unreachable' | 'ready';

/**
 * applications → actions → Test/Live → recent events: a view of the ActionsModel. Children load when a
 * node is expanded, and a change of the model re-fires only the application that changed, so an
 * application with thousands of actions costs one list call per expand. Nothing reads data from here.
 */
export class ActionsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this.register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly stateChanged = this.register(new vscode.EventEmitter<ViewState>());
  readonly onDidChangeViewState = this.stateChanged.event;
  private readonly sandboxShown = this.register(new vscode.EventEmitter<void>());
  /** The view shows the applications of a local-sandbox workspace: an expand is coming, and it needs the sandbox. */
  readonly onDidShowSandboxApplications = this.sandboxShown.event;
  private appNodes = new Map<string, ApplicationNode>();
  /** The project rows last handed out (a workspace of several projects), by folder. */
  private projectNodes = new Map<string, ProjectNode>();
  /** The Test/Live nodes last handed out, by application and events URL, so new events refresh exactly them. */
  private readonly envNodes = new Map<string, EnvironmentNode>();
  /** The History rows last handed out, by application and action id, so a new entry refreshes exactly them. */
  private readonly historyNodes = new Map<string, HistoryNode>();
  private viewState: ViewState = 'loading';
  private refreshAll: ReturnType<typeof setTimeout> | undefined;
  constructor(
    private readonly project: ProjectModel,
    private readonly model: ActionsModel,
    private readonly events: RecentEventsSource,
    private readonly keys: KeyStore,
    private readonly trust: WorkspaceTrust,
    /** The versions of an action, newest first: deploy's history, read when a History row is expanded. */
    private readonly history: (action: ActionNode) => Promise<HistoryItem[]>,
  ) {
    super();
    this.register({ dispose: () => clearTimeout(this.refreshAll) });
    this.register(model.onDidChange(({ app }) => (app ? this.refreshApplication(app.uid) : this.refreshAllSoon())));
    this.register(
      // A watch that began or ended changes no row: the node shows the same events either way.
      events.onDidChangeEvents(({ app, eventsUrl, kind }) => {
        const node = kind === 'arrived' ? this.envNodes.get(envKey(app, eventsUrl)) : undefined;
        if (node) this.changed.fire(node);
      }),
    );
  }

  /** Everything, or one node and what is below it: an application's list is read anew, a lower node only shown anew. */
  refresh(node?: TreeNode): void {
    if (!node) return this.model.refresh();
    if (node.kind === 'application') return this.model.refresh(node.app);
    if (node.kind === 'project') {
      if (node.project.kind === 'ok') for (const app of node.project.applications) this.model.refresh(app);
    }
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

  private refreshApplication(applicationId: string): void {
    const node = this.appNodes.get(applicationId);
    if (node) this.changed.fire(node);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.kind === 'project' ? undefined : node.parent;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.roots();
    switch (node.kind) {
      case 'project':
        return this.projectChildren(node);
      case 'application':
        return this.actions(node);
      case 'action': {
        const environments = ENVIRONMENTS.flatMap((environment) => {
          const eventsUrl = node.remote?.eventsUrls[environment];
          if (!eventsUrl) return [];
          const env = { kind: 'environment', parent: node, environment, eventsUrl } satisfies EnvironmentNode;
          this.envNodes.set(envKey(node.app, eventsUrl), env);
          return [env];
        });
        // Only an action both here and on the server has versions to compare a file with.
        const history: HistoryNode[] = node.local && node.remote ? [{ kind: 'history', parent: node }] : [];
        for (const row of history) if (node.remote) this.historyNodes.set(envKey(node.app, node.remote.id), row);
        return [...environments, ...history];
      }
      case 'environment':
        return this.recentEvents(node);
      case 'history':
        return this.versions(node);
      default:
        return [];
    }
  }

  private async roots(): Promise<TreeNode[]> {
    const projects = await this.project.all();
    const [only] = projects;
    if (!only) return this.setState('noProject', []);
    if (projects.length === 1) return this.onlyProject(only);
    // Several projects: a row each, and what one of them lacks is said below its row, not by the view.
    if (!this.trust.isTrusted) return this.setState('untrusted', []);
    const previous = this.projectNodes;
    this.projectNodes = new Map(
      projects.map((project) => {
        const key = project.root.toString();
        const known = previous.get(key);
        return [key, known?.project === project ? known : ({ kind: 'project', project } satisfies ProjectNode)];
      }),
    );
    return this.setState('ready', [...this.projectNodes.values()]);
  }

  /** A workspace of one project looks as it always did: its applications are the roots, and the view's welcome says what is missing. */
  private async onlyProject(state: FoundProject): Promise<TreeNode[]> {
    this.projectNodes = new Map();
    if (state.kind === 'invalid') return this.setState('invalidProject', []);
    if (!this.trust.isTrusted) return this.setState('untrusted', []);
    if (state.applications.length === 0) return this.setState('noApplications', []);
    if (this.model.unreachable !== undefined) {
      void vscode.commands.executeCommand('setContext', 'customActions.unreachableReason', errorMessage(this.model.unreachable));
      return this.setState('unreachable', []);
    }
    if (!state.isSandbox && !(await this.anyKey(state.baseUrl, state.applications)))
      return this.stillCurrent(state) ? this.setState('noKey', []) : this.roots();
    // The project changed while the keys were looked up (a target switched): the newer project answers.
    if (!this.stillCurrent(state)) return this.roots();
    return this.setState('ready', this.applicationNodes(state, undefined));
  }

  /** Below a project's row: its applications, or why there are none to show. */
  private async projectChildren(node: ProjectNode): Promise<TreeNode[]> {
    const state = this.project.current(node.project.root);
    if (!state) return [];
    if (state.kind === 'invalid')
      return [message(node, 'invalid', state.message, 'warning', { command: 'customActions.openProjectFile', title: 'Open', arguments: [node] })];
    if (state.applications.length === 0)
      return [message(node, 'empty', 'No applications yet', 'info', { command: 'customActions.addApplication', title: 'Add Application', arguments: [node] })];
    if (!state.isSandbox && !(await this.anyKey(state.baseUrl, state.applications)))
      return [message(node, 'key', 'Sign in to see the actions', 'key', { command: 'customActions.signIn', title: 'Sign In', arguments: [node] })];
    return this.applicationNodes(state, node);
  }

  /**
   * The same object for the same application, however often the roots are read (and they are read
   * concurrently): VS Code refreshes a node only when it is handed the very object it was given.
   */
  private applicationNodes(state: Project, parent: ProjectNode | undefined): ApplicationNode[] {
    const previous = this.appNodes;
    const nodes = state.applications.map((app) => {
      const known = previous.get(app.uid);
      const same =
        known &&
        known.parent === parent &&
        known.app.label === app.label &&
        known.app.folderUri.toString() === app.folderUri.toString() &&
        known.app.project.baseUrl === app.project.baseUrl;
      return same ? known : ({ kind: 'application', app, ...(parent ? { parent } : {}) } satisfies ApplicationNode);
    });
    // Only this project's rows are replaced: the other projects' stay as they were handed out.
    const root = state.root.toString();
    const others = parent
      ? [...previous].filter(([, n]) => n.app.project.root.toString() !== root && this.projectNodes.has(n.app.project.root.toString()))
      : [];
    this.appNodes = new Map([...others, ...nodes.map((n) => [n.app.uid, n] as const)]);
    if (state.isSandbox) this.sandboxShown.fire();
    return nodes;
  }

  private async actions(node: ApplicationNode): Promise<TreeNode[]> {
    const state = this.project.current(node.app.project.root);
    try {
      const entries = await this.model.actions(node.app);
      // A list of the target before a switch: the change that switched it shows everything anew, this answer is the past.
      if (!this.stillCurrent(state)) return [];
      const merged = entries.map((entry) => actionNode(node, entry));
      return merged.length > 0
        ? merged
        : [message(node, 'empty', 'No actions yet', 'info', { command: 'customActions.newAction', title: 'New Action', arguments: [node] })];
    } catch (error) {
      return [this.failure(node, error)];
    }
  }

  /** The history of action `actionId` changed (a push, a redeploy): its History row lists its versions again. */
  historyChanged(appId: string, actionId: string): void {
    // The history names the server's application id: every project that lists it shows the row anew.
    for (const node of this.historyNodes.values()) if (node.parent.app.id === appId && node.parent.remote?.id === actionId) this.changed.fire(node);
  }

  private async versions(node: HistoryNode): Promise<TreeNode[]> {
    try {
      const items = await this.history(node.parent);
      if (items.length === 0) return [message(node, 'none', 'No deploy known yet: every push from now on is kept', 'info')];
      return items.map((item, index) => ({ kind: 'version', parent: node, item, index }));
    } catch (error) {
      return [this.failure(node, error)];
    }
  }

  private async recentEvents(node: EnvironmentNode): Promise<TreeNode[]> {
    const action = node.parent;
    if (!action.remote) return [];
    try {
      const events = await this.events.recent(action.app, node.eventsUrl);
      if (events.length === 0) return [message(node, 'none', 'No events yet', 'info')];
      return events.map((event) => ({ kind: 'event', parent: node, event }));
    } catch (error) {
      return [this.failure(node, error)];
    }
  }

  /** Errors appear on the node that failed, with the command that fixes them, never as a modal. */
  private failure(parent: TreeNode, error: unknown): MessageNode {
    const app = parent.kind === 'application' ? parent : parent.kind === 'environment' || parent.kind === 'history' ? parent.parent.parent : undefined;
    const appArgs = app ? [app] : [];
    if (error instanceof NoKeyError || (error instanceof ApiError && error.kind === 'auth')) {
      return message(parent, 'key', error instanceof NoKeyError ? 'Sign in to see the actions' : 'The key was refused: sign in again', 'key', {
        command: 'customActions.signIn',
        title: 'Sign In',
        arguments: appArgs,
      });
    }
    if (error instanceof NoProjectError) return message(parent, 'project', error.message, 'warning');
    return message(parent, 'error', errorMessage(error), 'error', { command: 'customActions.refreshNode', title: 'Retry', arguments: [parent] });
  }

  /** Whether the project read at `state` is still the one in force (a newer read, a switched target, replaces it). */
  private stillCurrent(state: FoundProject | undefined): boolean {
    return state !== undefined && this.project.current(state.root) === state;
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
}

function message(parent: TreeNode, suffix: string, text: string, icon: MessageNode['icon'], command?: vscode.Command): MessageNode {
  const parentId = toTreeItem(parent).id ?? 'root';
  return { kind: 'message', parent, id: `${parentId}/message/${suffix}`, text, tooltip: text, icon, command };
}

function envKey(app: Application, eventsUrl: string): string {
  return `${app.uid}\n${eventsUrl}`;
}
