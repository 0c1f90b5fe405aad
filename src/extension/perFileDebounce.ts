import type * as vscode from 'vscode';

/** Runs `work` for a file once it has been quiet for the given delay; a newer request for the same file replaces the older one. */
export class PerFileDebounce implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly work: (uri: vscode.Uri) => void) {}

  schedule(uri: vscode.Uri, delayMs: number): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.work(uri);
      }, delayMs),
    );
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
  }
}
