import * as vscode from 'vscode';
import { trustPolicy, type TrustPolicy, untrustedMessage } from '../core/trust';
import { Disposable } from './lifecycle';

/** VS Code's own command for the Workspace Trust editor. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';
export const MANAGE_TRUST = 'Manage Workspace Trust';
/**
 * Registered in test runs only (ExtensionMode.Test), never contributed: the host tests run in a window
 * where trust is disabled (everything is trusted), so they take the untrusted side through it, and
 * trusting again goes the same way as VS Code's grant (docs/testing.md).
 */
export const SET_TRUST_FOR_TESTS_COMMAND = 'customActions.test.setWorkspaceTrust';

/** Thrown where something waits for trust (a request, the sandbox start): says so, in the user's words. */
export class UntrustedWorkspaceError extends Error {
  constructor(what: string) {
    super(untrustedMessage(what));
  }
}

/**
 * Whether the workspace is trusted, and what follows from it (src/core/trust). VS Code grants trust
 * while the window is open (onDidGrantWorkspaceTrust) and reloads the window to take it back, so the
 * state only ever goes from untrusted to trusted; listeners light their features up then.
 */
export class WorkspaceTrust extends Disposable {
  private trusted = vscode.workspace.isTrusted;
  private readonly changed = this.register(new vscode.EventEmitter<boolean>());
  readonly onDidChange = this.changed.event;

  constructor(testMode: boolean) {
    super();
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.set(true)));
    if (testMode) this.register(vscode.commands.registerCommand(SET_TRUST_FOR_TESTS_COMMAND, (trusted: unknown) => this.set(trusted === true)));
  }

  get isTrusted(): boolean {
    return this.trusted;
  }

  policy(settings: { readonly deployOnSave: boolean }): TrustPolicy {
    return trustPolicy(this.trusted, settings);
  }

  /** Throws UntrustedWorkspaceError unless trusted; `what` names what was asked for ("Pull"). */
  require(what: string): void {
    if (!this.trusted) throw new UntrustedWorkspaceError(what);
  }

  private set(trusted: boolean): void {
    if (trusted === this.trusted) return;
    this.trusted = trusted;
    this.changed.fire(trusted);
  }
}

/** Tells the user why nothing happened, with the way to trust the folder. */
export function explainUntrusted(error: UntrustedWorkspaceError): void {
  void vscode.window.showWarningMessage(error.message, MANAGE_TRUST).then((choice) => {
    if (choice === MANAGE_TRUST) void vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
  });
}
