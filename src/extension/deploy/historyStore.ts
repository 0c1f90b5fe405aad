import * as vscode from 'vscode';
import { addEntry, entriesIn, type HistoryEntry, type HistoryLimits, HISTORY_LIMITS, readEntries } from '../../core/deploy/history';
import { type Scope } from '../../core/deploy/scope';

const FILE = 'deploy-history.json';

/**
 * The deploy history in one file of the extension's global storage, so it survives restarts and is
 * shared by the windows of this machine. Read once, on first use; every record is written behind, in
 * order, and never awaited by the push it records.
 */
export class DeployHistoryStore {
  private readonly recorded = new vscode.EventEmitter<Omit<HistoryEntry, 'id'>>();
  /** An entry was added (in memory; the file follows): the views that list its action read them again. */
  readonly onDidRecord = this.recorded.event;
  private loaded: Promise<HistoryEntry[]> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private counter = 0;

  constructor(
    private readonly storage: vscode.Uri,
    private readonly log: Pick<vscode.LogOutputChannel, 'warn'>,
    private readonly limits: HistoryLimits = HISTORY_LIMITS,
  ) {}

  private get file(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, FILE);
  }

  /** The entries of one action of one application on one server, newest first. */
  async entries(scope: Scope, actionId: string): Promise<HistoryEntry[]> {
    return entriesIn(await this.load(), scope, actionId).reverse();
  }

  /**
   * Adds an accepted push, in the order of the calls even when its entry is still being made; returns
   * when it is on disk (callers on a push's path do not wait).
   */
  record(entry: Omit<HistoryEntry, 'id'> | Promise<Omit<HistoryEntry, 'id'>>): Promise<void> {
    const counter = ++this.counter;
    this.writing = this.writing.then(async () => {
      try {
        const made = await entry;
        const next = addEntry(await this.load(), { ...made, id: `${made.time}#${counter}` }, this.limits);
        this.loaded = Promise.resolve(next);
        this.recorded.fire(made);
        await vscode.workspace.fs.createDirectory(this.storage);
        await vscode.workspace.fs.writeFile(this.file, new TextEncoder().encode(JSON.stringify(next)));
      } catch (error) {
        this.log.warn(`The deploy history could not be written: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return this.writing;
  }

  dispose(): void {
    this.recorded.dispose();
  }

  private load(): Promise<HistoryEntry[]> {
    this.loaded ??= Promise.resolve(vscode.workspace.fs.readFile(this.file)).then(
      (bytes) => {
        try {
          return readEntries(JSON.parse(new TextDecoder().decode(bytes)));
        } catch {
          this.log.warn('The deploy history file is not readable; it starts anew.');
          return [];
        }
      },
      () => [],
    );
    return this.loaded;
  }
}
