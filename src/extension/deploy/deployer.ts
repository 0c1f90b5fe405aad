import * as vscode from 'vscode';
import { folderNameOf } from '../model';
import { type ActionMetadata } from '../../core/schema';
import { type VersionedResource } from '../../core/client';
import { codeHash, metadataHash } from '../../core/deploy/base';
import { conflictMarkerProblems } from '../../core/deploy/markers';
import { failedOutcome, type Outcome } from '../../core/deploy/outcome';
import { PushQueue, type PushRequest, type Settled } from '../../core/deploy/pushQueue';
import { pushSave, saveFailure } from '../../core/deploy/savePush';
import { ACTION_FILE, MAIN_FILE } from '../../core/workspace';
import { Disposable } from '../lifecycle';
import { type LocalAction, localActionFromText } from '../localActions';
import { type Application } from '../project';
import { replaceDocumentText } from '../files';
import { type Parts } from '../parts';
import { type Events } from '../events';
import { type LockStore } from '../lockStore';
import { type DeployHistoryStore } from './historyStore';
import { CodeChecks } from './codeCheck';
import { COMPARE, type Conflict, Conflicts, MERGE, type MergeOutcome, OVERWRITE } from './conflicts';
import { PUSH_NOW, SaveFeedback, TAKE_INTO_EDITOR, type Told } from './feedback';
import { type ActionFile, currentText, isMetadataFile, readActionYaml, savedText } from './locate';
import { type Hold, KIND, PART, type PartRecord, PartRecords, type PushResult, SaveTurns } from './partRecord';
import { RefusedSaves } from './refusedSaves';
import { localFileOf, readServerCopy } from './serverCopy';
import { type DeployStatusItem, type PushKind } from './statusItem';

export { type PushResult } from './partRecord';
export { PUSH_NOW, TAKE_INTO_EDITOR } from './feedback';

export interface PushOptions extends Told {
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

/**
 * The push pipeline of save to deploy. One save goes top to bottom: `pushCode` (or `pushMetadata`)
 * checks the text, `send` finds the action's record and queues the text, the queue's write is decided
 * by the core (`pushSave`, the command line's rule against the lock's base) and comes back as the
 * core's `Outcome`, which `settled` hands to `SaveFeedback` to tell: status bar, log, notification.
 * Two PushQueues carry the writes (one request in flight per action and part, saves meanwhile
 * coalesced; the core decides whether anything is sent); each action folder and part has one `PartRecord`.
 * Retry and Push Anyway send the file as it is when they are clicked, so a notification can never
 * put back an older save.
 */
export class Deployer extends Disposable {
  private readonly code: PushQueue<Outcome>;
  private readonly metadata: PushQueue<Outcome>;
  private readonly records = new PartRecords();
  private readonly turns = new SaveTurns();
  private readonly feedback: SaveFeedback;
  private readonly refused: RefusedSaves;
  private readonly checks: CodeChecks;
  readonly conflicts: Conflicts;

  constructor(
    private readonly s: Pick<Parts, 'config' | 'connections' | 'context' | 'log' | 'model' | 'serverVersions'> & { readonly events: Events },
    status: DeployStatusItem,
    private readonly bases: LockStore,
    private readonly history: DeployHistoryStore,
    /** Create on Server for an action the server does not have (deploy/create.ts): handed in, as it pushes through the feature. */
    private readonly create: (app: Application, folder: vscode.Uri, metadata: ActionMetadata) => Promise<unknown>,
  ) {
    super();
    this.checks = new CodeChecks(s);
    this.feedback = new SaveFeedback(s, status);
    this.conflicts = new Conflicts(
      s,
      bases,
      (uri, part) => this.pushAsItIs(uri, KIND[part], { manual: true }),
      (target) => this.holdMerged(target),
    );
    this.refused = this.register(new RefusedSaves((uri, text) => this.pushCode(uri, text, { manual: false, quiet: true }), s.log));
    this.code = new PushQueue<Outcome>({
      send: (id, content, signal, request) => this.write('code', id, content, signal, request),
      failed: (error) => saveFailure('implementation', error),
    });
    this.metadata = new PushQueue<Outcome>({
      send: (id, content, signal, request) => this.write('metadata', id, content, signal, request),
      failed: (error) => saveFailure('metadata', error),
    });
    for (const [queue, kind] of [
      [this.code, 'code'],
      [this.metadata, 'metadata'],
    ] as const) {
      const listening = queue.listen({
        onStart: (id) => {
          const record = this.records.withId(kind, id);
          if (record) this.feedback.pushing(record);
        },
        onSettle: (id, outcome, more) => this.settled(kind, id, outcome, more),
      });
      this.register({ dispose: () => (listening.dispose(), queue.dispose()) });
    }
    this.register(s.model.onDidRemoveActions(({ app, ids }) => ids.forEach((id) => this.gone(app, id))));
  }

