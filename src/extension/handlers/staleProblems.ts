import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { isUnder, stillThere } from './removeFolder';

/** Diagnostics come in bursts (syntax, semantics, other checkers): one look after they settle. */
const SETTLE_MS = 500;
const RESTART_TYPESCRIPT = 'typescript.restartTsServer';

/**
 * Problems of files that Delete Action removed, for the rest of the session: a file that no longer
 * exists shows none, however late a checker's answer comes. Deleted through the workbench
 * (removeFolder.ts), a file's documents close and the TypeScript server drops its problems; one of its
 * answers that arrives after the close is still listed, and nothing takes it back
 * (microsoft/vscode#182126). So whenever the diagnostics of a file under a removed folder change, and
 * another checker (not ours: the code checks go with the file in CodeDiagnostics) lists problems for
 * it while it no longer exists and no document holds it, the TypeScript server is restarted, the one
 * way to make it forget them. At most once per removal, so that no checker's answer can make it
 * restart again and again. A document still held (by the trash path's `workspace.fs`, which does not
 * let go of documents another extension opened) closes within VS Code's three minutes, and its
 * problems go with it: a restart would bring them back, since the server opens every open document.
 */
export class StaleProblems extends Disposable {
  private readonly removed: vscode.Uri[] = [];
  /** Restarts allowed: one per removal not yet used. */
  private restarts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private looking = false;
  /** Diagnostics changed during a look: one more after it. */
  private again = false;

  constructor(
    private readonly ours: string,
    private readonly log: Pick<vscode.LogOutputChannel, 'info'>,
    private readonly restart: () => Promise<unknown> = restartTypeScript,
  ) {
    super();
    this.register(
      vscode.languages.onDidChangeDiagnostics((e) => {
        if (e.uris.some((uri) => this.isRemoved(uri))) this.schedule();
      }),
    );
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  /** A folder Delete Action removed: its files' problems are looked at now and whenever they change. */
  folderRemoved(folder: vscode.Uri): void {
    if (!this.removed.some((f) => f.toString() === folder.toString())) this.removed.push(folder);
    this.restarts = Math.min(this.restarts + 1, 2);
    this.schedule();
  }

  /** Files under a removed folder that another checker lists problems for, gone from disk and from every document. */
  async stale(): Promise<vscode.Uri[]> {
    const found: vscode.Uri[] = [];
    for (const [uri, problems] of vscode.languages.getDiagnostics()) {
      if (!this.isRemoved(uri) || !problems.some((p) => p.source !== this.ours)) continue;
      // Made again (a pull, New Action with the same key): its problems are true.
      if (await stillThere(uri)) continue;
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) {
        this.log.info(`Problems of ${vscode.workspace.asRelativePath(uri)}, deleted, stay while a document of it is open.`);
        continue;
      }
      found.push(uri);
    }
    return found;
  }

  private isRemoved(uri: vscode.Uri): boolean {
    return this.removed.some((folder) => isUnder(folder, uri));
  }

  private schedule(): void {
    if (this.isDisposed) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => void this.look().catch((error: unknown) => this.log.info(`Problems of deleted files not dropped: ${String(error)}`)),
      SETTLE_MS,
    );
  }

  private async look(): Promise<void> {
    if (this.looking || this.restarts === 0) return;
    this.looking = true;
    try {
      const left = await this.stale();
      if (left.length === 0 || this.isDisposed) return;
      this.restarts -= 1;
      this.log.info(`A checker still listed problems of ${left.length} deleted file(s); the TypeScript server is restarted to drop them.`);
      await this.restart();
    } finally {
      this.looking = false;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }
}

/** Restarts the TypeScript server, where VS Code's TypeScript support runs (it may be disabled). */
async function restartTypeScript(): Promise<void> {
  if ((await vscode.commands.getCommands(true)).includes(RESTART_TYPESCRIPT)) await vscode.commands.executeCommand(RESTART_TYPESCRIPT);
}

const sessions = new WeakMap<vscode.ExtensionContext, StaleProblems>();

/** The session's one watcher, made on the first removal and disposed of with the extension. */
export function staleProblemsOf(
  s: { readonly context: vscode.ExtensionContext; readonly log: Pick<vscode.LogOutputChannel, 'info'> },
  ours: string,
): StaleProblems {
  let watcher = sessions.get(s.context);
  if (!watcher) {
    watcher = new StaleProblems(ours, s.log);
    s.context.subscriptions.push(watcher);
    sessions.set(s.context, watcher);
  }
  return watcher;
}
