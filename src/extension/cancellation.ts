import type * as vscode from 'vscode';

/** An AbortSignal that follows a VS Code cancellation token, for the client's requests. */
export function abortOn(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
