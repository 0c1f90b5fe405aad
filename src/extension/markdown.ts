import * as vscode from 'vscode';

/**
 * A MarkdownString for text that holds server (or cloned-workspace) text, each piece passed through
 * serverMarkdown: it runs no command link, renders no HTML and draws no icons. These are VS Code's
 * defaults, set here anyway so no later change of a default or of a caller turns them on.
 */
export function untrustedMarkdown(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
