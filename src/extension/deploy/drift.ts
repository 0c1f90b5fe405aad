import * as vscode from 'vscode';
import { errorMessage } from '../connections';
import { Disposable } from '../lifecycle';
import { type Parts } from '../parts';
import { baseAfter, codeHash, metadataHash } from '../../core/deploy/base';
import { changedSinceBase, type Part } from '../../core/deploy/decide';
import { type Application } from '../project';
import { mainOf, readActionYaml, savedText } from './locate';
import { type LockStore } from '../lockStore';
import { type DeployStatusItem } from './statusItem';

/** An action's versions are asked again at most this often, however often its files are shown. */
const RECHECK_MS = 10_000;

/**
 * Registered in test runs only (ExtensionMode.Test), never contributed: does what the window regaining
 * focus does (the active file's action is checked again, however recently it was), which a host test
 * cannot make the window do. It returns when the check is done; the test reads its effects (the tree's
 * out-of-step mark, the status bar, the lock), as the user does.
 */
export const REGAIN_FOCUS_FOR_TESTS_COMMAND = 'customActions.test.regainWindowFocus';

/**
 * Out of step: whether an action changed on the server since this workspace last pulled or pushed it,
 * by the core's rule (its content against the base's, `changedSinceBase`). Asked for the action of the file the
 * user brings up (and again when the window regains focus), never for actions nobody looks at; the
 * answer goes to the model (the tree shows it) and, for the active file, to the status bar.
 */
export class DriftWatch extends Disposable {
  private readonly checked = new Map<string, number>();

  constructor(
    private readonly s: Pick<Parts, 'connections' | 'context' | 'log' | 'model' | 'trust'>,
    private readonly bases: LockStore,
    private readonly status: () => DeployStatusItem,
  ) {
    super();
    this.register(vscode.window.onDidChangeActiveTextEditor((e) => e && void this.checkFile(e.document.uri)));
    this.register(vscode.window.onDidChangeWindowState((state) => state.focused && void this.focused()));
    if (s.context.extensionMode === vscode.ExtensionMode.Test)
      this.register(vscode.commands.registerCommand(REGAIN_FOCUS_FOR_TESTS_COMMAND, async () => void (await this.focused())));
  }

  /** The window regained focus: the user may have been elsewhere a while, so the active file's action is checked again. */
  private async focused(): Promise<void> {
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active) await this.checkFile(active, true);
  }

  /** Checks the action of `uri` (a file of an action folder), unless it was checked a moment ago. */
  private async checkFile(uri: vscode.Uri, again = false): Promise<boolean | undefined> {
    try {
      if (!this.s.trust.isTrusted) return undefined;
      const file = await this.s.model.fileAt(uri);
      if (!file) return undefined;
      const action = await this.s.model.actionAt(uri);
      if (!action?.remote) return undefined;
      const key = `${action.app.uid}\u0000${action.remote.id}`;
      const last = this.checked.get(key);
      if (!again && last !== undefined && Date.now() - last < RECHECK_MS) return action.outOfStep;
      this.checked.set(key, Date.now());
      if (action.local) await this.adopt(action.app, { id: action.remote.id, key: action.key }, action.local.folder);
      const changed = await this.changedOnServer(action.app, action.remote.id);
      if (changed === undefined) return undefined;
      this.s.model.serverChanged(action.app, action.remote.id, changed);
      if (changed && vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()) this.status().outOfStep(action.key);
      return changed;
    } catch (error) {
      // A check is a courtesy: an unreachable server or a missing key is told by what the user does next.
      this.s.log.info(`Could not check whether ${uri.path} changed on the server: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /**
   * A part with no base whose saved file is exactly what the server holds (a checkout of a repository
   * that never committed its lock, the demo workspace): that version is the base, as a deploy from the
   * command line records it when it finds the two the same. Done when the file is brought up, so the
   * saves that follow are checked against it instead of held for want of a base.
   */
  private async adopt(app: Application, action: { readonly id: string; readonly key: string }, folder: vscode.Uri): Promise<void> {
    const base = await this.bases.get(app, action.id);
    const parts = (['implementation', 'metadata'] as const).filter((part) => base?.[part] === undefined);
    if (parts.length === 0) return;
    const local: Partial<Record<Part, string>> = {};
    if (parts.includes('implementation')) {
      const text = await savedText(mainOf(folder));
      if (text !== undefined) local.implementation = codeHash(text);
    }
    if (parts.includes('metadata')) {
      const yaml = await readActionYaml(folder, 'saved');
      if (yaml?.metadata) local.metadata = metadataHash(yaml.metadata);
    }
    if (local.implementation === undefined && local.metadata === undefined) return;
    await this.s.connections.call(
      app,
      async (client) => {
        const capabilities = await client.capabilities();
        if (local.implementation !== undefined && capabilities.getImplementation) {
          const { code, etag } = await client.getImplementationVersioned(action.id);
          const same = baseAfter({
            kind: 'confirmed',
            localHash: local.implementation,
            server: { etag, ...(code === undefined ? {} : { hash: codeHash(code) }) },
          });
          if (same) this.bases.record(app, action, 'implementation', same);
        }
        if (local.metadata !== undefined && capabilities.getAction) {
          const { action: metadata, etag } = await client.getActionVersioned(action.id);
          const same = baseAfter({ kind: 'confirmed', localHash: local.metadata, server: { etag, hash: metadataHash(metadata) } });
          if (same) this.bases.record(app, action, 'metadata', same);
        }
      },
      { waitForKey: false },
    );
  }

  /**
   * Whether a part with a known base holds other content on the server now, by the core's rule
   * (`changedSinceBase`, as a deploy's hold and `custom-actions status` judge it); undefined when
   * nothing can be told.
   */
  private async changedOnServer(app: Application, id: string): Promise<boolean | undefined> {
    const base = await this.bases.get(app, id);
    if (!base?.implementation && !base?.metadata) return undefined;
    return this.s.connections.call(
      app,
      async (client) => {
        const capabilities = await client.capabilities();
        const changed: (boolean | undefined)[] = [];
        if (base.implementation && capabilities.getImplementation) {
          const { code, etag } = await client.getImplementationVersioned(id);
          changed.push(changedSinceBase(base.implementation, code === undefined ? { absent: true } : { hash: codeHash(code), etag }));
        }
        if (base.metadata && capabilities.getAction) {
          const { action, etag } = await client.getActionVersioned(id);
          changed.push(changedSinceBase(base.metadata, { hash: metadataHash(action), etag }));
        }
        return changed.length === 0 ? undefined : changed.some((c) => c === true);
      },
      { waitForKey: false },
    );
  }
}
