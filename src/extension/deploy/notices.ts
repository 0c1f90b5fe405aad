import type * as vscode from 'vscode';
import { errorMessage } from '../connections';

/**
 * The notifications of save to deploy: at most one per condition ("the code of X was not pushed",
 * "main.ts of X has errors") while that condition lasts. VS Code cannot take a notification off the
 * screen, so a condition that ended (a later push went through) is only forgotten here, and the next
 * failure notifies anew. The buttons never carry the content of the save that raised them: the
 * caller's `act` reads the file when the button is clicked.
 */
export class Notices {
  private readonly open = new Map<string, object>();

  constructor(private readonly log: vscode.LogOutputChannel) {}

  /** Shows a notification for `key` unless one is open for it; `act` runs the button clicked. */
  show(key: string, show: () => Thenable<string | undefined>, act: (choice: string) => unknown): void {
    if (this.open.has(key)) return;
    const token = {};
    this.open.set(key, token);
    // Closed as soon as it is answered, so a button whose push fails again can notify again.
    const answered = (choice: string | undefined) => {
      if (this.open.get(key) === token) this.open.delete(key);
      return choice;
    };
    void Promise.resolve(show())
      .then(answered, (error: unknown) => {
        answered(undefined);
        throw error;
      })
      .then((choice) => (choice === undefined ? undefined : act(choice)))
      .catch((error: unknown) => this.log.error(errorMessage(error)));
  }

  /** The conditions are over (a later push went through): whatever fails next is told again. */
  end(...keys: readonly string[]): void {
    for (const key of keys) this.open.delete(key);
  }
}
