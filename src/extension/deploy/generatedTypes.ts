import * as vscode from 'vscode';
import { serverText } from '../../core/text';
import { generateTypes } from '../../core/typegen';
import { ACTION_FILE, GENERATED_FILE, parseActionYaml } from '../../core/workspace';
import { OutsideWorkspaceError, writeInsideWorkspace } from '../files';
import { Disposable } from '../lifecycle';
import { type Services } from '../services';
import { isMetadataFile, openDocument, savedText } from './locate';
import { PerFileDebounce } from '../perFileDebounce';

const TYPING_PAUSE_MS = 300;

/**
 * Keeps action.generated.ts in step with action.yaml: when the document changes (typing, the form,
 * undo), when it is saved, and when it changes on disk (a checkout). Regenerating never pushes
 * anything; it only writes the file when its bytes would differ.
 */
export class GeneratedTypes extends Disposable {
  private readonly debounce = this.register(new PerFileDebounce((uri) => void this.regenerate(uri).catch((error: unknown) => this.failed(uri, error))));
  /** Targets whose refused write was shown once: the refusal repeats with every keystroke. */
  private readonly refusalsShown = new Set<string>();
  private readonly written = this.register(new vscode.EventEmitter<vscode.Uri>());
  /** Fires with the action folder after its generated types were rewritten. */
  readonly onDidWrite = this.written.event;

  constructor(private readonly s: Pick<Services, 'log' | 'model'>) {
    super();
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && e.document.uri.path.endsWith(`/${ACTION_FILE}`)) this.schedule(e.document.uri, TYPING_PAUSE_MS);
      }),
    );
    this.register(vscode.workspace.onDidSaveTextDocument((d) => d.uri.path.endsWith(`/${ACTION_FILE}`) && this.schedule(d.uri, 0)));
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${ACTION_FILE}`, false, false, true));
    this.register(watcher.onDidChange((uri) => this.schedule(uri, TYPING_PAUSE_MS)));
    this.register(watcher.onDidCreate((uri) => this.schedule(uri, TYPING_PAUSE_MS)));
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

  /** Writes the generated types of the action.yaml at `uri`, as the editor has it (or the disk, when closed). */
  private async regenerate(uri: vscode.Uri): Promise<boolean> {
    const file = await this.s.model.fileAt(uri);
    if (!file || !isMetadataFile(file)) return false;
    const text = openDocument(uri)?.getText() ?? (await savedText(uri));
    const metadata = text === undefined ? undefined : parseActionYaml(text).metadata;
    // Metadata with problems gives no types: the last good ones stay until it is fixed.
    if (!metadata) return false;
    const target = vscode.Uri.joinPath(file.folder, GENERATED_FILE);
    const content = generateTypes(metadata);
    if ((await savedText(target)) === content) return false;
    // A clone may ship the generated file (or a folder above it) as a link: the guard refuses to follow it out.
    await writeInsideWorkspace(target, content);
    this.written.fire(file.folder);
    return true;
  }
}
