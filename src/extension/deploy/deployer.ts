import * as vscode from 'vscode';
import { type ActionMetadata } from '../../core/schema';
import { ApiError, type VersionedResource } from '../../core/client';
import { codeHash, metadataHash } from '../../core/deploy/base';
import { hasConflictMarkers } from '../../core/deploy/merge';
import { PushQueue, type PushOutcome } from '../../core/deploy/pushQueue';
import { type PartOutcome, pushPart } from '../../core/deploy/pushPart';
import { LOCK_FILE } from '../../core/deploy/lock';
import { ACTION_FILE, MAIN_FILE } from '../../core/workspace';
import { errorMessage } from '../connections';
import { Disposable } from '../lifecycle';
import { localActionFromText } from '../localActions';
import { type Application } from '../project';
import { replaceDocumentText } from '../files';
import { type Services } from '../services';
import { type LockStore } from './lockStore';
import { type DeployHistoryStore } from './historyStore';
import { CodeChecks } from './codeCheck';
import { COMPARE, type Conflict, Conflicts, HeldPush, MERGE, type MergeOutcome, OVERWRITE } from './conflicts';
import { type ActionFile, currentText, isMetadataFile, readActionYaml, savedText } from './locate';
import { Notices } from './notices';
import { RefusedSaves } from './refusedSaves';
import { localFileOf, readServerCopy } from './serverCopy';
import { type DeployStatusItem, type PushKind } from './statusItem';

export interface PushOptions {
  /** Pushed by hand (the command): sent even when the server holds the same content already. */
  readonly manual: boolean;
  /** Pushed although the file has errors ("Push Anyway"). */
  readonly anyway?: boolean;
  /**
   * A save VS Code made by itself (auto-save): pushed only when the checks pass, whatever
   * customActions.pushWithErrors says, and told in the status bar and the Problems panel only,
   * never in a notification, so typing is never interrupted.
   */
  readonly quiet?: boolean;
  /**
   * The hash of the text this save replaced on disk (./savedTexts.ts): with no base in the lock, the
   * server holding exactly it is the base, since the saved text was derived from it.
   */
  readonly replaces?: string;
}

/** What a push attempt came to, for the command and for tests. */
export type PushResult = PushOutcome | { readonly kind: 'not-pushed'; readonly reason: string } | { readonly kind: 'superseded' };

interface Target {
  readonly app: Application;
  readonly label: string;
  readonly folder: vscode.Uri;
}

const PART: Record<PushKind, VersionedResource> = { code: 'implementation', metadata: 'metadata' };

/**
 * Pushes the code and the metadata of actions through two PushQueues (one request in flight per
 * action, saves meanwhile coalesced, identical content skipped), and tells the user what happened
 * once: in the status bar always, in a notification with Retry when it failed. Retry and Push Anyway
 * send the file as it is when they are clicked, so a notification can never put back an older save.
 */
export class Deployer extends Disposable {
  private readonly code: PushQueue;
  private readonly metadata: PushQueue;
  private readonly targets = new Map<string, Target>();
  /** Notifications open, so a failure repeated by the next saves is not stacked up. */
  private readonly notices: Notices;
  /**
   * What Retry sends for `<kind>:<id>`: the file the last push came from, read as it is now, or the
   * version a redeploy sent (never the file instead of the version the user chose).
   */
  private readonly retries = new Map<string, () => Promise<PushResult>>();
  /** Whether the latest push of `<kind>:<id>` came from an auto-save, which fails without a notification. */
  private readonly quietly = new Map<string, boolean>();
  private readonly refused: RefusedSaves;
  /** The latest save of each file: an older save still being prepared gives way to it. */
  private readonly latest = new Map<string, number>();
  private sequence = 0;

  private readonly checks: CodeChecks;
  /** What the last write of `<kind>:<id>` came to, as the core decided it: pushed (checked or not), or unchanged. */
  private readonly written = new Map<string, PartOutcome>();
  /** Whether the latest push of `<kind>:<id>` was by hand, which sends again what the server holds already. */
  private readonly byHand = new Map<string, boolean>();
  /** The hash of the text the latest save of `<kind>:<id>` replaced on disk, when known: a base where the lock has none. */
  private readonly replaced = new Map<string, string>();
  readonly conflicts: Conflicts;
  /**
   * Held pushes that still stand, by `<kind>:<folder>`, as last told: what the status bar, the diff
   * editor's title and the tree offer Compare, Merge and Overwrite for once the notification is gone.
   */
  private readonly standing = new Map<string, Conflict>();
  /** Files whose auto-saves are not pushed until a save by hand (after a Merge or a Redeploy), by URI. */
  private readonly holds = new Map<string, Hold>();

