/**
 * The metadata form in the webview. It holds no state of its own beyond what the user typed since the
 * last state from the host: the text document is the truth, every change goes to the host as the whole
 * new value, and the host's answer (or a change made elsewhere) comes back as the next state.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { parseHostMessage, type HostMessage, type StateMessage, type UnreadableMessage, type WebviewMessage } from '../../src/core/webview/formProtocol';
import { setIn, type Path } from '../../src/core/webview/formModel';
import { h } from './dom';
import { type FormContext } from './fields';
import { generalSection } from './general';
import { icon } from './icons';
import { parametersSection } from './parameters';
import { ProblemBoard, renderSummary } from './problems';
import { resultSection } from './result';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** Typing is sent after this pause, so one word is one undo step rather than one per letter. */
const TYPING_PAUSE_MS = 300;

class Form {
  private readonly vscode = acquireVsCodeApi();
  private readonly app = document.getElementById('app') as HTMLElement;
  private readonly board = new ProblemBoard();
  private summary: HTMLElement | undefined;
  /** What `follow` registered since the last rebuild. */
  private followers: ((value: Record<string, unknown>) => void)[] = [];
  private value: Record<string, unknown> = {};
  private version = 0;
  /** Edits sent so far; a state that has not seen the last of them is older than what the user sees. */
  private seq = 0;
  private typing: ReturnType<typeof setTimeout> | undefined;
  private shown: 'none' | 'form' | 'unreadable' = 'none';

