import * as vscode from 'vscode';
import { type Outcome, type RefusedReason } from '../../core/deploy/outcome';
import { LOCK_FILE } from '../../core/deploy/lock';
import { serverText } from '../../core/text';
import { ACTION_FILE, MAIN_FILE, sharedKeyMessage } from '../../core/workspace';
import { type LocalAction } from '../localActions';
import { errorMessage } from '../connections';
import { type Parts } from '../parts';
import { COMPARE, type Conflict, MERGE, OVERWRITE } from './conflicts';
import { type ActionFile } from './locate';
import { Notices } from './notices';
import { KIND, type PartRecord, type PushResult } from './partRecord';
import { type DeployStatusItem, type PushKind } from './statusItem';

/** The choices of a file held from auto-save (the redeployed notification, the status bar's quick pick). */
export const TAKE_INTO_EDITOR = 'Take into Editor';
export const PUSH_NOW = 'Push Now';

const UNCHECKED = 'this server cannot check a write against the version it replaces';
const PART_FILE: Record<PushKind, string> = { code: MAIN_FILE, metadata: ACTION_FILE };

/** How the push that is being told about was made: a save by hand, an auto-save (quiet), a command. */
export interface Told {
  /** Pushed by hand (the command): what it did not do is told in a notification. */
  readonly manual: boolean;
  /** An auto-save: told in the status bar and the Problems panel only, never in a notification. */
  readonly quiet?: boolean;
}

/**
 * What save to deploy tells the user of each outcome, in one place: the status bar always, the log,
 * and a notification where a decision waits (a held push, a failure with Retry, a refusal of a save by
 * hand). At most one notification per condition while it lasts (`Notices`); an auto-save is told
 * calmly in the status bar only. Buttons never carry the content of the save that raised them: they
 * run what the deployer hands in, which reads the file when clicked.
 */
export class SaveFeedback {
  private readonly notices: Notices;

  constructor(
    private readonly s: Pick<Parts, 'log'>,
    private readonly status: DeployStatusItem,
  ) {
    this.notices = new Notices(s.log);
  }

  /** A request of the record's part is about to go. */
  pushing(record: PartRecord): void {
    this.status.pushing(record.slot, record.label, record.kind);
  }

  /**
   * What a request came to, as the core decided it; `more`: a newer text of the part goes out next.
   * A held push is told by `held`; the refusals before a request by their own methods below.
   */
  settled(record: PartRecord, outcome: Outcome, durationMs: number, more: boolean): void {
    const { label, kind } = record;
    switch (outcome.kind) {
      case 'pushed':
        this.s.log.info(
          `Pushed the ${kind} of ${label} (${record.id ?? '?'}) in ${durationMs} ms${outcome.checked ? ', checked against its base' : ` (${UNCHECKED})`}.`,
        );
        this.status.pushed(record.slot, label, kind, durationMs, more, outcome.checked ? undefined : UNCHECKED);
        return;
      case 'unchanged':
        this.s.log.info(`The server holds this ${kind} of ${label} already; nothing was sent.`);
        this.status.upToDate(record.slot, label, kind, more);
        return;
      case 'failed':
        this.failed(record, outcome.error, durationMs);
        return;
      default:
        return;
    }
  }

  /**
   * A push held because the action changed on the server: nothing was pushed, the file is as it was.
   * Told in a notification even after an auto-save: unlike errors of half-typed code, it waits for a
   * decision that typing on will not make. One per action and part while it lasts.
   */
  held(conflict: Conflict, choose: (choice: string) => Promise<unknown>): void {
    const kind = KIND[conflict.part];
    const reason =
      conflict.why === 'no-base'
        ? `${conflict.label} on the server holds ${kind} that this workspace never pulled or pushed (no base in ${LOCK_FILE}): your ${kind} was not pushed, and your file is unchanged.`
        : `${conflict.label} changed on the server since your last pull or push: your ${kind} was not pushed, and your file is unchanged.`;
    this.s.log.warn(
      `The ${kind} of ${conflict.label} (${conflict.id}) was held: ${conflict.why === 'no-base' ? 'no base is known for it, and the server holds other text' : `the server holds another version (${conflict.server.etag ?? 'untagged'}) than the base`}.`,
    );
    this.status.conflict(conflict.folder.toString(), conflict.label, kind, reason);
    const ask = () =>
      vscode.window.showWarningMessage(
        `${reason} Compare, merge, or overwrite the server's version? (The same choices stay in the status bar, the diff's title and the action's menu.)`,
        COMPARE,
        MERGE,
        OVERWRITE,
      );
    this.notices.show(`conflict:${kind}:${conflict.folder.toString()}`, ask, choose);
  }

