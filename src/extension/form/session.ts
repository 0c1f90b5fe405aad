import * as vscode from 'vscode';
import { documentState, minimalReplacement, parseWebviewMessage, type EditMessage, type HostMessage } from '../../core/webview';
import { updateActionYaml } from '../../core/workspace';
import { Disposable } from '../lifecycle';

/**
 * How long a save waits for the form to bring in what it holds back. A round trip to the webview takes
 * milliseconds on an idle machine, and far longer on a busy one: an answer later than this lands while
 * the save is writing, and the tab turns dirty again. VS Code gives a will-save listener 1.5 s and stops
 * asking one that overruns often, so this stays under that.
 */
export const FLUSH_MS = 1_000;

/** The two ends of a webview the session needs; host tests drive a session through their own. */
export interface FormChannel {
  postMessage(message: HostMessage): Thenable<boolean>;
  readonly onDidReceiveMessage: vscode.Event<unknown>;
}

export interface SessionDeps {
  readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  /** Asked for by the form when the YAML cannot be read, or when the user prefers the text. */
  openText(): Promise<void>;
}

/**
 * One form on one action.yaml. The text document is the only state: the form sends intents, the
 * session turns them into WorkspaceEdits, and every change of the document (the form's own, a text
 * editor's, undo, revert) goes back to the form as a new state.
 */
export class FormSession extends Disposable {
  private ready = false;
  /** The last edit of the form handled; the form ignores states older than its own edits. */
  private handledSeq = 0;
  /**
   * The document version after the latest change that did not come from this form. An edit based on
   * an older version was made on a stale picture and is refused; edits based on the form's own later
   * versions are fine, since the form's whole value already includes its earlier edits.
   */
  private lastForeignVersion: number;
  /** The text the form's edit in flight will produce: the change carrying it is the form's own. */
  private expectedText: string | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** The `flush` requests waiting for the form's answer, by number. */
  private readonly flushes = new Map<number, () => void>();
  private flushRequests = 0;

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly channel: FormChannel,
    private readonly deps: SessionDeps,
  ) {
    super();
    this.lastForeignVersion = document.version;
    this.register(channel.onDidReceiveMessage((raw) => this.receive(raw)));
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.document && e.contentChanges.length > 0) this.documentChanged();
      }),
    );
    // The form sends typing after a pause: a save within it (Ctrl+S right after a keystroke) would
    // write the file without the last keystrokes, and the edit arriving after it would dirty it again.
    this.register(
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (e.document === this.document) e.waitUntil(this.flush(FLUSH_MS));
      }),
    );
  }

  /** Handles one message from the webview; anything that does not validate is logged and dropped. */
  receive(raw: unknown): void {
    if (this.isDisposed) return;
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.deps.log.warn(`Metadata form (${this.name}): ignored a malformed message: ${parsed.reason}`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'ready':
        // A webview shown again starts over: its edits are numbered from 1 again.
        this.ready = true;
        this.handledSeq = 0;
        this.post('external');
        return;
      case 'edit':
        this.queue = this.queue
          .then(() => this.applyEdit(message))
          .catch((error: unknown) => {
            this.deps.log.error(`Metadata form (${this.name}): an edit failed: ${error instanceof Error ? error.message : String(error)}`);
            this.post('external');
          });
        return;
      case 'openText':
        void this.deps.openText();
        return;
      case 'flushed':
        this.flushes.get(message.request)?.();
        return;
    }
  }

  /**
   * Brings what the form holds back (typing not yet sent) into the document: resolves once the form
   * has sent it and it is applied, or after `timeoutMs`, so a form that is gone or stuck cannot hold
   * up a save. Never rejects: VS Code stops asking a will-save listener that fails.
   */
  async flush(timeoutMs: number): Promise<void> {
    if (!this.ready || this.isDisposed) return;
    const request = ++this.flushRequests;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    // The form's edit comes before its answer on the same channel, so at the answer it is queued.
    const answered = new Promise<void>((resolve) => this.flushes.set(request, resolve)).then(() => this.whenIdle());
    try {
      if (!(await this.send({ type: 'flush', request }))) return;
      await Promise.race([answered, late]);
    } catch (error) {
      this.deps.log.warn(
        `Metadata form (${this.name}): bringing the typing in before the save failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
      this.flushes.delete(request);
    }
  }

  /** The webview was hidden, which discards it (its context is not kept): nothing answers until it is ready again. */
  hidden(): void {
    this.ready = false;
  }

  /** Settles once every edit received so far has been applied or refused. */
  whenIdle(): Promise<void> {
    return this.queue;
  }

  private async applyEdit(message: EditMessage): Promise<void> {
    if (this.isDisposed) return;
    this.handledSeq = Math.max(this.handledSeq, message.seq);
    if (message.version < this.lastForeignVersion || message.version > this.document.version) {
      // The document changed under the form (or the message is not about this document): the form
      // gets the current state and the user sees their edit did not land instead of losing the other one.
      this.deps.log.info(
        `Metadata form (${this.name}): edit ${message.seq} was made on version ${message.version}, the document is at ${this.document.version}; refused`,
      );
      this.post('external');
      return;
    }
    const text = this.document.getText();
    if (documentState(text).kind === 'unreadable') {
      this.deps.log.warn(`Metadata form (${this.name}): an edit arrived while the YAML cannot be read; refused`);
      this.post('external');
      return;
    }
    let next = updateActionYaml(text, message.value);
    if (this.document.eol === vscode.EndOfLine.CRLF) next = next.replace(/\r?\n/g, '\r\n');
    const change = minimalReplacement(text, next);
    if (!change) {
      this.post('form');
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(this.document.uri, new vscode.Range(this.document.positionAt(change.start), this.document.positionAt(change.end)), change.text);
    this.expectedText = next;
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied) {
      this.expectedText = undefined;
      this.deps.log.warn(`Metadata form (${this.name}): VS Code did not apply edit ${message.seq}`);
      this.post('external');
    }
  }

  private documentChanged(): void {
    const own = this.expectedText !== undefined && this.document.getText() === this.expectedText;
    this.expectedText = undefined;
    if (!own) this.lastForeignVersion = this.document.version;
    this.post(own ? 'form' : 'external');
  }

  private post(origin: 'form' | 'external'): void {
    if (!this.ready || this.isDisposed) return;
    const state = documentState(this.document.getText());
    const common = { version: this.document.version, seq: this.handledSeq };
    const message: HostMessage =
      state.kind === 'value'
        ? { type: 'state', ...common, origin, value: state.value, problems: state.problems }
        : { type: 'unreadable', ...common, message: state.message, line: state.line, column: state.column };
    void this.send(message);
  }

  /** Posts to the webview; false when it did not take the message. */
  private async send(message: HostMessage): Promise<boolean> {
    try {
      // A webview that is being torn down refuses messages; its next `ready` gets the state again.
      return await this.channel.postMessage(message);
    } catch {
      this.ready = false;
      return false;
    }
  }

  private get name(): string {
    return vscode.workspace.asRelativePath(this.document.uri);
  }
}
