import type * as vscode from 'vscode';
import { reportUnexpectedError } from './unexpectedErrors';

/** Owns what it registers and disposes of it with itself, so nothing long-lived leaks. */
export abstract class Disposable implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  protected register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d.dispose();
      } catch (error) {
        // One failing disposable must not keep the others alive, nor fail without a trace.
        reportUnexpectedError(error, `disposing of ${this.constructor.name}`);
      }
    }
  }
}