  /** Not pushed for a failure of the server (or of reading its list): Retry sends what the record's `retry` sends then. */
  failed(record: PartRecord, error: unknown, durationMs: number): void {
    const { label, kind } = record;
    const reason = errorMessage(error);
    this.s.log.error(`The ${kind} of ${label} was not pushed: ${reason}`);
    this.status.failedPush(record.slot, label, kind, durationMs, reason);
    if (record.quiet) return;
    // A warning, not an error: VS Code keeps an error with buttons on screen until it is dismissed,
    // where it would go on saying "not pushed" after a later save went through.
    const ask = () => vscode.window.showWarningMessage(`The ${kind} of ${label} was not pushed: ${reason} Your file is unchanged.`, 'Retry', 'Show Log');
    this.notices.show(`failed:${kind}:${record.slot}`, ask, async (choice) => {
      if (choice === 'Retry') await record.retry?.();
      if (choice === 'Show Log') this.s.log.show();
    });
  }

  /** The action's list could be read: a failure to read it no longer stands in the status bar. */
  listed(record: PartRecord): void {
    this.status.recovered(record.slot, record.kind);
  }

  /** The server holds the part of `file` now: whatever failed or was refused before is over, and is told anew next time. */
  over(record: PartRecord, file: vscode.Uri): void {
    this.notices.end(
      `failed:${record.kind}:${record.slot}`,
      `conflict:${record.kind}:${record.slot}`,
      `markers:${file.toString()}`,
      `${record.kind === 'code' ? 'errors' : 'invalid'}:${file.toString()}`,
      `create:${record.slot}`,
      `shared-key:${record.slot}`,
    );
  }

  /** The action is gone from the server: its failures and held pushes no longer stand. */
  gone(folder: vscode.Uri): void {
    this.status.gone(folder.toString());
    for (const kind of ['code', 'metadata'] as const)
      this.notices.end(`failed:${kind}:${folder.toString()}`, `conflict:${kind}:${folder.toString()}`, `redeployed:${kind}:${folder.toString()}`);
  }

  /** Not pushed, and nothing else to tell: a warning for a push by hand, the log for a save. */
  skipped(told: Told, reason: string, why: RefusedReason = 'not-action-code'): PushResult {
    if (told.manual) void vscode.window.showWarningMessage(reason);
    else this.s.log.info(reason);
    return refused('implementation', why, reason);
  }

  /** A code file without main: an auto-save of main.ts says so calmly; a save by hand or of main.ts, as a warning. */
  noMain(file: ActionFile, told: Told): PushResult {
    const reason = `${file.name} defines no function main, so it was not pushed.`;
    if (told.quiet && file.name === MAIN_FILE) this.status.editing(file.name, reason);
    else if (file.name === MAIN_FILE || told.manual) this.status.notPushed(file.name, reason);
    return this.skipped(told, reason, 'no-main');
  }

  refusedMarkers(file: ActionFile, key: string, told: Told): PushResult {
    const reason = `${file.name} of ${key} still holds conflict markers, so it was not pushed. Resolve them, then save.`;
    this.status.notPushed(key, reason);
    if (!told.quiet)
      this.notices.show(
        `markers:${file.uri.toString()}`,
        () => vscode.window.showWarningMessage(reason),
        () => undefined,
      );
    return refused('implementation', 'conflict-markers', reason);
  }

