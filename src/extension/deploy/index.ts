import * as vscode from 'vscode';
import { ACTION_FILE } from '../../core/workspace';
import { type pickAction } from '../commands/commands';
import { isNode } from '../tree';
import { errorMessage } from '../connections';
import { Disposable } from '../lifecycle';
import { type Parts } from '../parts';
import { type Events } from '../events';
import { type ActionsTreeProvider } from '../tree/provider';
import { onDemand } from '../loadOnDemand';
import { type PushOptions, type PushResult, type Deployer } from './deployer';
import { type VersionedResource } from '../../core/client';
import { type BaseVersion, type DeployBase } from '../../core/deploy/base';
import { type HistoryEntry } from '../../core/deploy/history';
import { type Scope } from '../../core/deploy/scope';
import { type Conflict, type MergeOutcome } from './conflicts';
import { type ServerCopy } from './serverCopy';
import { type ActionMetadata } from '../../core/schema';
import { type createOnServer } from './create';
import { type Application } from '../project';
import { type LockStore } from '../lockStore';
import { DeployHistoryStore } from './historyStore';
import { DriftWatch } from './drift';
import { CodeDiagnostics } from './diagnostics';
import { isInEditorTab } from './editorTabs';
import { GeneratedTypes } from './generatedTypes';
import { isCodeFile, isMetadataFile, mainOf, openDocument, savedText } from './locate';
import { type MetadataQuickFixes } from './quickFixes';
import { fixableDiagnostics } from '../diagnosticSource';
import { SavedTexts } from './savedTexts';
import { type DeployStatusItem } from './statusItem';

/** The parts deploy is built from: activation has them before it builds the feature. */
export type DeployParts = Pick<
  Parts,
  'actionFiles' | 'config' | 'locks' | 'connections' | 'context' | 'log' | 'model' | 'project' | 'serverVersions' | 'trust'
> & {
  readonly events: Events;
} & { readonly tree: ActionsTreeProvider };

/** What deploy's eager part takes from the on-demand bundle: the push pipeline of a save. */
export interface DeployOnDemand {
  readonly Deployer: typeof Deployer;
  /** Push Implementation's pick of an action when none is given: a picker only a command shows. */
  readonly pickAction: typeof pickAction;
  /** The push's status bar item, made with the first push or mark to show: a hidden item until then. */
  readonly DeployStatusItem: typeof DeployStatusItem;
  /** Create on Server, which a command or a push of an action the server lacks runs. */
  readonly createOnServer: typeof createOnServer;
  /** The quick fixes of a mismatch between main.ts and action.yaml, asked for only where there is one. */
  readonly MetadataQuickFixes: typeof MetadataQuickFixes;
}

/**
 * Save to deploy: a save the user made in an editor pushes the code or the metadata of its action;
 * changes on disk never push. An auto-save (VS Code for the Web saves after every pause in typing)
 * pushes quietly, as customActions.deploy.onAutoSave says. Beside it, the code-versus-metadata
 * diagnostics with their quick fixes and the generated types kept in step with action.yaml.
 */
export class DeployFeature extends Disposable {
  private madeStatus: DeployStatusItem | undefined;
  /** The code-versus-metadata problems of action files, for the Problems panel. */
  private readonly diagnostics: CodeDiagnostics;
  private readonly generated: GeneratedTypes;
  /** The push pipeline, once made (see `deployer`). */
  private made: Deployer | undefined;
  /** What each action's local copy was derived from (customactions.lock.json): the base of every push. */
  private readonly bases: LockStore;
  /** Every accepted push, in the extension's global storage. */
  private readonly history: DeployHistoryStore;
  /** Files the push command is saving itself, so the save does not push a second time. */
  private readonly savingByHand = new Set<string>();
  /** Why each file is being saved, told at will-save and needed at did-save, which does not say. */
  private readonly reasons = new Map<string, vscode.TextDocumentSaveReason>();
  /** What each open action file held on disk before its latest save: a base where the lock has none. */
  private readonly savedTexts = this.register(new SavedTexts());

