import * as vscode from 'vscode';
import { ACTION_FILE } from '../../core/workspace';
import { Disposable } from '../lifecycle';
import { type ProjectModel } from '../project';

/**
 * The action.yaml files created, changed or deleted on disk, as one stream for every part that follows
 * them (the model, the generated types).
 *
 * VS Code's recursive watcher on Linux (inotify) does not look into a folder that appears after it
 * started: a file written into a new folder a moment after the folder was made is never told of (a
 * `git pull` bringing a new action; VS Code leaves it to the watcher it uses, parcel-bundler/watcher
 * #97 and #243). The new folder itself is told of, in its application's folder, which was there
 * before: so each application's folder is watched for new entries, and a new folder that holds an
 * action.yaml is told of as that file's creation. A file told of twice is harmless: every listener
 * reads the disk again.
 */
export class ActionFileEvents extends Disposable {
  private readonly created = this.register(new vscode.EventEmitter<vscode.Uri>());
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  private readonly deleted = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidCreate = this.created.event;
  readonly onDidChange = this.changed.event;
  readonly onDidDelete = this.deleted.event;
  /** The watchers of the application folders, by folder, made anew as the projects change. */
  private folders = new Map<string, vscode.Disposable>();

  constructor(private readonly project: Pick<ProjectModel, 'projects' | 'onDidChange'>) {
    super();
    const files = this.register(vscode.workspace.createFileSystemWatcher(`**/${ACTION_FILE}`));
    this.register(files.onDidCreate((uri) => this.created.fire(uri)));
    this.register(files.onDidChange((uri) => this.changed.fire(uri)));
    this.register(files.onDidDelete((uri) => this.deleted.fire(uri)));
    // The application folders are known once the projects were read (for the tree, a save): nothing is read for this.
    this.register(project.onDidChange(() => this.watchFolders()));
    this.register({ dispose: () => this.folders.forEach((w) => w.dispose()) });
  }

  private watchFolders(): void {
    const wanted = new Map<string, vscode.Uri>();
    for (const p of this.project.projects) if (p.kind === 'ok') for (const app of p.applications) wanted.set(app.folderUri.toString(), app.folderUri);
    const next = new Map<string, vscode.Disposable>();
    for (const [key, folder] of wanted) next.set(key, this.folders.get(key) ?? this.watchFolder(folder));
    for (const [key, watcher] of this.folders) if (!next.has(key)) watcher.dispose();
    this.folders = next;
  }

  /** New entries directly in an application's folder (not recursive: VS Code watches that folder itself). */
  private watchFolder(folder: vscode.Uri): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '*'), false, true, true);
    const listening = watcher.onDidCreate((uri) => void this.newEntry(uri));
    return vscode.Disposable.from(listening, watcher);
  }

  private async newEntry(entry: vscode.Uri): Promise<void> {
    const file = vscode.Uri.joinPath(entry, ACTION_FILE);
    const stat = await vscode.workspace.fs.stat(file).then(
      (s) => s,
      () => undefined,
    );
    if (stat && stat.type & vscode.FileType.File && !this.isDisposed) this.created.fire(file);
  }
}
