import * as vscode from 'vscode';

/** The extension's diagnostics channel (the events have a channel of their own). */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Custom Actions', { log: true });
}
