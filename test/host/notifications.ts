import * as vscode from 'vscode';

export type Severity = 'information' | 'warning' | 'error';

export interface Shown {
  readonly severity: Severity;
  readonly message: string;
  readonly items: readonly string[];
  /** Clicks one of its buttons (or dismisses it with undefined), as the user would, whenever the test wants. */
  answer(choice: string | undefined): void;
}

const METHODS = { information: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' } as const;

/**
 * Takes the place of window.show{Information,Warning,Error}Message while it is in use: every
 * notification the extension shows is recorded and stays unanswered until the test answers it, so a
 * test can click a button long after the notification appeared. The extension and the tests share
 * one `vscode` API object (the tests are loaded from the extension's own folder). Modal dialogs
 * pass through to the real functions. dispose() puts the real functions back and dismisses what is left.
 */
export class NotificationSpy implements vscode.Disposable {
  readonly shown: Shown[] = [];
  private readonly originals = new Map<Severity, unknown>();
  private readonly open = new Set<(choice: string | undefined) => void>();

  constructor() {
    const window = vscode.window as unknown as Record<string, (...args: unknown[]) => Thenable<unknown>>;
    for (const [severity, method] of Object.entries(METHODS) as [Severity, (typeof METHODS)[Severity]][]) {
      const original = window[method];
      if (!original) throw new Error(`vscode.window.${method} is missing`);
      this.originals.set(severity, original);
      window[method] = (message: unknown, ...rest: unknown[]) => {
        const options = typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? (rest[0] as vscode.MessageOptions) : undefined;
        if (options?.modal) return original.call(vscode.window, message, ...rest);
        const items = rest.filter((r): r is string => typeof r === 'string');
        return new Promise<string | undefined>((resolve) => {
          const answer = (choice: string | undefined) => {
            if (!this.open.delete(answer)) return;
            resolve(choice);
          };
          this.open.add(answer);
          this.shown.push({ severity, message: String(message), items, answer });
        });
      };
    }
  }

  /** Notifications shown so far whose message matches. */
  matching(pattern: RegExp): Shown[] {
    return this.shown.filter((s) => pattern.test(s.message));
  }

  dispose(): void {
    const window = vscode.window as unknown as Record<string, unknown>;
    for (const [severity, original] of this.originals) window[METHODS[severity]] = original;
    for (const answer of [...this.open]) answer(undefined);
  }
}
