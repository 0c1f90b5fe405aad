import * as vscode from 'vscode';

/** What the webview may load: the form's bundle and its stylesheet, nothing else. */
export function formResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media', 'form')];
}

/**
 * The page of the form. The script runs only with its nonce, styles come only from the extension's
 * own files (the elements' shadow styles are constructed sheets, which need no inline allowance).
 */
export function formHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = newNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'form.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'form', 'form.css'));
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `img-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${String(style)}">
  <title>${escapeHtml(title)}</title>
</head>
<body>
  <main id="app" aria-busy="true"><p class="loading">Loading the form…</p></main>
  <script nonce="${nonce}" src="${String(script)}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** 16 random bytes in base64, by the Web Crypto both Node and a browser's worker have. */
function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
