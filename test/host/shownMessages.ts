import * as vscode from 'vscode';

export interface Shown {
  readonly kind: 'error' | 'warning' | 'information';
  readonly message: string;
  readonly modal: boolean;
  readonly detail: string | undefined;
  readonly buttons: readonly string[];
}

/**
 * Reads the exact text the extension hands to window.show*Message, and answers in place of the user
 * (`answer` returns the button to press, or undefined to dismiss). The tests load from inside the
 * extension's folder, so they share its `vscode` object and the replacement is what the extension
 * calls. Dispose in a `finally`.
 */
export function captureMessages(answer: (shown: Shown) => string | undefined = () => undefined): vscode.Disposable & { readonly shown: Shown[] } {
  const shown: Shown[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const names = { error: 'showErrorMessage', warning: 'showWarningMessage', information: 'showInformationMessage' } as const;
  const originals = Object.fromEntries(Object.values(names).map((name) => [name, window[name]]));
  for (const [kind, name] of Object.entries(names) as [Shown['kind'], string][]) {
    window[name] = (message: string, ...rest: unknown[]) => {
      const options = typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? (rest.shift() as vscode.MessageOptions) : undefined;
      const buttons = rest.map((b) => (typeof b === 'string' ? b : (b as vscode.MessageItem).title));
      const entry: Shown = { kind, message, modal: options?.modal === true, detail: options?.detail, buttons };
      shown.push(entry);
      const choice = answer(entry);
      const item = rest.find((b) => (typeof b === 'string' ? b : (b as vscode.MessageItem).title) === choice);
      return Promise.resolve(item);
    };
  }
  return { shown, dispose: () => Object.assign(window, originals) };
}