  start(): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
    // Leaving the form (another tab, the text editor) sends what is held back: a hidden form is discarded.
    window.addEventListener('blur', () => this.flushNow());
    this.vscode.postMessage({ type: 'ready' });
  }

  private receive(data: unknown): void {
    const parsed = parseHostMessage(data);
    if (!parsed.ok) {
      console.warn(`Metadata form: ignored a malformed message (${parsed.reason})`);
      return;
    }
    const message: HostMessage = parsed.message;
    if (message.type === 'flush') {
      // The document is being saved: the typing goes now, and the answer after it says so.
      this.flushNow();
      this.vscode.postMessage({ type: 'flushed', request: message.request, seq: this.seq });
      return;
    }
    this.version = Math.max(this.version, message.version);
    if (message.type === 'unreadable') {
      this.cancelTyping();
      this.showUnreadable(message);
      return;
    }
    this.showState(message);
  }

  private showState(message: StateMessage): void {
    const ownEditsPending = this.typing !== undefined || message.seq < this.seq;
    if (message.origin === 'form' && ownEditsPending && this.shown === 'form') return;
    if (message.origin === 'external') this.cancelTyping();
    const same = this.shown === 'form' && JSON.stringify(message.value) === JSON.stringify(this.value);
    this.value = message.value;
    if (!same) this.render();
    this.showProblems(message.problems);
  }

  private readonly context: FormContext = {
    // A getter: sections read the value when the user acts, not when they were built.
    get value() {
      return form.value;
    },
    problems: this.board,
    type: (path: Path, next: unknown) => {
      this.value = setIn(this.value, path, next) as Record<string, unknown>;
      for (const update of this.followers) update(this.value);
      if (this.typing !== undefined) clearTimeout(this.typing);
      this.typing = setTimeout(() => this.flush(), TYPING_PAUSE_MS);
    },
    change: (next: Record<string, unknown>, focus?: string) => {
      this.cancelTyping();
      this.value = next;
      this.send();
      this.render(focus);
    },
    follow: (update) => {
      this.followers.push(update);
    },
  };

  private flush(): void {
    this.typing = undefined;
    this.send();
  }

  /** Sends the typing held back for a pause, if any, without waiting for the pause. */
  private flushNow(): void {
    if (this.typing === undefined) return;
    clearTimeout(this.typing);
    this.flush();
  }

  private cancelTyping(): void {
    if (this.typing !== undefined) clearTimeout(this.typing);
    this.typing = undefined;
  }

  private send(): void {
    this.seq++;
    // A JSON copy: the host accepts plain data only, never shared or exotic objects.
    this.vscode.postMessage({ type: 'edit', version: this.version, seq: this.seq, value: JSON.parse(JSON.stringify(this.value)) as Record<string, unknown> });
  }

  /** Rebuilds the form from the value, keeping focus (and the caret) where it was, or on `focus`. */
  private render(focus?: string): void {
    const active = deepActive();
    const activeId = focus ?? active.host?.id;
    const caret =
      active.input && active.input.selectionStart !== null
        ? [active.input.selectionStart, active.input.selectionEnd ?? active.input.selectionStart]
        : undefined;
    const scroll = window.scrollY;
    this.board.reset();
    this.summary = h('section', { class: 'summary', id: 'summary', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
    this.followers = [];
    const heading = h('h1', { text: title(this.value) });
    this.context.follow((value) => (heading.textContent = title(value)));
    this.app.replaceChildren(
      h('header', { class: 'page-header' }, [
        heading,
        h('p', { class: 'hint', text: 'The metadata of this custom action, kept in action.yaml. Changes here edit the file; save it as usual.' }),
      ]),
      this.summary,
      generalSection(this.context),
      parametersSection(this.context),
      resultSection(this.context),
    );
    this.app.removeAttribute('aria-busy');
    this.shown = 'form';
    window.scrollTo({ top: scroll });
    if (activeId) void restoreFocus(activeId, focus === undefined ? caret : undefined);
  }

  private showProblems(problems: StateMessage['problems']): void {
    if (this.summary) renderSummary(this.summary, this.board.show(problems));
  }

  private showUnreadable(message: UnreadableMessage): void {
    this.shown = 'unreadable';
    const where = message.line !== undefined ? ` (line ${message.line}${message.column !== undefined ? `, column ${message.column}` : ''})` : '';
    const button = document.createElement('vscode-button');
    button.id = 'open-text';
    button.textContent = 'Reopen in Text Editor';
    button.addEventListener('click', () => this.vscode.postMessage({ type: 'openText' }));
    this.app.replaceChildren(
      h('section', { class: 'unreadable', attrs: { role: 'alert' } }, [
        h('h1', {}, [icon('error'), h('span', { text: 'The form cannot read this action.yaml' })]),
        h('p', { text: `${message.message}${where}` }),
        h('p', { class: 'hint', text: 'Fix the YAML in the text editor; the form comes back as soon as the file can be read. Nothing was changed.' }),
        button,
      ]),
    );
    this.app.removeAttribute('aria-busy');
  }
}

function title(value: Record<string, unknown>): string {
  const name = typeof value.name === 'string' && value.name.trim() ? value.name : typeof value.key === 'string' && value.key ? value.key : 'Untitled action';
  return name;
}

/** The focused element of the page (a custom element) and, inside its shadow root, its native input. */
function deepActive(): { host: Element | undefined; input: HTMLInputElement | HTMLTextAreaElement | undefined } {
  const host = document.activeElement && document.activeElement !== document.body ? document.activeElement : undefined;
  const inner = host?.shadowRoot?.activeElement;
  const input = inner instanceof HTMLInputElement || inner instanceof HTMLTextAreaElement ? inner : undefined;
  return { host, input };
}

async function restoreFocus(id: string, caret: number[] | undefined): Promise<void> {
  const target = document.getElementById(id);
  if (!target) return;
  // Custom elements render their inner input on their first update.
  await (target as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete;
  if (target instanceof HTMLButtonElement && target.disabled) {
    (target.closest('.list-item') as HTMLElement | null)?.focus();
    return;
  }
  target.focus();
  const input = target.shadowRoot?.querySelector('input, textarea');
  if (caret && (input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement)) {
    try {
      input.setSelectionRange(caret[0] ?? 0, caret[1] ?? 0);
    } catch {
      // type=email inputs do not take a selection; the focus is what matters.
    }
  }
}

const form = new Form();
form.start();
