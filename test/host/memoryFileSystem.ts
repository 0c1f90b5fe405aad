import * as vscode from 'vscode';

type Entry = { type: vscode.FileType.File; data: Uint8Array; mtime: number } | { type: vscode.FileType.Directory; mtime: number };

/**
 * A file system in memory for tests, registered under its own scheme. Like every provider an extension
 * registers, it offers no trash: `workspace.fs.delete(…, { useTrash: true })` on it fails as it does on
 * code-server's remote file system.
 */
export class MemoryFileSystem implements vscode.FileSystemProvider {
  static readonly scheme = 'custom-actions-test-memory';
  private readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, mtime: Date.now() }]]);
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.get(uri);
    return { type: entry.type, ctime: entry.mtime, mtime: entry.mtime, size: entry.type === vscode.FileType.File ? entry.data.length : 0 };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path === '/' ? '/' : `${uri.path}/`;
    return [...this.entries]
      .filter(([path]) => path !== uri.path && path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
      .map(([path, entry]) => [path.slice(prefix.length), entry.type]);
  }

  createDirectory(uri: vscode.Uri): void {
    this.parent(uri);
    this.entries.set(uri.path, { type: vscode.FileType.Directory, mtime: Date.now() });
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.get(uri);
    if (entry.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    return entry.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.parent(uri);
    this.entries.set(uri.path, { type: vscode.FileType.File, data: content, mtime: Date.now() });
  }

  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void {
    this.get(uri);
    const below = [...this.entries.keys()].filter((path) => path.startsWith(`${uri.path}/`));
    if (below.length > 0 && !options.recursive) throw vscode.FileSystemError.NoPermissions('not empty');
    for (const path of [uri.path, ...below]) this.entries.delete(path);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('rename is not needed by the tests');
  }

  private get(uri: vscode.Uri): Entry {
    const entry = this.entries.get(uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }

  private parent(uri: vscode.Uri): void {
    const parent = uri.path.slice(0, uri.path.lastIndexOf('/')) || '/';
    if (this.entries.get(parent)?.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotFound(parent);
  }
}