  constructor(
    private readonly s: Pick<Services, 'config' | 'connections' | 'context' | 'events' | 'log' | 'model' | 'serverVersions'>,
    private readonly status: DeployStatusItem,
    private readonly bases: LockStore,
    private readonly history: DeployHistoryStore,
    /** Create on Server for an action the server does not have (deploy/create.ts): handed in, as it pushes through the feature. */
    private readonly create: (app: Application, folder: vscode.Uri, metadata: ActionMetadata) => Promise<unknown>,
  ) {
    super();
    this.checks = new CodeChecks(s);
    this.notices = new Notices(s.log);
    this.conflicts = new Conflicts(
      s,
      bases,
      (uri, part) => this.pushAsItIs(uri, part === 'implementation' ? 'code' : 'metadata', { manual: true }),
      (target) => this.holdMerged(target),
    );
    this.refused = this.register(new RefusedSaves((uri, text) => this.pushCode(uri, text, { manual: false, quiet: true }), s.log));
    this.code = new PushQueue({ send: (id, content, signal) => this.write(id, 'code', content, signal) });
    this.metadata = new PushQueue({ send: (id, content, signal) => this.write(id, 'metadata', content, signal) });
    for (const [queue, kind] of [
      [this.code, 'code'],
      [this.metadata, 'metadata'],
    ] as const) {
      const listening = queue.listen({
        onStart: (id) => this.status.pushing(this.slotOf(id), this.targets.get(id)?.label ?? id, kind),
        onSettle: (id, outcome, more) => this.settled(id, kind, outcome, more),
      });
      this.register({ dispose: () => (listening.dispose(), queue.dispose()) });
    }
    this.register(s.model.onDidRemoveActions(({ app, ids }) => ids.forEach((id) => this.gone(app, id))));
  }

  /**
   * The server no longer lists the action: a held push or a failure of it no longer stands, and its
   * base checks nothing. A notification already shown cannot be taken back; a click on it finds the
   * action gone and offers to create it.
   */
  private gone(app: Application, id: string): void {
    this.bases.forget(app, id);
    const target = this.targets.get(id);
    if (!target) return;
    const folder = target.folder.toString();
    this.status.gone(folder);
    for (const kind of ['code', 'metadata'] as const) {
      this.notices.end(`failed:${kind}:${folder}`, `conflict:${kind}:${folder}`, `redeployed:${kind}:${folder}`);
      this.settle(kind, folder);
      this.holds.delete(localFileOf(target.folder, PART[kind]).toString());
      this.retries.delete(`${kind}:${id}`);
      this.quietly.delete(`${kind}:${id}`);
      this.byHand.delete(`${kind}:${id}`);
      this.replaced.delete(`${kind}:${id}`);
      this.written.delete(`${kind}:${id}`);
    }
    this.targets.delete(id);
  }

  /** Pushes `text` as the code of the action holding `uri`. */
  pushCode(uri: vscode.Uri, text: string, options: PushOptions): Promise<PushResult> {
    return this.pushCodeIn(this.turn(uri), uri, text, options);
  }

  /**
   * Pushes the file as it is now, what Retry and Push Anyway send: never the text of the save that
   * raised the notification, which a newer save may have replaced on the server since.
   */
  async pushAsItIs(uri: vscode.Uri, kind: PushKind, options: PushOptions): Promise<PushResult> {
    if (kind === 'metadata') return this.pushMetadata(uri, options);
    // The turn is taken before the read, so a save made meanwhile wins over this push.
    const turn = this.turn(uri);
    const text = await savedText(uri);
    if (text === undefined) return this.skip(options, `${basename(uri)} cannot be read, so it was not pushed.`);
    return this.pushCodeIn(turn, uri, text, options);
  }

