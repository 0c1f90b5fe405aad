import * as vscode from 'vscode';

export type Severity = 'information' | 'warning' | 'error';

export interface Shown {
  readonly severity: Severity;
  readonly message: string;
  readonly modal: boolean;
  readonly detail: string | undefined;
  /** The titles of its buttons. */
  readonly items: readonly string[];
  /** Clicks one of its buttons (or dismisses it with undefined), as the user would, whenever the test wants. */
  answer(choice: string | undefined): void;
}

/** Answers a message the moment it is shown: the title of the button to press, or undefined to dismiss it. */
export type AutoAnswer = (shown: Shown) => string | undefined;

const METHODS = { information: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' } as const;

/**
 * Takes the place of window.show{Information,Warning,Error}Message while it is in use, modal dialogs
 * included (a real one would wait for a click no test can give). Every message the extension shows is
 * recorded with its exact text. Given `autoAnswer`, the spy answers each message at once as it says;
 * without it, each stays open until the test calls `answer`, so a button can be clicked long after the
 * message appeared.
 * The extension and the tests share one `vscode` API object (the tests are loaded from the extension's
 * own folder), so the replacement is what the extension calls. dispose() puts the real functions back
 * and dismisses what is left.
 */
export class NotificationSpy implements vscode.Disposable {
  readonly shown: Shown[] = [];
  private readonly originals = new Map<Severity, unknown>();
  private readonly open = new Set<(choice: string | undefined) => void>();

  constructor(autoAnswer?: AutoAnswer) {
    const window = vscode.window as unknown as Record<string, unknown>;
    for (const [severity, method] of Object.entries(METHODS) as [Severity, (typeof METHODS)[Severity]][]) {
      this.originals.set(severity, window[method]);
      window[method] = (message: unknown, ...rest: unknown[]) => {
        const options = typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? (rest.shift() as vscode.MessageOptions) : undefined;
        const titles = rest.map((item) => (typeof item === 'string' ? item : (item as vscode.MessageItem).title));
        return new Promise<unknown>((resolve) => {
          const answer = (choice: string | undefined) => {
            if (!this.open.delete(answer)) return;
            resolve(choice === undefined ? undefined : rest[titles.indexOf(choice)]);
          };
          this.open.add(answer);
          const shown: Shown = { severity, message: String(message), modal: options?.modal === true, detail: options?.detail, items: titles, answer };
          this.shown.push(shown);
          if (autoAnswer) answer(autoAnswer(shown));
        });
      };
    }
  }

  /** Messages shown so far whose text matches. */
  matching(pattern: RegExp): Shown[] {
    return this.shown.filter((s) => pattern.test(s.message));
  }

  /** Messages shown so far of one severity. */
  of(severity: Severity): Shown[] {
    return this.shown.filter((s) => s.severity === severity);
  }

  dispose(): void {
    const window = vscode.window as unknown as Record<string, unknown>;
    for (const [severity, original] of this.originals) window[METHODS[severity]] = original;
    for (const answer of [...this.open]) answer(undefined);
  }
}

/** What the extension showed while `run` ran, each message answered at once as `answer` says (dismissed by default). */
export async function shownWhile(run: () => Thenable<unknown>, answer: AutoAnswer = () => undefined): Promise<Shown[]> {
  const spy = new NotificationSpy(answer);
  try {
    await run();
    return [...spy.shown];
  } finally {
    spy.dispose();
  }
}
