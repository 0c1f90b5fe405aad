import * as vscode from 'vscode';
import { assertInsideWorkspace, exists, readText } from './files';

const REPLACE = 'Replace';

/**
 * Whether a command may write `text` over `uri`: yes when the file is absent or holds that text
 * already; never when it is open with unsaved changes (the user is told); when it differs, only if the
 * user says so in a modal. `what` names the command, for the question. Throws an `OutsideWorkspaceError`
 * first when a write at `uri` would follow a link out of the workspace, so nothing is asked in vain.
 */
export async function mayReplaceFile(uri: vscode.Uri, text: string, what: string): Promise<boolean> {
  await assertInsideWorkspace(uri);
  const name = uri.path.split('/').pop() ?? uri.path;
  if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.isDirty)) {
    void vscode.window.showWarningMessage(`${what} wrote nothing: ${name} has unsaved changes in an editor. Save or revert them, then try again.`);
    return false;
  }
  let current: string | undefined;
  try {
    current = await readText(uri);
  } catch {
    // Absent, or there but unreadable: only the latter holds anything to lose.
    if (!(await exists(uri))) return true;
  }
  if (current === text) return true;
  const choice = await vscode.window.showWarningMessage(
    `${name} exists already. Replace it?`,
    { modal: true, detail: `${what} would write a new ${name} over the one in the workspace.` },
    REPLACE,
  );
  return choice === REPLACE;
}
