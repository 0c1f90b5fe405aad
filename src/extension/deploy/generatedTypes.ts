import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { generateTypes } from '../../core/typegen';
import { ACTION_FILE, GENERATED_FILE, parseActionYaml } from '../../core/workspace';
import { exists, OutsideWorkspaceError, writeInsideWorkspace } from '../files';
import { Disposable } from '../lifecycle';
import { type Parts } from '../parts';
import { isMetadataFile, openDocument, savedText } from './locate';
import { PerFileDebounce } from '../perFileDebounce';

const TYPING_PAUSE_MS = 300;

/**
 * Keeps action.generated.ts in step with action.yaml: when the document changes (typing, the form,
 * undo), when it is saved, and when it changes on disk (a checkout). Regenerating never pushes
 * anything; it only writes the file when its bytes would differ.
 */
export class GeneratedTypes extends Disposable {
  private readonly debounce = this.register(new PerFileDebounce((uri) => void this.track(uri).catch((error: unknown) => this.failed(uri, error))));
  /** Targets whose refused write was shown once: the refusal repeats with every keystroke. */
  private readonly refusalsShown = new Set<string>();
  private readonly written = this.register(new vscode.EventEmitter<vscode.Uri>());
  /** Folders being removed (`hold`), by path, with how many removals hold each: nothing is written in them. */
  private readonly held = new Map<string, number>();
  /** The regeneration under way in each folder, by path: a removal waits for it before it deletes. */
  private readonly writing = new Map<string, Promise<unknown>>();
  /** Fires with the action folder after its generated types were rewritten. */
  readonly onDidWrite = this.written.event;

  constructor(private readonly s: Pick<Parts, 'actionFiles' | 'log' | 'model'>) {
    super();
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && e.document.uri.path.endsWith(`/${ACTION_FILE}`)) this.schedule(e.document.uri, TYPING_PAUSE_MS);
      }),
    );
    this.register(vscode.workspace.onDidSaveTextDocument((d) => d.uri.path.endsWith(`/${ACTION_FILE}`) && this.schedule(d.uri, 0)));
    this.register(s.actionFiles.onDidChange((uri) => this.schedule(uri, TYPING_PAUSE_MS)));
    this.register(s.actionFiles.onDidCreate((uri) => this.schedule(uri, TYPING_PAUSE_MS)));
  }

  private failed(uri: vscode.Uri, error: unknown): void {
    this.s.log.warn(`Regenerating the types of ${uri.path} failed: ${String(error)}`);
    if (!(error instanceof OutsideWorkspaceError) || this.refusalsShown.has(error.uri.toString())) return;
    this.refusalsShown.add(error.uri.toString());
    void vscode.window.showWarningMessage(serverText(`The generated types were not updated. ${error.message}`, 600));
  }

  private schedule(uri: vscode.Uri, delayMs: number): void {
    this.debounce.schedule(uri, delayMs);
  }

  /**
   * Writes nothing in `folder` until the hold is disposed, once the write under way there is done: a
   * removal of the folder holds it, so a regeneration scheduled before (the action.yaml written or
   * edited a moment ago, its editor still open) cannot bring the deleted folder back.
   */
  async hold(folder: vscode.Uri): Promise<vscode.Disposable> {
    const key = folder.path;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    await this.writing.get(key)?.catch(() => undefined);
    return new vscode.Disposable(() => {
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    });
  }

  private async track(uri: vscode.Uri): Promise<boolean> {
    const key = folderPathOf(uri);
    const previous = this.writing.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.regenerate(uri));
    this.writing.set(key, run);
    try {
      return await run;
    } finally {
      if (this.writing.get(key) === run) this.writing.delete(key);
    }
  }

  /** Writes the generated types of the action.yaml at `uri`, as the editor has it (or the disk, when closed). */
  private async regenerate(uri: vscode.Uri): Promise<boolean> {
    if (this.held.has(folderPathOf(uri))) return false;
    const file = await this.s.model.fileAt(uri);
    if (!file || !isMetadataFile(file)) return false;
    const text = openDocument(uri)?.getText() ?? (await savedText(uri));
    const metadata = text === undefined ? undefined : parseActionYaml(text).metadata;
    // Metadata with problems gives no types: the last good ones stay until it is fixed.
    if (!metadata) return false;
    const target = vscode.Uri.joinPath(file.folder, GENERATED_FILE);
    const content = generateTypes(metadata);
    if ((await savedText(target)) === content) return false;
    // action.yaml gone from disk (Delete Action removed its folder, a checkout another branch's) while
    // its editor still shows it: writing the types would bring the deleted folder back.
    if (this.held.has(folderPathOf(uri)) || !(await exists(uri))) return false;
    // A clone may ship the generated file (or a folder above it) as a link: the guard refuses to follow it out.
    await writeInsideWorkspace(target, content);
    // Deleted while the write was on its way (its checks take several trips to the file system): the
    // write made the folder again, so what it made goes.
    if (!(await exists(uri))) {
      await removeWritten(target, file.folder);
      return false;
    }
    this.written.fire(file.folder);
    return true;
  }
}

/** The generated file just written beside an action.yaml that is gone, and its folder if nothing else is in it. */
async function removeWritten(target: vscode.Uri, folder: vscode.Uri): Promise<void> {
  await vscode.workspace.fs.delete(target).then(
    () => undefined,
    () => undefined,
  );
  const left = await vscode.workspace.fs.readDirectory(folder).then(
    (entries) => entries.length,
    () => undefined,
  );
  if (left === 0)
    await vscode.workspace.fs.delete(folder).then(
      () => undefined,
      () => undefined,
    );
}

/** The folder of an action.yaml, as `hold` names it. */
function folderPathOf(actionYaml: vscode.Uri): string {
  return actionYaml.path.replace(/\/[^/]*$/, '');
}