  private async pushCodeIn(turn: { current(): boolean }, uri: vscode.Uri, text: string, options: PushOptions): Promise<PushResult> {
    this.refused.forget(uri);
    const check = await this.checks.take(uri, text);
    if (check.kind === 'not-code') return this.skip(options, `${basename(uri)} is not the code of an action folder.`);
    const { file } = check;
    if (hasConflictMarkers(text)) return this.refuseMarkers(file, basename(file.folder), options);
    if (this.heldBack(file, 'code', codeHash(text), options)) return { kind: 'not-pushed', reason: this.holdReason(file) };
    if (check.kind === 'no-main') {
      const reason = `${file.name} defines no function main, so it was not pushed.`;
      if (options.quiet && file.name === MAIN_FILE) this.status.editing(file.name, reason);
      else if (file.name === MAIN_FILE || options.manual) this.status.notPushed(file.name, reason);
      return this.skip(options, reason);
    }
    if (this.refusesErrors(options)) {
      const problems = await check.problems();
      if (!turn.current()) return { kind: 'superseded' };
      if (problems.length > 0) {
        // Only a quiet refusal is looked at again: a later push of the same text must not follow a
        // notification that said it was not pushed. A save by hand is saved again by hand.
        if (options.quiet) this.refused.remember(uri, text);
        return this.refuseWithErrors(file, check.key, problems, options);
      }
    }
    return this.withTarget(file, check.key, turn, options, (id) => this.code.push(id, text, { force: options.manual }), 'code');
  }

  /** Begins the checks of a save's code as the save begins; its push (`pushCode` of the same text) takes them. */
  prepareCode(uri: vscode.Uri, text: string, options: PushOptions): void {
    this.checks.begin(uri, text, this.refusesErrors(options));
  }

  private refusesErrors(options: PushOptions): boolean {
    return !options.anyway && (options.quiet === true || !this.s.config().pushWithErrors);
  }

  /** Pushes the saved action.yaml of `uri`: update when the action exists on the server, else an offer to create it. */
  async pushMetadata(uri: vscode.Uri, options: PushOptions): Promise<PushResult> {
    const turn = this.turn(uri);
    const file = await this.locate(uri);
    if (!file || !isMetadataFile(file)) return this.skip(options, `${basename(uri)} is not the ${ACTION_FILE} of an action folder.`);
    // Read whole from disk, so what is sent is exactly what the workspace holds, never a half-edited form.
    const yaml = await readActionYaml(file.folder, 'saved');
    if (yaml && hasConflictMarkers(yaml.text)) return this.refuseMarkers(file, basename(file.folder), options);
    if (!yaml?.metadata) {
      const key = localActionFromText(file.folder, yaml?.text ?? '').key;
      const problems = yaml?.problems ?? [];
      const first = problems[0];
      const detail = first
        ? `line ${first.range.start.line + 1}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`
        : 'the file cannot be read';
      const reason = `${ACTION_FILE} of ${key} was not pushed: ${detail}. The file is kept as it is.`;
      if (options.quiet) this.status.editing(key, reason);
      else this.status.notPushed(key, reason);
      if (!options.quiet)
        this.notices.show(
          `invalid:${uri.toString()}`,
          () => vscode.window.showErrorMessage(reason),
          () => undefined,
        );
      return { kind: 'not-pushed', reason };
    }
    const metadata = yaml.metadata;
    if (this.heldBack(file, 'metadata', metadataHashOr(metadata), options)) return { kind: 'not-pushed', reason: this.holdReason(file) };
    return this.withTarget(file, metadata.key, turn, options, (id) => this.metadata.push(id, JSON.stringify(metadata), { force: options.manual }), 'metadata');
  }

  private async withTarget(
    file: ActionFile,
    key: string,
    turn: { current(): boolean },
    options: PushOptions,
    push: (id: string) => Promise<PushOutcome>,
    kind: PushKind,
  ): Promise<PushResult> {
    let id: string | undefined;
    try {
      id = await this.resolveId(file, key);
    } catch (error) {
      // The list could not be read: the same failure path as a refused push, Retry pushes the file anew.
      this.failed(file.folder, key, kind, 0, error, options.quiet === true, () => this.pushAsItIs(file.uri, kind, { manual: false }));
      return { kind: 'failed', error, durationMs: 0 };
    }
    this.status.recovered(file.folder.toString(), kind);
    if (!turn.current()) return { kind: 'superseded' };
    if (id === undefined) {
      this.offerCreate(file, key, options);
      return { kind: 'not-pushed', reason: `${key} does not exist on the server yet.` };
    }
    this.targets.set(id, { app: file.app, label: key, folder: file.folder });
    this.retries.set(`${kind}:${id}`, () => this.pushAsItIs(file.uri, kind, { manual: false }));
    this.quietly.set(`${kind}:${id}`, options.quiet === true);
    this.byHand.set(`${kind}:${id}`, options.manual);
    if (options.replaces === undefined) this.replaced.delete(`${kind}:${id}`);
    else this.replaced.set(`${kind}:${id}`, options.replaces);
    const outcome = await push(id);
    if (outcome.kind !== 'failed') {
      // The server holds this file now: whatever failed before it is over.
      const folder = file.folder.toString();
      this.notices.end(
        `failed:${kind}:${folder}`,
        `conflict:${kind}:${folder}`,
        `markers:${file.uri.toString()}`,
        `${kind === 'code' ? 'errors' : 'invalid'}:${file.uri.toString()}`,
        `create:${folder}`,
      );
      this.settle(kind, folder);
    }
    if (outcome.kind === 'accepted') {
      // The server holds this workspace's version now.
      this.s.model.serverChanged(file.app, id, false);
      this.s.model.pushed(file.app, file.folder, id, kind);
      if (kind === 'code') this.s.events.poke(id);
    }
    return outcome;
  }