  /** Begins the checks of a save's code as the save begins; its push (`pushCode` of the same text) takes them. */
  prepareCode(uri: vscode.Uri, text: string, options: PushOptions): void {
    this.checks.begin(uri, text, this.refusesErrors(options));
  }

  /** Pushes `text` as the code of the action holding `uri`. */
  pushCode(uri: vscode.Uri, text: string, options: PushOptions): Promise<PushResult> {
    return this.pushCodeIn(this.turns.take(uri), uri, text, options);
  }

  /**
   * Pushes the file as it is now, what Retry and Push Anyway send: never the text of the save that
   * raised the notification, which a newer save may have replaced on the server since.
   */
  async pushAsItIs(uri: vscode.Uri, kind: PushKind, options: PushOptions): Promise<PushResult> {
    if (kind === 'metadata') return this.pushMetadata(uri, options);
    // The turn is taken before the read, so a save made meanwhile wins over this push.
    const turn = this.turns.take(uri);
    const text = await savedText(uri);
    if (text === undefined) return this.feedback.skipped(options, `${basename(uri)} cannot be read, so it was not pushed.`);
    return this.pushCodeIn(turn, uri, text, options);
  }

  /** One save of code: checked, then sent; every way it can end before the server is told here, in order. */
  private async pushCodeIn(turn: { current(): boolean }, uri: vscode.Uri, text: string, options: PushOptions): Promise<PushResult> {
    this.refused.forget(uri);
    const check = await this.checks.take(uri, text);
    if (check.kind === 'not-code') return this.feedback.skipped(options, `${basename(uri)} is not the code of an action folder.`);
    const { file } = check;
    if (conflictMarkerProblems(text, file.name).length > 0) return this.feedback.refusedMarkers(file, basename(file.folder), options);
    const held = this.heldBack(file, codeHash(text), options);
    if (held) return held;
    if (check.kind === 'no-main') return this.feedback.noMain(file, options);
    if (this.refusesErrors(options)) {
      const problems = await check.problems();
      if (!turn.current()) return { kind: 'superseded', step: 'implementation' };
      if (problems.length > 0) {
        // Only a quiet refusal is looked at again: a later push of the same text must not follow a
        // notification that said it was not pushed. A save by hand is saved again by hand.
        if (options.quiet) this.refused.remember(uri, text);
        return this.feedback.refusedErrors(file, check.key, problems, options, () => this.pushAsItIs(file.uri, 'code', { ...options, anyway: true }));
      }
    }
    return this.send(file, 'code', check.key, text, turn, options, check.sharing);
  }

  private refusesErrors(options: PushOptions): boolean {
    return !options.anyway && (options.quiet === true || !this.s.config().pushWithErrors);
  }

  /** Pushes the saved action.yaml of `uri`: update when the action exists on the server, else an offer to create it. */
  async pushMetadata(uri: vscode.Uri, options: PushOptions): Promise<PushResult> {
    const turn = this.turns.take(uri);
    const file = await this.s.model.fileAt(uri);
    if (!file || !isMetadataFile(file)) return this.feedback.skipped(options, `${basename(uri)} is not the ${ACTION_FILE} of an action folder.`);
    // Read whole from disk, so what is sent is exactly what the workspace holds, never a half-edited form.
    const yaml = await readActionYaml(file.folder, 'saved');
    if (yaml && conflictMarkerProblems(yaml.text, ACTION_FILE).length > 0) return this.feedback.refusedMarkers(file, basename(file.folder), options);
    if (!yaml?.metadata) {
      const key = localActionFromText(file.folder, yaml?.text ?? '').key;
      const problems = yaml?.problems ?? [];
      const first = problems[0];
      const detail = first
        ? `line ${first.range.start.line + 1}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`
        : 'the file cannot be read';
      return this.feedback.invalidMetadata(uri, key, detail, options);
    }
    const metadata = yaml.metadata;
    const held = this.heldBack(file, metadataHashOr(metadata), options);
    if (held) return held;
    return this.send(file, 'metadata', metadata.key, JSON.stringify(metadata), turn, options);
  }

