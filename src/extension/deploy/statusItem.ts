import * as vscode from 'vscode';
import { Disposable } from '../lifecycle';
import { formatDuration } from '../../core/events';

export type PushKind = 'code' | 'metadata';

const WHAT: Record<PushKind, string> = { code: 'code', metadata: 'metadata' };
const SHOWN_AFTER_SUCCESS_MS = 10_000;
const SHOW_LOG = 'customActions.showLog';
const SHOW_PROBLEMS = 'workbench.actions.view.problems';
/** Compare, Merge or Overwrite a held push, in a quick pick (commands.ts). */
export const RESOLVE_CONFLICT = 'customActions.resolveConflict';
/** Show Problems or Push Anyway for a save by hand refused on errors, in a quick pick (commands.ts). */
export const REFUSED_CHOICES = 'customActions.refusedSaveChoices';
/** What can be done about a file held from auto-save, in a quick pick (commands.ts). */
export const HELD_CHOICES = 'customActions.heldSaveChoices';

/**
 * One status bar item for every push: spinning while requests are in flight, then what happened and
 * how long it took. A success fades after a while; a failure stays until the next push of that action.
 * It is the one report that is always current (a notification cannot be taken back), and the only one
 * an auto-save gives.
 */
export class DeployStatusItem extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('customActions.deploy', vscode.StatusBarAlignment.Left, 9));
  private readonly busy = new Map<string, string>();
  /** Failures and held pushes that still stand, by `<kind>:<slot>`, as they were shown. */
  private readonly failed = new Map<string, Shown>();
  private hideTimer: ReturnType<typeof setTimeout> | undefined;
  private calmTimer: ReturnType<typeof setTimeout> | undefined;
  private visible = false;

  /**
   * @param calmMs How long an auto-save's refusal stays calm ("Editing X…") before it turns into the
   *   warning: by then the user has stopped typing with the file still refused, and it is worth their
   *   eye (customActions.deploy.warnAfterSeconds, read at each refusal).
   */
  constructor(private readonly calmMs: () => number) {
    super();
    this.item.name = 'Custom Actions: Push';
    this.item.command = SHOW_LOG;
    this.register({ dispose: () => (clearTimeout(this.hideTimer), clearTimeout(this.calmTimer)) });
  }

  /**
   * What the item shows, read back: VS Code has no API that reads the status bar, and the host tests
   * check what a user sees here. The text, empty while the item is hidden.
   */
  get text(): string {
    return this.visible ? this.item.text : '';
  }

  /** Whether the item is coloured as a warning or an error (read back, as `text`). */
  get alarming(): boolean {
    return this.item.backgroundColor !== undefined;
  }

  pushing(id: string, label: string, kind: PushKind): void {
    this.busy.set(`${kind}:${id}`, label);
    this.show(`$(sync~spin) Pushing ${WHAT[kind]} of ${label}…`, `Custom Actions: pushing the ${WHAT[kind]} of ${label} to the server`);
  }

  /** `unchecked` says why the server's version was not checked before it was replaced, when it was not. */
  pushed(id: string, label: string, kind: PushKind, durationMs: number, more: boolean, unchecked?: string): void {
    this.busy.delete(`${kind}:${id}`);
    this.failed.delete(`${kind}:${id}`);
    if (more) return;
    if (this.stillBusy()) return;
    this.show(
      `$(${unchecked ? 'unverified' : 'check'}) Pushed ${WHAT[kind]} of ${label} (${formatDuration(durationMs)})${unchecked ? ' unchecked' : ''}`,
      `Custom Actions: the server accepted the ${WHAT[kind]} of ${label} in ${formatDuration(durationMs)}${
        unchecked ? `.\nPushed without a check for changes by others: ${unchecked}.` : ', after checking nobody had changed it since your last pull or push'
      }`,
    );
    this.hideTimer = setTimeout(() => {
      if (this.busy.size === 0 && this.failed.size === 0) this.hide();
    }, SHOWN_AFTER_SUCCESS_MS);
  }

  /** The server holds this text already and still holds its base: nothing was sent (a read may have been). */
  upToDate(id: string, label: string, kind: PushKind, more: boolean): void {
    this.busy.delete(`${kind}:${id}`);
    if (more || this.busy.size > 0 || this.failed.size > 0) return;
    this.show(
      `$(check) ${capitalize(WHAT[kind])} of ${label} is up to date`,
      `Custom Actions: the server already holds this ${WHAT[kind]} of ${label}; nothing was sent`,
    );
    this.hideTimer = setTimeout(() => this.hide(), SHOWN_AFTER_SUCCESS_MS);
  }

  failedPush(id: string, label: string, kind: PushKind, durationMs: number, reason: string): void {
    this.stands(`${kind}:${id}`, {
      text: `$(error) Push of ${label} failed (${formatDuration(durationMs)})`,
      tooltip: `Custom Actions: the ${WHAT[kind]} of ${label} was not pushed: ${reason}\nSave again or run Push Implementation to retry; click to show the log.`,
      background: new vscode.ThemeColor('statusBarItem.errorBackground'),
    });
  }

  /**
   * A push held because the action changed on the server; stays until a push of it goes through. A
   * click offers Compare, Merge and Overwrite (the notification that offered them may be gone).
   */
  conflict(id: string, label: string, kind: PushKind, reason: string): void {
    this.stands(`${kind}:${id}`, {
      text: `$(git-merge) ${label} changed on the server`,
      tooltip: `Custom Actions: ${reason}\nClick to Compare, Merge or Overwrite; the same choices are in the title of the diff editor and on the action in the Custom Actions view.`,
      background: new vscode.ThemeColor('statusBarItem.warningBackground'),
      command: { command: RESOLVE_CONFLICT, title: 'Resolve', arguments: [id, kind] },
    });
  }

  /**
   * A file whose auto-saves are not pushed until the user saves it by hand (after a Merge, after a
   * Redeploy): stays until that save, or until the file is the server's version again. A click offers
   * what can be done about it.
   */
  holding(id: string, kind: PushKind, text: string, tooltip: string): void {
    this.stands(`hold:${kind}:${id}`, {
      text: `$(lock) ${text}`,
      tooltip: `Custom Actions: ${tooltip}\nClick for the choices.`,
      background: new vscode.ThemeColor('statusBarItem.warningBackground'),
      command: { command: HELD_CHOICES, title: 'Choices', arguments: [id, kind] },
    });
  }

  /** The hold of a file ended: the item shows what else stands, or goes. */
  released(id: string, kind: PushKind): void {
    if (!this.failed.delete(`hold:${kind}:${id}`) || this.busy.size > 0) return;
    this.showLeft();
  }

  /**
   * The action is gone from the server: its failures and held pushes no longer stand. The item shows
   * the newest one left, or goes when none is left and nothing is being pushed.
   */
  gone(id: string): void {
    const had = [`code:${id}`, `metadata:${id}`, `hold:code:${id}`, `hold:metadata:${id}`].map((key) => this.failed.delete(key)).some(Boolean);
    if (!had || this.busy.size > 0) return;
    this.showLeft();
  }

  private showLeft(): void {
    const left = [...this.failed.values()].at(-1);
    if (left) this.show(left.text, left.tooltip, left.background, left.command);
    else this.hide();
  }

  private stands(key: string, shown: Shown): void {
    this.busy.delete(key);
    // Re-inserted, so the newest failure is the last one.
    this.failed.delete(key);
    this.failed.set(key, shown);
    this.show(shown.text, shown.tooltip, shown.background, shown.command);
  }

  /** The action of the active file changed on the server since the last pull or push here; a click compares. */
  outOfStep(label: string): void {
    if (this.busy.size > 0 || this.failed.size > 0) return;
    this.show(
      `$(cloud-download) ${label} changed on the server`,
      `Custom Actions: someone changed ${label} on the server since your last pull or push. Click to compare with the server's version; your next save is held until you decide.`,
      undefined,
      'customActions.compareWithServer',
    );
  }

  /** Forgets a failure that no longer holds (the list could be read after all). */
  recovered(id: string, kind: PushKind): void {
    this.failed.delete(`${kind}:${id}`);
  }

  /** The tooltip shown (read back, as `text`). */
  get tooltip(): string {
    return this.visible && typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  /** The command a click runs (read back, as `text`). */
  get click(): vscode.Command | undefined {
    return typeof this.item.command === 'object' ? this.item.command : this.item.command ? { command: this.item.command, title: '' } : undefined;
  }

  /** A push that was not even attempted (errors in the file, no action on the server); a click shows the problems, when there are. */
  notPushed(label: string, reason: string, options: { problems?: boolean; pushAnyway?: string } = {}): void {
    // A save by hand refused on errors: its notification's Push Anyway stays here once it is gone.
    const click = options.pushAnyway
      ? 'Click to show the problems or push anyway.'
      : options.problems
        ? 'Click to show the problems.'
        : 'Click to show the log.';
    this.show(
      `$(warning) ${label} not pushed`,
      `Custom Actions: ${reason}\n${click}`,
      new vscode.ThemeColor('statusBarItem.warningBackground'),
      options.pushAnyway ? { command: REFUSED_CHOICES, title: 'Choices', arguments: [options.pushAnyway] } : options.problems ? SHOW_PROBLEMS : SHOW_LOG,
    );
  }

  /**
   * An auto-save that was not pushed while the user is typing (the code does not pass the checks yet):
   * said calmly, with no warning colour, since the next pause in typing saves again. Still refused
   * after `calmMs()`, with nothing pushed or refused since, it becomes the warning of notPushed.
   */
  editing(label: string, reason: string, options: { problems?: boolean } = {}): void {
    const click = options.problems ? 'Click to show the problems.' : 'Click to show the log.';
    this.show(
      `$(edit) Editing ${label}…`,
      `Custom Actions: ${reason}\nNot pushed while you type; pushed with the first save that passes the checks. ${click}`,
      undefined,
      options.problems ? SHOW_PROBLEMS : SHOW_LOG,
    );
    this.calmTimer = setTimeout(() => this.notPushed(label, `${reason} It is pushed as soon as a save passes the checks.`, options), this.calmMs());
  }

  private stillBusy(): boolean {
    const label = this.busy.values().next().value;
    return label !== undefined;
  }

  private show(text: string, tooltip: string, background?: vscode.ThemeColor, command: string | vscode.Command = SHOW_LOG): void {
    clearTimeout(this.hideTimer);
    // Whatever is shown now is newer than a calm "editing" waiting to turn into a warning.
    clearTimeout(this.calmTimer);
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.backgroundColor = background;
    this.item.command = command;
    this.item.show();
    this.visible = true;
  }

  private hide(): void {
    this.item.hide();
    this.visible = false;
  }
}

interface Shown {
  readonly text: string;
  readonly tooltip: string;
  readonly background: vscode.ThemeColor;
  readonly command?: string | vscode.Command;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
