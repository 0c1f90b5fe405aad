import * as vscode from 'vscode';
import { type KeyStore } from './keyStore';
import { Disposable } from './lifecycle';
import type { SandboxManager as NodeSandboxManager, SandboxApplication, SandboxState } from './sandboxManager';

export type { SandboxApplication, SandboxStartTiming, SandboxState } from './sandboxManager';

/** Why `local-sandbox` does not work in VS Code for the Web, and what to do instead; every need of it says so. */
export const NO_LOCAL_SANDBOX =
  'VS Code for the Web runs no process, so it cannot start the local sandbox that "baseUrl: local-sandbox" asks for. ' +
  'Start one where Node runs ("custom-actions sandbox start" prints its URL and keys) or use a team sandbox, ' +
  "put that URL in customactions.yaml's baseUrl, and sign in with the key it gave you.";

/**
 * The local sandbox in a browser: it is never started (a browser's worker starts no process); every
 * need of it fails with what to do instead, and the state says so for the status bar.
 */
export class SandboxManager extends Disposable implements Pick<NodeSandboxManager, 'state' | 'onDidChangeState' | 'warmUp' | 'ensure' | 'stop'> {
  private readonly stateChanged = this.register(new vscode.EventEmitter<SandboxState>());
  readonly onDidChangeState = this.stateChanged.event;
  private current: SandboxState = { kind: 'stopped' };

  constructor(_extensionUri: vscode.Uri, _storageUri: vscode.Uri, _keys: KeyStore, _log: vscode.LogOutputChannel) {
    super();
  }

  get state(): SandboxState {
    return this.current;
  }

  warmUp(_applications: readonly SandboxApplication[], _demo: boolean): void {}

  ensure(_applications: readonly SandboxApplication[], _demo: boolean): Promise<string> {
    if (this.current.kind !== 'failed') {
      this.current = { kind: 'failed', message: NO_LOCAL_SANDBOX };
      this.stateChanged.fire(this.current);
    }
    return Promise.reject(new Error(NO_LOCAL_SANDBOX));
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}