  /**
   * A checked text on its way to the server: the action's id from the model, the part's record
   * brought up to date with this push, then the queue (whose write is `write`). What the server made
   * of it is told by `settled`; here only what follows for the model and the notifications.
   */
  private async send(
    file: ActionFile,
    kind: PushKind,
    key: string,
    content: string,
    turn: { current(): boolean },
    options: PushOptions,
    // Begun with the code's check, while the editor wrote the file.
    sharingAhead?: Promise<readonly LocalAction[] | undefined>,
  ): Promise<PushResult> {
    // A key another folder of the application declares too: which one the server's action is would be a guess.
    const sharing = await (sharingAhead ?? this.s.model.sameKeyFolders(file.app, file.folder, key));
    if (sharing) return this.feedback.refusedSharedKey(file, key, sharing, options);
    if (!turn.current()) return { kind: 'superseded', step: PART[kind] };
    const record = this.records.of(file.folder, kind, file.app, key);
    const retry = () => this.pushAsItIs(file.uri, kind, { manual: false });
    let id: string | undefined;
    try {
      // By key; by the folder's remembered id when the key was changed here.
      id = await this.s.model.idFor(file.app, file.folder, key);
    } catch (error) {
      // The list could not be read: the same failure path as a refused push, Retry pushes the file anew.
      record.quiet = options.quiet === true;
      record.retry = retry;
      this.feedback.failed(record, error, 0);
      return { ...failedOutcome('action', error), durationMs: 0 };
    }
    this.feedback.listed(record);
    if (!turn.current()) return { kind: 'superseded', step: record.part };
    if (id === undefined) return this.feedback.notOnServer(file, key, options, () => this.createFrom(file, key));
    this.records.bind(record, id);
    record.retry = retry;
    record.quiet = options.quiet === true;
    record.replaced = options.replaces;
    const { result: outcome, durationMs } = await (kind === 'code' ? this.code : this.metadata).push(id, content, { force: options.manual });
    if (outcome.kind === 'pushed' || outcome.kind === 'unchanged') {
      // The server holds this file now, and it is the base: whatever failed before it is over, and
      // nothing is out of step (unchanged is judged against the base).
      this.feedback.over(record, file.uri);
      this.settle(record);
      this.s.model.serverChanged(file.app, id, false);
    }
    if (outcome.kind === 'pushed') {
      this.s.model.pushed(file.app, kind);
      if (kind === 'code') this.s.events.poke(id);
    }
    return { ...outcome, durationMs };
  }

  /**
   * The queue's write of one part, decided by the core (`pushSave`: against the base in
   * customactions.lock.json, conditional where the server checks versions, else read first; unchanged
   * only while the server still holds the base; with no base, held unless the server holds the same
   * text or no code): the outcome is its answer, held and failed included. The new base is recorded at
   * once and written behind (never awaited), so the end of a push is not delayed by the file; the
   * history entry likewise.
   */
  private async write(kind: PushKind, id: string, content: string, signal: AbortSignal, request: PushRequest): Promise<Outcome> {
    const record = this.records.withId(kind, id);
    const part = PART[kind];
    if (!record) return failedOutcome(part, new Error(`No application is known for the action ${id}.`));
    const { app } = record;
    const replaced = record.replaced;
    try {
      return await this.s.connections.call(app, async (client) => {
        const [caps, locked] = await Promise.all([client.capabilities({ signal }), this.bases.part(app, id, part)]);
        const result = await pushSave(client, { id, part, content, locked, replaced, resend: request.force === true, caps, signal });
        if (result.base) this.bases.record(app, { id, key: record.label, folder: folderNameOf(record.folder) }, part, result.base);
        if (result.outcome.kind === 'pushed') void this.remember(record, id, content, result.base?.etag, result.outcome.checked);
        return result.outcome;
      });
    } catch (error) {
      // The key or the capabilities could not be had: nothing was sent.
      return saveFailure(part, error);
    }
  }

