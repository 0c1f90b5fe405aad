import * as vscode from 'vscode';

/** What became of an action folder the user asked to remove. */
export type FolderRemoval = 'trashed' | 'deleted' | 'kept';

export const DELETE_PERMANENTLY = 'Delete Permanently';

/**
 * Moves an action folder to the trash, or, where the file system has none (VS Code for the Web,
 * code-server's remote file system, file systems of other extensions), deletes it for good once the
 * user agrees in a modal that says it cannot be undone. VS Code offers no way to ask a file system
 * whether it has a trash, so the trash is tried first and its refusal is the answer. The refusal's own
 * words name the file system's address scheme (`vscode-remote://…`): they go to the log, not the dialog.
 * The caller checks first that the folder is inside the workspace (`assertInsideWorkspace`, as Delete does).
 */
export async function removeActionFolder(folder: vscode.Uri, key: string, log?: Pick<vscode.LogOutputChannel, 'info'>): Promise<FolderRemoval> {
  try {
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: true });
    return 'trashed';
  } catch (error) {
    log?.info(`The folder of ${key} could not be moved to the trash: ${error instanceof Error ? error.message : String(error)}`);
    const choice = await vscode.window.showWarningMessage(
      `The folder of "${key}" cannot be moved to the trash here. Delete it permanently?`,
      {
        modal: true,
        detail: `${vscode.workspace.asRelativePath(folder)} and everything in it will be deleted. This folder's file system has no trash, so it cannot be restored once deleted.`,
      },
      DELETE_PERMANENTLY,
    );
    if (choice !== DELETE_PERMANENTLY) return 'kept';
    await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    return 'deleted';
  }
}

/** How long the documents of closed tabs are waited for: VS Code closes them a moment after their tabs. */
const DOCUMENTS_CLOSE_MS = 3_000;

/**
 * Closes the editors of files inside a folder about to be deleted (or just deleted), which would
 * otherwise go on showing them (the metadata form saying they can be pushed), and waits until their
 * documents are closed. Closed before the files go, the TypeScript server hears that main.ts is
 * closed while its generated types still exist: it reports nothing more for it, and drops what it
 * had reported. Deleted while open, the files' vanishing makes it check main.ts again, and a result
 * that arrives after the close is listed in the Problems panel for a file that no longer exists.
 * An editor with unsaved changes stays: they are the user's to keep or drop. Resolves to what opens
 * the closed editors again, should the folder stay after all.
 */
export async function closeEditorsIn(folder: vscode.Uri): Promise<() => Promise<void>> {
  const inside = (uri: vscode.Uri) =>
    uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(`${folder.path.replace(/\/$/, '')}/`);
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => !tab.isDirty && urisOf(tab.input).some(inside));
  if (tabs.length === 0) return () => Promise.resolve();
  const reopen = async () => {
    for (const tab of tabs) {
      if (tab.input instanceof vscode.TabInputCustom)
        await vscode.commands.executeCommand('vscode.openWith', tab.input.uri, tab.input.viewType, { preview: false });
      else if (tab.input instanceof vscode.TabInputText) await vscode.window.showTextDocument(tab.input.uri, { preview: false });
    }
  };
  const closing = new Set(tabs.flatMap((tab) => urisOf(tab.input)).map((uri) => uri.toString()));
  const stillOpen = () => vscode.workspace.textDocuments.some((d) => closing.has(d.uri.toString()) && !d.isDirty);
  let closed: vscode.Disposable | undefined;
  let timer: NodeJS.Timeout | undefined;
  const documentsClosed = new Promise<void>((resolve) => {
    closed = vscode.workspace.onDidCloseTextDocument(() => {
      if (!stillOpen()) resolve();
    });
    timer = setTimeout(resolve, DOCUMENTS_CLOSE_MS);
  });
  try {
    await vscode.window.tabGroups.close(tabs, true);
    if (stillOpen()) await documentsClosed;
  } finally {
    closed?.dispose();
    clearTimeout(timer);
  }
  return reopen;
}

function urisOf(input: unknown): vscode.Uri[] {
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputNotebook) return [input.uri];
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return [input.original, input.modified];
  return [];
}

/** How long after the folder went a late problem of its files is looked for, and how long one is given to go by itself. */
const STALE_WATCH_MS = 15_000;
const STALE_GRACE_MS = 2_000;
const RESTART_TYPESCRIPT = 'typescript.restartTsServer';

/**
 * VS Code's TypeScript support can go on listing the problems of a file deleted while it was checking
 * it: an answer that arrives after the file's document closed is still published, and nothing takes it
 * back (microsoft/vscode#182126). Closing the editors first (`closeEditorsIn`) makes that rarer, not
 * impossible: on a busy machine the answer comes after the folder is gone. So for a while after the
 * folder went, a problem another checker lists for a file that was in it, no longer exists and no
 * document holds, is given a moment to go; one that stays is dropped by restarting the TypeScript
 * server, the one way to make it forget it. Ours (the code checks) go with the file in CodeDiagnostics.
 */
export function dropStaleProblems(folder: vscode.Uri, ours: string, log?: Pick<vscode.LogOutputChannel, 'info'>): Promise<void> {
  const prefix = `${folder.path.replace(/\/$/, '')}/`;
  const inside = (uri: vscode.Uri) => uri.scheme === folder.scheme && uri.authority === folder.authority && uri.path.startsWith(prefix);
  const listed = () =>
    vscode.languages
      .getDiagnostics()
      .filter(([uri, problems]) => inside(uri) && problems.some((p) => p.source !== ours))
      .map(([uri]) => uri);
  const stale = async () => {
    const found: vscode.Uri[] = [];
    for (const uri of listed()) {
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) {
        log?.info(`Problems of ${vscode.workspace.asRelativePath(uri)} stay: a document of it is still open.`);
        continue;
      }
      if (!(await stillThere(uri))) found.push(uri);
    }
    return found;
  };
  let restarted = false;
  let looking = false;
  const look = async () => {
    if (restarted || looking || listed().length === 0) return;
    looking = true;
    try {
      await new Promise((resolve) => setTimeout(resolve, STALE_GRACE_MS));
      const left = await stale();
      if (restarted || left.length === 0 || !(await vscode.commands.getCommands(true)).includes(RESTART_TYPESCRIPT)) return;
      restarted = true;
      log?.info(`TypeScript still listed problems of ${left.length} deleted file(s); its server is restarted to drop them.`);
      await vscode.commands.executeCommand(RESTART_TYPESCRIPT);
    } finally {
      looking = false;
    }
  };
  return new Promise<void>((resolve) => {
    const changed = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some(inside)) void look().catch((error: unknown) => log?.info(`Stale problems not dropped: ${String(error)}`));
    });
    const timer = setTimeout(() => {
      changed.dispose();
      resolve();
    }, STALE_WATCH_MS);
    void look().catch(() => {
      clearTimeout(timer);
      changed.dispose();
      resolve();
    });
  });
}
async function stillThere(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
