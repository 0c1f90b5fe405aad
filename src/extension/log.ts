import * as vscode from 'vscode';

/**
 * The extension's diagnostics channel. Anything written here goes through `redact`, so a key that
 * slipped into an error message from a server still never reaches the screen.
 */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Custom Actions', { log: true });
}

const BEARER = /(Bearer\s+)[^\s"',;]+/gi;

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(BEARER, '$1<redacted>');
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('<redacted>');
  return out;
}