  /** The action's id on the server, by key; by the folder's remembered id when the key was changed here. */
  private async resolveId(file: ActionFile, key: string): Promise<string | undefined> {
    return this.s.model.idFor(file.app, file.folder, key);
  }

  private offerCreate(file: ActionFile, key: string, options: PushOptions): void {
    const reason = `${key} does not exist on the server yet.`;
    this.status.notPushed(key, `${reason} Create it from the Custom Actions view.`);
    if (options.quiet) return;
    const ask = () => vscode.window.showInformationMessage(`${reason} Create it from its ${ACTION_FILE}, then push its ${MAIN_FILE}?`, 'Create on Server');
    this.notices.show(`create:${file.folder.toString()}`, ask, async (choice) => {
      if (choice !== 'Create on Server') return;
      const yaml = await readActionYaml(file.folder, 'saved');
      if (!yaml?.metadata) {
        const first = yaml?.problems[0];
        void vscode.window.showErrorMessage(
          `${ACTION_FILE} of ${key} has problems${first ? ` (line ${first.range.start.line + 1}: ${first.message})` : ''}; fix them before creating the action.`,
        );
        return;
      }
      // It pushes main.ts as it is then, once the action exists.
      await this.create(file.app, file.folder, yaml.metadata);
    });
  }

  private refuseWithErrors(file: ActionFile, key: string, problems: readonly vscode.Diagnostic[], options: PushOptions): PushResult {
    const first = problems[0];
    const where = first ? ` (line ${first.range.start.line + 1}: ${first.message})` : '';
    const reason = `${file.name} of ${key} has ${problems.length} error${problems.length === 1 ? '' : 's'}${where}, so it was not pushed.`;
    if (options.quiet) {
      // An auto-save in the middle of typing: calm until the file stays refused for a while.
      this.status.editing(key, reason, { problems: true });
      return { kind: 'not-pushed', reason };
    }
    this.status.notPushed(key, `${reason} It is pushed as soon as a save passes the checks.`, { problems: true, pushAnyway: file.uri.toString() });
    const ask = () => vscode.window.showWarningMessage(`${reason} (customActions.pushWithErrors is off.)`, 'Push Anyway', 'Show Problems');
    this.notices.show(`errors:${file.uri.toString()}`, ask, async (choice) => {
      if (choice === 'Push Anyway') await this.pushAsItIs(file.uri, 'code', { ...options, anyway: true });
      if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return { kind: 'not-pushed', reason };
  }

  private refuseMarkers(file: ActionFile, key: string, options: PushOptions): PushResult {
    const reason = `${file.name} of ${key} still holds conflict markers, so it was not pushed. Resolve them, then save.`;
    this.status.notPushed(key, reason);
    if (!options.quiet)
      this.notices.show(
        `markers:${file.uri.toString()}`,
        () => vscode.window.showWarningMessage(reason),
        () => undefined,
      );
    return { kind: 'not-pushed', reason };
  }

  private locate(uri: vscode.Uri): Promise<ActionFile | undefined> {
    return this.s.model.fileAt(uri);
  }

  /**
   * One write, decided by the core's rule for a part (src/core/deploy/pushPart.ts, the command line's
   * too): conditional on the base in customactions.lock.json where the server checks versions, else
   * read first; with no base, held unless the server holds the same text or no code. A held part
   * rejects with `HeldPush`, so the queue counts it as not accepted. The new base is recorded at once
   * and written behind (never awaited), so the end of a push is not delayed by the file.
   */
  private async write(id: string, kind: PushKind, content: string, signal: AbortSignal): Promise<void> {
    const target = this.targets.get(id);
    if (!target) throw new Error(`No application is known for the action ${id}.`);
    const part = PART[kind];
    const hash = kind === 'code' ? codeHash(content) : metadataHash(JSON.parse(content) as object);
    await this.s.connections.call(target.app, async (client) => {
      const [caps, locked] = await Promise.all([client.capabilities({ signal }), this.bases.part(target.app, id, part)]);
      const replaced = this.replaced.get(`${kind}:${id}`);
      // No tag: the server is read, and its version is the base only when it is exactly that text.
      const base = locked ?? (replaced === undefined ? undefined : { etag: undefined, hash: replaced });
      const result = await pushPart(client, { id, part, content, hash, base, force: false, resend: this.byHand.get(`${kind}:${id}`) === true, caps, signal });
      if (result.base) this.bases.record(target.app, { id, key: target.label }, part, result.base);
      this.written.set(`${kind}:${id}`, result.outcome);
      if (result.outcome.kind === 'held') {
        // Held against the text the save replaced, not a base: no pull or push of it is known here.
        const why = locked === undefined && result.outcome.why === 'changed-on-server' ? 'no-base' : result.outcome.why;
        throw new HeldPush(why, result.outcome.server, part);
      }
      if (result.outcome.kind === 'pushed') void this.remember(target, id, part, content, result.base?.etag, result.outcome.checked);
    });
  }

  /** Records an accepted push in the deploy history, behind the push: it never delays it. */
  private remember(target: Target, id: string, part: VersionedResource, content: string, etag: string | undefined, checked: boolean): Promise<void> {
    const time = new Date().toISOString();
    return this.history.record(
      this.s.connections
        .baseUrl()
        .then(({ logical }) => ({ appId: target.app.id, actionId: id, actionKey: target.label, part, content, time, target: logical, etag, checked })),
    );
  }

  /**
   * Pushes `content` (a version from the history) as the action's code or metadata, through the same
   * queue and the same conflict check as a save: a change on the server since the base is held. When
   * the file differs from the version, its auto-saves are held from the moment the redeploy is sent,
   * so the next keystroke cannot push the newer text back over the version the user chose.
   */
  async redeploy(app: Application, folder: vscode.Uri, id: string, label: string, part: VersionedResource, content: string): Promise<PushOutcome> {
    const kind: PushKind = part === 'implementation' ? 'code' : 'metadata';
    const file = localFileOf(folder, part);
    this.targets.set(id, { app, label, folder });
    this.retries.set(`${kind}:${id}`, () => this.redeploy(app, folder, id, label, part, content));
    this.quietly.set(`${kind}:${id}`, false);
    const hash = part === 'implementation' ? codeHash(content) : metadataHashOfJson(content);
    const differs = (await this.fileHash(folder, part)) !== hash;
    const hold: Hold = { kind, folder, label, why: 'redeploy', hash };
    if (differs) this.holds.set(file.toString(), hold);
    const outcome = await (kind === 'code' ? this.code : this.metadata).push(id, content, { force: true });
    if (outcome.kind === 'failed') {
      // Nothing was redeployed: the file's saves push as before.
      if (this.holds.get(file.toString()) === hold) this.holds.delete(file.toString());
      return outcome;
    }
    this.settle(kind, folder.toString());
    if (outcome.kind === 'accepted') this.s.model.pushed(app, folder, id, kind);
    if (differs && this.holds.get(file.toString()) === hold) this.toldRedeployed(file, hold);
    return outcome;
  }

  /**
   * After a redeploy the editor and the server differ: said in a notification and in the status bar,
   * which keeps the choices (take the version into the editor, compare, push the editor's text).
   */
  private toldRedeployed(file: vscode.Uri, hold: Hold): void {
    const name = PART_FILE[hold.kind];
    const text = `${name} of ${hold.label} differs from the server`;
    const tooltip = `You redeployed a version of the ${name} of ${hold.label}; the server runs it now, and your editor holds other text. Auto-save does not push it over the redeploy: save by hand (Ctrl+S) to push it, or take the redeployed version into the editor.`;
    this.status.holding(hold.folder.toString(), hold.kind, text, tooltip);
    const ask = () =>
      vscode.window.showInformationMessage(
        `Redeployed the chosen version of ${name} of ${hold.label}: the server runs it now. Your editor still holds other text, which auto-save will not push over it: save by hand (Ctrl+S) to push it, or take the redeployed version into the editor.`,
        TAKE_INTO_EDITOR,
        COMPARE,
      );
    this.notices.show(`redeployed:${hold.kind}:${hold.folder.toString()}`, ask, (choice) => this.heldChoice(file, choice));
  }

  /** Merge put the server's text into the file (not saved): auto-saves of it are held until a save by hand. */
  private holdMerged(target: { readonly folder: vscode.Uri; readonly part: VersionedResource; readonly label: string }): () => void {
    const kind: PushKind = target.part === 'implementation' ? 'code' : 'metadata';
    const file = localFileOf(target.folder, target.part);
    const hold: Hold = { kind, folder: target.folder, label: target.label, why: 'merge', hash: undefined };
    this.holds.set(file.toString(), hold);
    const name = PART_FILE[kind];
    this.status.holding(
      target.folder.toString(),
      kind,
      `Merged ${name} of ${target.label}: save by hand to push`,
      `The merge of the server's ${name} of ${target.label} with yours is in the editor, not pushed. Auto-save does not push it: review it, then save by hand (Ctrl+S) to push it. Nothing is pushed while conflict markers remain.`,
    );
    // The merge could not be applied after all: nothing to hold.
    return () => {
      if (this.holds.get(file.toString()) !== hold) return;
      this.holds.delete(file.toString());
      this.status.released(target.folder.toString(), kind);
    };
  }

  /**
   * Whether a push of `file` is held back: an auto-save of a file held until a save by hand, unless the
   * file is the server's version again (the hold's hash). A save by hand, or the server's version, ends the hold.
   */
  private heldBack(file: ActionFile, kind: PushKind, hash: string | undefined, options: PushOptions): boolean {
    const key = file.uri.toString();
    const hold = this.holds.get(key);
    if (!hold) return false;
    if (options.quiet && (hold.hash === undefined || hash !== hold.hash)) {
      this.s.log.info(
        `${file.name} of ${hold.label} was auto-saved: not pushed, ${hold.why === 'merge' ? 'a merge' : 'a redeploy'} is held until a save by hand.`,
      );
      return true;
    }
    this.holds.delete(key);
    this.status.released(hold.folder.toString(), kind);
    return false;
  }

  private holdReason(file: ActionFile): string {
    const hold = this.holds.get(file.uri.toString());
    return hold?.why === 'redeploy'
      ? `${file.name} differs from the version just redeployed: an auto-save does not push it; a save by hand does.`
      : `${file.name} holds a merge: an auto-save does not push it; a save by hand does.`;
  }

  /** Whether auto-saves of `file` are held until a save by hand, and why. */
  private heldFile(file: vscode.Uri): 'merge' | 'redeploy' | undefined {
    return this.holds.get(file.toString())?.why;
  }

  /** The choices about a held file, from the notification or the status bar's quick pick. */
  async heldChoice(file: vscode.Uri, choice: string): Promise<unknown> {
    const hold = this.holds.get(file.toString());
    const action = await this.s.model.actionAt(file);
    if (!action?.remote || !action.local) return undefined;
    const part: VersionedResource = file.path.endsWith(`/${ACTION_FILE}`) ? 'metadata' : 'implementation';
    if (choice === COMPARE) return this.conflicts.compare(action.app, action.local.folder, action.remote.id, part, action.key);
    if (choice === PUSH_NOW) return this.pushAsItIs(file, part === 'implementation' ? 'code' : 'metadata', { manual: true });
    if (choice !== TAKE_INTO_EDITOR) return undefined;
    // The server's version as it is when clicked: what the user takes is what the server runs.
    const server = await readServerCopy(this.s, action.app, action.local.folder, action.remote.id, part);
    if (!server) {
      void vscode.window.showWarningMessage(
        `The server cannot return the ${PART_FILE[part === 'implementation' ? 'code' : 'metadata']} of ${action.key}; the editor is unchanged.`,
      );
      return undefined;
    }
    if (!(await replaceDocumentText(file, server.text))) return undefined;
    // The editor holds the server's version now: its saves may go again.
    if (hold && this.holds.get(file.toString()) === hold) {
      this.holds.delete(file.toString());
      this.status.released(hold.folder.toString(), hold.kind);
    }
    await vscode.window.showTextDocument(file, { preview: false });
    return server;
  }

  /** What the status bar item of a held file offers. */
  heldChoices(file: vscode.Uri): string[] {
    const why = this.heldFile(file);
    if (why === 'redeploy') return [TAKE_INTO_EDITOR, COMPARE, PUSH_NOW];
    if (why === 'merge') return [PUSH_NOW, COMPARE];
    return [];
  }

  /** The held push of `part` of the action in `folder` that still stands, as last told. */
  standingConflict(folder: vscode.Uri, part: VersionedResource): Conflict | undefined {
    return this.standing.get(`${part === 'implementation' ? 'code' : 'metadata'}:${folder.toString()}`);
  }

  /** The parts of the action in `folder` with a held push that still stands. */
  standingParts(folder: vscode.Uri): VersionedResource[] {
    return (['implementation', 'metadata'] as const).filter((part) => this.standingConflict(folder, part) !== undefined);
  }

  /** Merge, from any of the places that offer it: the held push told, or else the action's part as it is. */
  merge(target: Pick<Conflict, 'app' | 'folder' | 'id' | 'part' | 'label'>): Promise<MergeOutcome> {
    return this.conflicts.merge(target);
  }

  /**
   * Overwrite, from any of the places that offer it: over the version the held push was told about; with
   * no held push standing, the file is pushed by hand, checked as a save is (a change is held and told).
   */
  overwrite(folder: vscode.Uri, part: VersionedResource): Promise<unknown> {
    const conflict = this.standingConflict(folder, part);
    if (conflict) return this.conflicts.overwrite(conflict);
    return this.pushAsItIs(localFileOf(folder, part), part === 'implementation' ? 'code' : 'metadata', { manual: true });
  }

  /** A push of `kind` of the action in `folder` went through: no held push of it stands any more. */
  private settle(kind: PushKind, folder: string): void {
    if (this.standing.delete(`${kind}:${folder}`)) this.conflictsChanged();
  }

  private conflictsChanged(): void {
    void vscode.commands.executeCommand('setContext', CONFLICT_HELD, this.standing.size > 0);
  }

  private async fileHash(folder: vscode.Uri, part: VersionedResource): Promise<string | undefined> {
    if (part === 'implementation') {
      const text = await currentText(localFileOf(folder, part));
      return text === undefined ? undefined : codeHash(text);
    }
    const yaml = await readActionYaml(folder, 'current');
    return yaml?.metadata ? metadataHashOr(yaml.metadata) : undefined;
  }

  /** What the Retry button does: the last push of the part again (the file as it is now, or the redeployed version). */
  private retry(kind: PushKind, id: string): Promise<PushResult> | undefined {
    return this.retries.get(`${kind}:${id}`)?.();
  }

  /** Notifications open (`failed:code:<id>`, `errors:<uri>`, `create:<folder>`, …), for tests. */
  get offers(): readonly string[] {
    return this.notices.keys;
  }

  private settled(id: string, kind: PushKind, outcome: PushOutcome, more: boolean): void {
    const label = this.targets.get(id)?.label ?? id;
    switch (outcome.kind) {
      case 'accepted': {
        const written = this.written.get(`${kind}:${id}`);
        if (written?.kind === 'unchanged') {
          this.s.log.info(`The server holds this ${kind} of ${label} already; nothing was sent.`);
          if (!more) this.status.upToDate(label, kind);
          return;
        }
        const checked = written?.kind === 'pushed' && written.checked;
        this.s.log.info(`Pushed the ${kind} of ${label} (${id}) in ${outcome.durationMs} ms${checked ? ', checked against its base' : ` (${UNCHECKED})`}.`);
        this.status.pushed(this.slotOf(id), label, kind, outcome.durationMs, more, checked ? undefined : UNCHECKED);
        return;
      }
      case 'unchanged':
        this.s.log.info(`The server holds this ${kind} of ${label} already; nothing was sent.`);
        if (!more) this.status.upToDate(label, kind);
        return;
      case 'failed': {
        if (outcome.error instanceof ApiError && outcome.error.kind === 'cancelled') return;
        const target = this.targets.get(id);
        if (outcome.error instanceof HeldPush && target) {
          this.held({ app: target.app, id, label, folder: target.folder, part: PART[kind], why: outcome.error.why, server: outcome.error.server });
          return;
        }
        const folder = target?.folder ?? vscode.Uri.parse(`custom-actions-action:${encodeURIComponent(id)}`);
        this.failed(folder, label, kind, outcome.durationMs, outcome.error, this.quietly.get(`${kind}:${id}`) === true, () => this.retry(kind, id));
        return;
      }
    }
  }

  /**
   * A push held because the action changed on the server: nothing was pushed, the file is as it was.
   * Told in a notification even after an auto-save: unlike errors of half-typed code, it waits for a
   * decision that typing on will not make. One per action and part while it lasts.
   */
  private held(conflict: Conflict): void {
    const kind: PushKind = conflict.part === 'implementation' ? 'code' : 'metadata';
    const what = kind === 'code' ? 'code' : 'metadata';
    const reason =
      conflict.why === 'no-base'
        ? `${conflict.label} on the server holds ${what} that this workspace never pulled or pushed (no base in ${LOCK_FILE}): your ${what} was not pushed, and your file is unchanged.`
        : `${conflict.label} changed on the server since your last pull or push: your ${what} was not pushed, and your file is unchanged.`;
    this.s.log.warn(
      `The ${what} of ${conflict.label} (${conflict.id}) was held: ${conflict.why === 'no-base' ? 'no base is known for it, and the server holds other text' : `the server holds another version (${conflict.server.etag ?? 'untagged'}) than the base`}.`,
    );
    this.standing.set(`${kind}:${conflict.folder.toString()}`, conflict);
    this.conflictsChanged();
    this.status.conflict(conflict.folder.toString(), conflict.label, kind, reason);
    this.s.model.serverChanged(conflict.app, conflict.id, true);
    const ask = () =>
      vscode.window.showWarningMessage(
        `${reason} Compare, merge, or overwrite the server's version? (The same choices stay in the status bar, the diff's title and the action's menu.)`,
        COMPARE,
        MERGE,
        OVERWRITE,
      );
    this.notices.show(`conflict:${kind}:${conflict.folder.toString()}`, ask, async (choice) => {
      if (choice === COMPARE) await this.conflicts.compare(conflict.app, conflict.folder, conflict.id, conflict.part, conflict.label);
      if (choice === MERGE) await this.conflicts.merge(conflict);
      if (choice === OVERWRITE) await this.conflicts.overwrite(conflict);
    });
  }

  private failed(
    folder: vscode.Uri,
    label: string,
    kind: PushKind,
    durationMs: number,
    error: unknown,
    quiet: boolean,
    retry: () => Promise<unknown> | undefined,
  ): void {
    const reason = errorMessage(error);
    this.s.log.error(`The ${kind} of ${label} was not pushed: ${reason}`);
    this.status.failedPush(folder.toString(), label, kind, durationMs, reason);
    if (quiet) return;
    // A warning, not an error: VS Code keeps an error with buttons on screen until it is dismissed,
    // where it would go on saying "not pushed" after a later save went through.
    const ask = () => vscode.window.showWarningMessage(`The ${kind} of ${label} was not pushed: ${reason} Your file is unchanged.`, 'Retry', 'Show Log');
    this.notices.show(`failed:${kind}:${folder.toString()}`, ask, async (choice) => {
      if (choice === 'Retry') await retry();
      if (choice === 'Show Log') this.s.log.show();
    });
  }

  /** What the status bar keys an action by: its folder, known before its id is (docs/deploy.md). */
  private slotOf(id: string): string {
    return this.targets.get(id)?.folder.toString() ?? id;
  }

  private turn(uri: vscode.Uri): { current(): boolean } {
    const key = uri.toString();
    const mine = ++this.sequence;
    this.latest.set(key, mine);
    return { current: () => this.latest.get(key) === mine };
  }

  private skip(options: PushOptions, reason: string): PushResult {
    if (options.manual) void vscode.window.showWarningMessage(reason);
    else this.s.log.info(reason);
    return { kind: 'not-pushed', reason };
  }
}

/** The context key the diff editor's title shows Merge and Overwrite on: some held push stands. */
export const CONFLICT_HELD = 'customActions.conflictHeld';
export const TAKE_INTO_EDITOR = 'Take into Editor';
export const PUSH_NOW = 'Push Now';

const PART_FILE: Record<PushKind, string> = { code: MAIN_FILE, metadata: ACTION_FILE };

/** A file whose auto-saves are held until a save by hand. */
interface Hold {
  readonly kind: PushKind;
  readonly folder: vscode.Uri;
  readonly label: string;
  readonly why: 'merge' | 'redeploy';
  /** The hash of the server's version: a save of exactly it is harmless and ends the hold. */
  readonly hash: string | undefined;
}

/** The hash of metadata, or undefined when it cannot be hashed (nested too deep): then it matches nothing. */
function metadataHashOr(metadata: object): string | undefined {
  try {
    return metadataHash(metadata);
  } catch {
    return undefined;
  }
}

function metadataHashOfJson(content: string): string | undefined {
  try {
    return metadataHashOr(JSON.parse(content) as object);
  } catch {
    return undefined;
  }
}

const UNCHECKED = 'this server cannot check a write against the version it replaces';

function basename(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