  /** What a request for `id` came to, told once per request. */
  private settled(kind: PushKind, id: string, { result: outcome, durationMs }: Settled<Outcome>, more: boolean): void {
    const record = this.records.withId(kind, id);
    if (!record) return;
    if (outcome.kind !== 'held') return this.feedback.settled(record, outcome, durationMs, more);
    const conflict: Conflict = { app: record.app, id, label: record.label, folder: record.folder, part: record.part, why: outcome.why, server: outcome.server };
    record.standing = conflict;
    this.conflictsChanged();
    this.s.model.serverChanged(conflict.app, conflict.id, true);
    this.feedback.held(conflict, async (choice) => {
      if (choice === COMPARE) await this.conflicts.compare(conflict.app, conflict.folder, conflict.id, conflict.part, conflict.label);
      if (choice === MERGE) await this.conflicts.merge(conflict);
      if (choice === OVERWRITE) await this.conflicts.overwrite(conflict);
    });
  }

  /** Records an accepted push in the deploy history, behind the push: it never delays it. */
  private remember(record: PartRecord, id: string, content: string, etag: string | undefined, checked: boolean): Promise<void> {
    const time = new Date().toISOString();
    const { app, label, part } = record;
    return this.history.record(
      this.s.connections
        .baseUrl(app)
        .then(({ logical }) => ({ appId: app.id, actionId: id, actionKey: label, part, content, time, target: logical, etag, checked })),
    );
  }

  /** Create on Server, from the offer after a push of an action the server does not have: it pushes main.ts as it is then. */
  private async createFrom(file: ActionFile, key: string): Promise<unknown> {
    const yaml = await readActionYaml(file.folder, 'saved');
    if (!yaml?.metadata) {
      const first = yaml?.problems[0];
      void vscode.window.showErrorMessage(
        `${ACTION_FILE} of ${key} has problems${first ? ` (line ${first.range.start.line + 1}: ${first.message})` : ''}; fix them before creating the action.`,
      );
      return undefined;
    }
    return this.create(file.app, file.folder, yaml.metadata);
  }

  /**
   * The server no longer lists the action: a held push or a failure of it no longer stands, and its
   * base checks nothing. A notification already shown cannot be taken back; a click on it finds the
   * action gone and offers to create it.
   */
  private gone(app: Application, id: string): void {
    this.bases.forget(app, id);
    const known = this.records.withId('code', id) ?? this.records.withId('metadata', id);
    if (!known) return;
    this.feedback.gone(known.folder);
    for (const part of ['implementation', 'metadata'] as const) {
      const record = this.records.at(known.folder, part);
      if (!record) continue;
      this.records.delete(record);
      if (record.standing) this.conflictsChanged();
    }
  }

  /**
   * Pushes `content` (a version from the history) as the action's code or metadata, through the same
   * queue and the same conflict check as a save: a change on the server since the base is held. When
   * the file differs from the version, its auto-saves are held from the moment the redeploy is sent,
   * so the next keystroke cannot push the newer text back over the version the user chose.
   */
  async redeploy(app: Application, folder: vscode.Uri, id: string, label: string, part: VersionedResource, content: string): Promise<PushResult> {
    const kind = KIND[part];
    const record = this.records.of(folder, kind, app, label);
    this.records.bind(record, id);
    record.retry = () => this.redeploy(app, folder, id, label, part, content);
    record.quiet = false;
    const hash = part === 'implementation' ? codeHash(content) : metadataHashOfJson(content);
    const differs = (await this.fileHash(folder, part)) !== hash;
    const hold: Hold = { why: 'redeploy', hash };
    if (differs) record.hold = hold;
    const { result: outcome, durationMs } = await (kind === 'code' ? this.code : this.metadata).push(id, content, { force: true });
    if (outcome.kind !== 'pushed' && outcome.kind !== 'unchanged') {
      // Nothing was redeployed (held or failed, told as a save's): the file's saves push as before.
      if (record.hold === hold) record.hold = undefined;
      return { ...outcome, durationMs };
    }
    this.settle(record);
    if (outcome.kind === 'pushed') this.s.model.pushed(app, kind);
    if (differs && record.hold === hold) this.feedback.redeployed(record, (choice) => this.heldChoice(record.file, choice));
    return { ...outcome, durationMs };
  }