  /** Code refused on its errors: an auto-save calmly, a save by hand with Push Anyway (`anyway`, the file as it is when clicked). */
  refusedErrors(file: ActionFile, key: string, problems: readonly vscode.Diagnostic[], told: Told, anyway: () => Promise<unknown>): PushResult {
    const first = problems[0];
    const where = first ? ` (line ${first.range.start.line + 1}: ${first.message})` : '';
    const reason = `${file.name} of ${key} has ${problems.length} error${problems.length === 1 ? '' : 's'}${where}, so it was not pushed.`;
    if (told.quiet) {
      // An auto-save in the middle of typing: calm until the file stays refused for a while.
      this.status.editing(key, reason, { problems: true });
      return refused('implementation', 'problems', reason);
    }
    this.status.notPushed(key, `${reason} It is pushed as soon as a save passes the checks.`, { problems: true, pushAnyway: file.uri.toString() });
    const ask = () => vscode.window.showWarningMessage(`${reason} (customActions.pushWithErrors is off.)`, 'Push Anyway', 'Show Problems');
    this.notices.show(`errors:${file.uri.toString()}`, ask, async (choice) => {
      if (choice === 'Push Anyway') await anyway();
      if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return refused('implementation', 'problems', reason);
  }

  /** An action.yaml that is not valid metadata: kept as it is, and not pushed. */
  invalidMetadata(uri: vscode.Uri, key: string, detail: string, told: Told): PushResult {
    const reason = `${ACTION_FILE} of ${key} was not pushed: ${detail}. The file is kept as it is.`;
    if (told.quiet) this.status.editing(key, reason);
    else this.status.notPushed(key, reason);
    if (!told.quiet)
      this.notices.show(
        `invalid:${uri.toString()}`,
        () => vscode.window.showErrorMessage(reason),
        () => undefined,
      );
    return refused('metadata', 'invalid-metadata', reason);
  }

  /**
   * Not pushed: other folders of the application declare the key too (`sameKeyFolders`), in the core's
   * words, naming their action.yaml files as the command line's deploy and check do.
   */
  refusedSharedKey(file: ActionFile, key: string, others: readonly LocalAction[], told: Told): PushResult {
    const files = others.map((o) => vscode.workspace.asRelativePath(o.file, false));
    // Folder names and keys are the workspace's text: shown as text, never a link (serverText's rule).
    const reason = serverText(`${file.name} of ${key} was not pushed: ${sharedKeyMessage(key, files)}.`, 1000);
    // Not "editing" even for an auto-save: typing on in this file does not end it.
    this.status.notPushed(key, reason);
    this.s.log.warn(reason);
    if (!told.quiet)
      this.notices.show(
        `shared-key:${file.folder.toString()}`,
        () => vscode.window.showWarningMessage(reason),
        () => undefined,
      );
    return refused(file.name === ACTION_FILE ? 'metadata' : 'implementation', 'shared-key', reason);
  }

  /** The server has no such action: offered to create it, after a save by hand. */
  notOnServer(file: ActionFile, key: string, told: Told, create: () => Promise<unknown>): PushResult {
    const reason = `${key} does not exist on the server yet.`;
    this.status.notPushed(key, `${reason} Create it from the Custom Actions view.`);
    if (!told.quiet) {
      const ask = () => vscode.window.showInformationMessage(`${reason} Create it from its ${ACTION_FILE}, then push its ${MAIN_FILE}?`, 'Create on Server');
      this.notices.show(`create:${file.folder.toString()}`, ask, async (choice) => {
        if (choice === 'Create on Server') await create();
      });
    }
    return { kind: 'not-on-server', step: 'action', reason };
  }

  /**
   * After a redeploy the editor and the server differ: said in a notification and in the status bar,
   * which keeps the choices (take the version into the editor, compare, push the editor's text).
   */
  redeployed(record: PartRecord, choose: (choice: string) => Promise<unknown>): void {
    const name = PART_FILE[record.kind];
    const text = `${name} of ${record.label} differs from the server`;
    const tooltip = `You redeployed a version of the ${name} of ${record.label}; the server runs it now, and your editor holds other text. Auto-save does not push it over the redeploy: save by hand (Ctrl+S) to push it, or take the redeployed version into the editor.`;
    this.status.holding(record.slot, record.kind, text, tooltip);
    const ask = () =>
      vscode.window.showInformationMessage(
        `Redeployed the chosen version of ${name} of ${record.label}: the server runs it now. Your editor still holds other text, which auto-save will not push over it: save by hand (Ctrl+S) to push it, or take the redeployed version into the editor.`,
        TAKE_INTO_EDITOR,
        COMPARE,
      );
    this.notices.show(`redeployed:${record.kind}:${record.slot}`, ask, choose);
  }

  /** A merge is in the editor, not pushed: the status bar says a save by hand pushes it. */
  merged(record: PartRecord): void {
    const name = PART_FILE[record.kind];
    this.status.holding(
      record.slot,
      record.kind,
      `Merged ${name} of ${record.label}: save by hand to push`,
      `The merge of the server's ${name} of ${record.label} with yours is in the editor, not pushed. Auto-save does not push it: review it, then save by hand (Ctrl+S) to push it. Nothing is pushed while conflict markers remain.`,
    );
  }

  /** An auto-save of a held file, not pushed: in the log only (the status bar says it is held). */
  heldBack(file: ActionFile, record: PartRecord): PushResult {
    const why = record.hold?.why;
    this.s.log.info(`${file.name} of ${record.label} was auto-saved: not pushed, ${why === 'merge' ? 'a merge' : 'a redeploy'} is held until a save by hand.`);
    const reason =
      why === 'redeploy'
        ? `${file.name} differs from the version just redeployed: an auto-save does not push it; a save by hand does.`
        : `${file.name} holds a merge: an auto-save does not push it; a save by hand does.`;
    return refused(record.part, 'awaiting-save-by-hand', reason);
  }

  /** The hold of the record's file ended: the status bar no longer shows it. */
  released(record: PartRecord): void {
    this.status.released(record.slot, record.kind);
  }
}

/** A push refused before anything was sent, with the words the user was told. */
function refused(step: 'implementation' | 'metadata', why: RefusedReason, reason: string): PushResult {
  return { kind: 'refused', step, why, problems: [], reason };
}
