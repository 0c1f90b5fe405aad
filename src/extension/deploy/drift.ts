import * as vscode from 'vscode';
import { type VersionedResource } from '../../core/client';
import { errorMessage } from '../connections';
import { Disposable } from '../lifecycle';
import { type Services } from '../services';
import { type Application } from '../project';
import { type LockStore } from './lockStore';
import { type DeployStatusItem } from './statusItem';

/** An action's versions are asked again at most this often, however often its files are shown. */
const RECHECK_MS = 10_000;

/**
 * Out of step: whether an action changed on the server since this workspace last pulled or pushed it,
 * found by comparing the server's version tags with the base. Asked for the action of the file the
 * user brings up (and again when the window regains focus), never for actions nobody looks at; the
 * answer goes to the model (the tree shows it) and, for the active file, to the status bar.
 */
export class DriftWatch extends Disposable {
  private readonly checked = new Map<string, number>();

  constructor(
    private readonly s: Services,
    private readonly bases: LockStore,
    private readonly status: DeployStatusItem,
  ) {
    super();
    this.register(vscode.window.onDidChangeActiveTextEditor((e) => e && void this.checkFile(e.document.uri)));
    this.register(
      vscode.window.onDidChangeWindowState((state) => {
        const active = vscode.window.activeTextEditor?.document.uri;
        if (state.focused && active) void this.checkFile(active, true);
      }),
    );
  }

  /** Checks the action of `uri` (a file of an action folder), unless it was checked a moment ago. */
  async checkFile(uri: vscode.Uri, again = false): Promise<boolean | undefined> {
    try {
      if (!this.s.trust.isTrusted) return undefined;
      const file = await this.s.model.fileAt(uri);
      if (!file) return undefined;
      const action = await this.s.model.actionAt(uri);
      if (!action?.remote) return undefined;
      const key = `${action.app.id}\u0000${action.remote.id}`;
      const last = this.checked.get(key);
      if (!again && last !== undefined && Date.now() - last < RECHECK_MS) return action.outOfStep;
      this.checked.set(key, Date.now());
      const changed = await this.changedOnServer(action.app, action.remote.id);
      if (changed === undefined) return undefined;
      this.s.model.serverChanged(action.app, action.remote.id, changed);
      if (changed && vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()) this.status.outOfStep(action.key);
      return changed;
    } catch (error) {
      // A check is a courtesy: an unreachable server or a missing key is told by what the user does next.
      this.s.log.info(`Could not check whether ${uri.path} changed on the server: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** Whether a part with a known base has another version on the server now; undefined when nothing can be told. */
  private async changedOnServer(app: Application, id: string): Promise<boolean | undefined> {
    const base = await this.bases.get(app, id);
    if (!base?.implementation?.etag && !base?.metadata?.etag) return undefined;
    return this.s.connections.call(
      app,
      async (client) => {
        const capabilities = await client.capabilities();
        const now: Partial<Record<VersionedResource, string | undefined>> = {};
        if (base.implementation?.etag && capabilities.getImplementation) now.implementation = (await client.getImplementationVersioned(id)).etag;
        if (base.metadata?.etag && capabilities.getAction) now.metadata = (await client.getActionVersioned(id)).etag;
        const parts = (Object.keys(now) as VersionedResource[]).filter((part) => now[part] !== undefined);
        if (parts.length === 0) return undefined;
        return parts.some((part) => now[part] !== base[part]?.etag);
      },
      { waitForKey: false },
    );
  }
}