  /** Merge put the server's text into the file (not saved): auto-saves of it are held until a save by hand. */
  private holdMerged(target: { readonly app: Application; readonly folder: vscode.Uri; readonly part: VersionedResource; readonly label: string }): () => void {
    const record = this.records.of(target.folder, KIND[target.part], target.app, target.label);
    const hold: Hold = { why: 'merge', hash: undefined };
    record.hold = hold;
    this.feedback.merged(record);
    // The merge could not be applied after all: nothing to hold.
    return () => {
      if (record.hold !== hold) return;
      record.hold = undefined;
      this.feedback.released(record);
    };
  }

  /**
   * A push of `file` held back, or undefined: an auto-save of a file held until a save by hand, unless
   * the file is the server's version again (the hold's hash). A save by hand, or the server's version, ends the hold.
   */
  private heldBack(file: ActionFile, hash: string | undefined, options: PushOptions): PushResult | undefined {
    const record = this.records.holding(file.uri);
    const hold = record?.hold;
    if (!record || !hold) return undefined;
    if (options.quiet && (hold.hash === undefined || hash !== hold.hash)) return this.feedback.heldBack(file, record);
    record.hold = undefined;
    this.feedback.released(record);
    return undefined;
  }

  /** The choices about a held file, from the notification or the status bar's quick pick. */
  async heldChoice(file: vscode.Uri, choice: string): Promise<unknown> {
    const record = this.records.holding(file);
    const hold = record?.hold;
    const action = await this.s.model.actionAt(file);
    if (!action?.remote || !action.local) return undefined;
    const part: VersionedResource = file.path.endsWith(`/${ACTION_FILE}`) ? 'metadata' : 'implementation';
    if (choice === COMPARE) return this.conflicts.compare(action.app, action.local.folder, action.remote.id, part, action.key);
    if (choice === PUSH_NOW) return this.pushAsItIs(file, KIND[part], { manual: true });
    if (choice !== TAKE_INTO_EDITOR) return undefined;
    // The server's version as it is when clicked: what the user takes is what the server runs.
    const server = await readServerCopy(this.s, action.app, action.local.folder, action.remote.id, part);
    if (!server) {
      void vscode.window.showWarningMessage(
        `The server cannot return the ${part === 'implementation' ? MAIN_FILE : ACTION_FILE} of ${action.key}; the editor is unchanged.`,
      );
      return undefined;
    }
    if (!(await replaceDocumentText(file, server.text))) return undefined;
    // The editor holds the server's version now: its saves may go again.
    if (record && hold && record.hold === hold) {
      record.hold = undefined;
      this.feedback.released(record);
    }
    await vscode.window.showTextDocument(file, { preview: false });
    return server;
  }

  /** What the status bar item of a held file offers. */
  heldChoices(file: vscode.Uri): string[] {
    const why = this.records.holding(file)?.hold?.why;
    if (why === 'redeploy') return [TAKE_INTO_EDITOR, COMPARE, PUSH_NOW];
    if (why === 'merge') return [PUSH_NOW, COMPARE];
    return [];
  }

  /** The held push of `part` of the action in `folder` that still stands, as last told. */
  standingConflict(folder: vscode.Uri, part: VersionedResource): Conflict | undefined {
    return this.records.at(folder, part)?.standing;
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
    return this.pushAsItIs(localFileOf(folder, part), PART_KIND[part], { manual: true });
  }

  /** A push of the record's part went through: no held push of it stands any more. */
  private settle(record: PartRecord): void {
    if (!record.standing) return;
    record.standing = undefined;
    this.conflictsChanged();
  }

  private conflictsChanged(): void {
    void vscode.commands.executeCommand('setContext', CONFLICT_HELD, this.records.anyStanding());
  }

  private async fileHash(folder: vscode.Uri, part: VersionedResource): Promise<string | undefined> {
    if (part === 'implementation') {
      const text = await currentText(localFileOf(folder, part));
      return text === undefined ? undefined : codeHash(text);
    }
    const yaml = await readActionYaml(folder, 'current');
    return yaml?.metadata ? metadataHashOr(yaml.metadata) : undefined;
  }
}

/** The context key the diff editor's title shows Merge and Overwrite on: some held push stands. */
export const CONFLICT_HELD = 'customActions.conflictHeld';

const PART_KIND: Record<VersionedResource, PushKind> = { implementation: 'code', metadata: 'metadata' };

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

function basename(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
