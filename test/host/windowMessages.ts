import * as vscode from 'vscode';

export type MessageKind = 'error' | 'warning' | 'information';

export interface ShownMessage {
  readonly kind: MessageKind;
  readonly message: string;
  readonly modal: boolean;
  readonly detail: string | undefined;
  readonly buttons: readonly string[];
}

/** Picks the answer to a message the extension shows; undefined dismisses it. */
export type Answer = (shown: ShownMessage) => string | undefined;

export interface MessageSpy {
  readonly shown: ShownMessage[];
  of(kind: MessageKind): ShownMessage[];
  restore(): void;
}

/**
 * Records every `window.show*Message` and answers it, so a test can see what the user would have been
 * told and click a button of a modal. The tests share the extension's `vscode` API object (they load
 * from inside its folder), so replacing the functions here replaces them for the extension. Always
 * `restore()` in a `finally`.
 */
export function spyMessages(answer: Answer = () => undefined): MessageSpy {
  const shown: ShownMessage[] = [];
  const window = vscode.window as unknown as Record<`show${'Error' | 'Warning' | 'Information'}Message`, unknown>;
  const originals = {
    showErrorMessage: window.showErrorMessage,
    showWarningMessage: window.showWarningMessage,
    showInformationMessage: window.showInformationMessage,
  };
  const fake =
    (kind: MessageKind) =>
    (message: string, ...rest: unknown[]): Promise<string | undefined> => {
      const options = typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? (rest.shift() as vscode.MessageOptions) : undefined;
      const buttons = rest.map((b) => (typeof b === 'string' ? b : (b as vscode.MessageItem).title));
      const entry: ShownMessage = { kind, message, modal: options?.modal === true, detail: options?.detail, buttons };
      shown.push(entry);
      return Promise.resolve(answer(entry));
    };
  window.showErrorMessage = fake('error');
  window.showWarningMessage = fake('warning');
  window.showInformationMessage = fake('information');
  return {
    shown,
    of: (kind) => shown.filter((m) => m.kind === kind),
    restore: () => Object.assign(window, originals),
  };
}
