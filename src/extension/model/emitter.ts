import type * as vscode from 'vscode';
import { reportUnexpectedError } from '../unexpectedErrors';

/**
 * An event source with the shape of `vscode.EventEmitter`, without the `vscode` module, so the
 * model it serves runs in plain Node under the unit tests.
 */
export class Emitter<T> implements vscode.Disposable {
  private listeners = new Set<(value: T) => unknown>();

  readonly event: vscode.Event<T> = (listener, thisArgs?, disposables?) => {
    const bound = (value: T) => listener.call(thisArgs, value);
    this.listeners.add(bound);
    const subscription = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(subscription);
    return subscription;
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // One failing listener must not keep the news from the others, nor fail without a trace.
        reportUnexpectedError(error, 'an event listener');
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