  constructor(private readonly s: DeployParts) {
    super();
    let quickFixes: MetadataQuickFixes | undefined;
    this.diagnostics = this.register(new CodeDiagnostics(s));
    const generated = (this.generated = this.register(new GeneratedTypes(s)));
    this.bases = s.locks;
    // Bases were kept in workspace state before they moved to the lock file; the command line never saw them.
    for (const old of OLD_BASES) if (s.context.workspaceState.get(old) !== undefined) void s.context.workspaceState.update(old, undefined);
    this.history = this.register(new DeployHistoryStore(s.context.globalStorageUri, s.log));
    // Whether actions changed on the server since the last pull or push here, for the files brought up.
    this.register(new DriftWatch(s, this.bases, () => this.status));
    // Every push, redeploy and merge that the server accepts adds an entry: the History row follows at once.
    this.register(this.history.onDidRecord((entry) => s.tree.historyChanged(entry.appId, entry.actionId)));
    this.register(generated.onDidWrite((folder) => this.diagnostics.schedule(vscode.Uri.joinPath(folder, ACTION_FILE), 0)));
    this.register(
      vscode.languages.registerCodeActionsProvider(
        { language: 'typescript', pattern: '**/*.ts' },
        {
          // VS Code asks on every move of the cursor in a .ts file: the fixes' code is loaded by the first ask with a mismatch.
          provideCodeActions: (document, range, context) =>
            fixableDiagnostics(context.diagnostics).length === 0
              ? []
              : (quickFixes ??= new (onDemand<DeployOnDemand>(s.context).MetadataQuickFixes)(s)).provideCodeActions(document, range, context),
        },
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
    );
    this.register(vscode.workspace.onWillSaveTextDocument((e) => this.willSave(e.document, e.reason)));
    this.register(vscode.workspace.onDidSaveTextDocument((document) => this.saved(document)));
  }

  /** The push's status bar item: its code is in the on-demand bundle, made by the first push or out-of-step mark. */
  get status(): DeployStatusItem {
    if (!this.madeStatus) {
      const { DeployStatusItem } = onDemand<DeployOnDemand>(this.s.context);
      this.madeStatus = this.register(new DeployStatusItem(() => this.s.config().warnAfterMs));
    }
    return this.madeStatus;
  }

  /**
   * The push pipeline, reached only through the methods below. Its code (the pipeline, its feedback and
   * the conflict tools) is in the on-demand bundle: it is made on the first save, push or conflict
   * command, not at activation, where nothing has been pushed and nothing is held.
   */
  private get deployer(): Deployer {
    if (!this.made) {
      const { Deployer } = onDemand<DeployOnDemand>(this.s.context);
      this.made = this.register(
        new Deployer(this.s, this.status, this.bases, this.history, (app, folder, metadata) => this.createOnServer(app, folder, metadata)),
      );
    }
    return this.made;
  }

  /** A save begins: its code is checked while the editor writes it, so the push can go as soon as it is written. */
  private willSave(document: vscode.TextDocument, reason: vscode.TextDocumentSaveReason): void {
    if (!/\.(ts|ya?ml)$/.test(document.uri.path)) return;
    this.reasons.set(document.uri.toString(), reason);
    const options = this.optionsFor(reason);
    if (!document.uri.path.endsWith('.ts') || this.savingByHand.has(document.uri.toString()) || !this.s.config().deployOnSave || !options) return;
    this.deployer.prepareCode(document.uri, document.getText(), options);
  }

  private saved(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const reason = this.reasons.get(key) ?? vscode.TextDocumentSaveReason.Manual;
    this.reasons.delete(key);
    if (!/\.(ts|ya?ml)$/.test(document.uri.path)) return;
    // The text as saved, taken now: the editor may move on while the push is prepared.
    const text = document.getText();
    // Every save moves the text it replaced along, the ones Push Implementation makes itself too.
    const replaces = this.savedTexts.replaced(document, text);
    if (this.savingByHand.has(key)) return;
    void this.fromSave(document.uri, text, reason, replaces).catch((error: unknown) =>
      this.s.log.error(`Push on save of ${document.uri.path}: ${errorMessage(error)}`),
    );
  }

  /** How a save pushes: a save by hand tells what went wrong in a notification; an auto-save, quietly or not at all. */
  private optionsFor(reason: vscode.TextDocumentSaveReason): PushOptions | undefined {
    if (reason === vscode.TextDocumentSaveReason.Manual) return { manual: false };
    return this.s.config().deployOnAutoSave === 'off' ? undefined : { manual: false, quiet: true };
  }

  private async fromSave(uri: vscode.Uri, text: string, reason: vscode.TextDocumentSaveReason, replaces: string | undefined): Promise<PushResult | undefined> {
    if (!this.s.config().deployOnSave) return undefined;
    const chosen = this.optionsFor(reason);
    const options = chosen && { ...chosen, ...(replaces === undefined ? {} : { replaces }) };
    if (!options) {
      this.s.log.info(`${uri.path} was auto-saved: not pushed (customActions.deploy.onAutoSave is off).`);
      return undefined;
    }
    const file = await this.s.model.fileAt(uri);
    if (!file) return undefined;
    if (!isInEditorTab(uri)) {
      this.s.log.info(`${file.name} of ${file.folder.path} was saved without an editor showing it (a tool, not a save in the editor): not pushed.`);
      return undefined;
    }
    if (!isMetadataFile(file) && !isCodeFile(file)) return undefined;
    const push = () => (isMetadataFile(file) ? this.deployer.pushMetadata(uri, options) : this.deployer.pushCode(uri, text, options));
    // The file's own project decides (the nearest customactions.yaml above it), with its active target.
    const root = file.app.project.root;
    const state = this.s.project.current(root);
    if (state?.kind === 'ok' && state.target.target.protected) {
      // A protected target (production) is never written by a save on its own: the user pushes it, confirmed.
      void this.offerProtectedPush(root, state.target.target.name, push);
      return undefined;
    }
    return push();
  }

  private async offerProtectedPush(root: vscode.Uri, target: string, push: () => Promise<PushResult | undefined>): Promise<void> {
    this.s.log.info(`Saved, not pushed: the editor's target ${target} is protected.`);
    const then = this.s.project.current(root);
    const server = then?.kind === 'ok' ? then.baseUrl : undefined;
    const action = `Push to ${target}…`;
    const picked = await vscode.window.showInformationMessage(
      `Saved, not pushed: the target ${target} is protected, and a save never pushes to it by itself.`,
      action,
    );
    if (picked !== action) return;
    const confirm = `Push to ${target}`;
    const sure = await vscode.window.showWarningMessage(`Push this change to the protected target ${target}?`, { modal: true }, confirm);
    if (sure !== confirm) return;
    // The offer was made for that target: after a switch, a push would go to another one.
    const now = this.s.project.current(root) ?? { kind: 'none' };
    if (now.kind !== 'ok' || now.target.target.name !== target || now.baseUrl !== server) {
      const active = now.kind === 'ok' ? `the target is now ${now.target.target.name}` : 'the project changed';
      void vscode.window.showWarningMessage(`Nothing pushed to ${target}: ${active} since the save. Switch back to ${target} and save again to push there.`);
      return;
    }
    await push().catch((error: unknown) => this.s.log.error(`Push to ${target}: ${errorMessage(error)}`));
  }

  /** Nothing is written in `folder` (its generated types) until disposed: for removing the folder. */
  holdWrites(folder: vscode.Uri): Promise<vscode.Disposable> {
    return this.generated.hold(folder);
  }

  /** The base the local copy of action `id` was derived from (customactions.lock.json), if any. */
  baseOf(app: Application, id: string): Promise<DeployBase | undefined> {
    return this.bases.get(app, id);
  }

  /**
   * The action's folder holds these versions of the server now (Pull wrote them; Create on Server made
   * the action with this metadata and no code): the next pushes are checked against them.
   */
  recordBases(
    app: Application,
    action: { readonly id: string; readonly key: string; readonly folder?: string },
    bases: { readonly metadata: BaseVersion; readonly implementation?: BaseVersion },
  ): void {
    this.bases.record(app, action, 'metadata', bases.metadata);
    if (bases.implementation) this.bases.record(app, action, 'implementation', bases.implementation);
  }

  /**
   * Create on Server: POSTs the folder's metadata, records it as the base, then pushes its main.ts by
   * hand. The server's id of the new action, or undefined when it was not created (the user is told).
   */
  createOnServer(app: Application, folder: vscode.Uri, metadata: ActionMetadata): Promise<string | undefined> {
    return onDemand<DeployOnDemand>(this.s.context).createOnServer(this.s, this, app, folder, metadata);
  }

  /** Pushes `text` as the code of the action holding `uri`, as a push by hand does (Run Tests on the Test environment). */
  pushCode(uri: vscode.Uri, text: string): Promise<PushResult> {
    return this.deployer.pushCode(uri, text, { manual: true });
  }

  /** Compare with Server for one part: the server's version beside the local file, when the server can return it. */
  compare(app: Application, folder: vscode.Uri, id: string, part: VersionedResource, label: string): Promise<ServerCopy | undefined> {
    return this.deployer.conflicts.compare(app, folder, id, part, label);
  }

  /** Merge with Server: the held push told, or else the action's part as it is. */
  merge(target: Pick<Conflict, 'app' | 'folder' | 'id' | 'part' | 'label'>): Promise<MergeOutcome> {
    return this.deployer.merge(target);
  }

  /** Overwrite Server Version: over the version a held push was told about, else a push by hand. */
  overwrite(folder: vscode.Uri, part: VersionedResource): Promise<unknown> {
    return this.deployer.overwrite(folder, part);
  }

  /** The held push of `part` of the action in `folder` that still stands, as last told. */
  standingConflict(folder: vscode.Uri, part: VersionedResource): Conflict | undefined {
    return this.made?.standingConflict(folder, part);
  }

  /** The parts of the action in `folder` with a held push that still stands. */
  standingParts(folder: vscode.Uri): VersionedResource[] {
    return this.made?.standingParts(folder) ?? [];
  }

  /** What the status bar item of a file held from auto-save offers, and the choice taken. */
  heldChoices(file: vscode.Uri): string[] {
    return this.made?.heldChoices(file) ?? [];
  }

  heldChoice(file: vscode.Uri, choice: string): Promise<unknown> {
    return this.deployer.heldChoice(file, choice);
  }

  /** Push Anyway of a save refused on its errors: the file as it is now. */
  pushAnyway(file: vscode.Uri): Promise<PushResult> {
    return this.deployer.pushAsItIs(file, 'code', { manual: false, anyway: true });
  }

  /** Redeploy This Version: `content` as `part` of the action, through the same queue and conflict check as a save. */
  redeploy(app: Application, folder: vscode.Uri, id: string, label: string, part: VersionedResource, content: string): Promise<PushResult> {
    return this.deployer.redeploy(app, folder, id, label, part, content);
  }

  /** The pushes from here of one action, newest first. */
  actionHistory(scope: Scope, actionId: string): Promise<HistoryEntry[]> {
    return this.history.entries(scope, actionId);
  }

  /** Push Implementation: a file (editor title), an action (tree), or the active editor's action; saves it first. */
  async pushByHand(arg: unknown): Promise<PushResult | undefined> {
    try {
      const uri = await this.codeUriOf(arg);
      if (!uri) return undefined;
      const open = openDocument(uri);
      if (open?.isDirty) {
        this.savingByHand.add(uri.toString());
        try {
          await open.save();
        } finally {
          this.savingByHand.delete(uri.toString());
        }
      }
      const text = await savedText(uri);
      if (text === undefined) throw new Error(`${uri.path} cannot be read.`);
      const replaces = this.savedTexts.latest(uri);
      return await this.deployer.pushCode(uri, text, { manual: true, ...(replaces === undefined ? {} : { replaces }) });
    } catch (error) {
      this.s.log.error(`Push Implementation: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(errorMessage(error));
      return undefined;
    }
  }

  private async codeUriOf(arg: unknown): Promise<vscode.Uri | undefined> {
    if (arg instanceof vscode.Uri) return arg;
    if (isNode(arg) && arg.kind === 'action') return arg.local ? mainOf(arg.local.folder) : undefined;
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active) {
      const file = await this.s.model.fileAt(active);
      if (file && isCodeFile(file)) return active;
      if (file) return mainOf(file.folder);
    }
    const action = await onDemand<DeployOnDemand>(this.s.context).pickAction(this.s, undefined, (a) => a.local !== undefined);
    return action?.local ? mainOf(action.local.folder) : undefined;
  }
}

/** Where bases were kept before customactions.lock.json: dropped (docs/deploy.md, *The base*). */
const OLD_BASES = ['customActions.deployBases.v2', 'customActions.deployBases'];
