import * as vscode from 'vscode';
import { ApiError } from '../../core/client';
import { type Parts } from '../parts';
import { errorMessage } from '../connections';
import { explainUntrusted, UntrustedWorkspaceError } from '../trust';

/**
 * Registers every command package.json contributes. What a command does is in the table `handlers`
 * hands over (handlers/table.ts, in the on-demand bundle: activation passes a function that loads it on
 * the first command run, not at activation), called with `s`, which only activation knows whole.
 * The failures of every command are reported here, once.
 */
export function registerCommands<S extends Pick<Parts, 'context' | 'log'>>(
  s: S,
  handlers: () => Readonly<Record<string, (s: S, ...args: unknown[]) => unknown>>,
): vscode.Disposable[] {
  const manifest = s.context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } };
  return (manifest.contributes?.commands ?? []).map(({ command: id }) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        const handler = handlers()[id];
        if (!handler) throw new Error(`The command ${id} has no handler in this build of the extension.`);
        return await handler(s, ...args);
      } catch (error) {
        // The user cancelled: nothing to report.
        if (error instanceof ApiError && error.kind === 'cancelled') return undefined;
        // Waiting for trust is not a failure: say so, with the way to trust the folder.
        if (error instanceof UntrustedWorkspaceError) return explainUntrusted(error);
        // Commands report their own failures once, where the user is looking, and keep the details in the log.
        s.log.error(`${id}: ${errorMessage(error)}`);
        void vscode.window.showErrorMessage(errorMessage(error));
        return undefined;
      }
    }),
  );
}
