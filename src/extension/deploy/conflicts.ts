import * as vscode from 'vscode';
import { baseAfter } from '../../core/deploy/base';
import { type VersionedResource } from '../../core/client';
import { changedSinceBase, type HeldReason } from '../../core/deploy/decide';
import { type ServerVersionInfo } from '../../core/deploy/outcome';
import { mergeTexts, trustedBase } from '../../core/deploy/merge';
import { ACTION_FILE, MAIN_FILE } from '../../core/workspace';
import { type Application } from '../project';
import { assertInsideWorkspace, replaceDocumentText } from '../files';
import { type Parts } from '../parts';
import { type LockStore } from '../lockStore';
import { currentText } from './locate';
import { type ServerCopy, localFileOf, readBaseCopy, readServerCopy } from './serverCopy';

/**
 * A push held by the core's rule: the action changed on the server since the local copy was derived
 * from it (a 412, or a read that found another version), or no base is known and the server holds
 * other text.
 */
export interface Conflict {
  readonly app: Application;
  readonly id: string;
  readonly label: string;
  readonly folder: vscode.Uri;
  readonly part: VersionedResource;
  readonly why: HeldReason;
  /** The server's version the user is told about: what Overwrite replaces, and only it. */
  readonly server: ServerVersionInfo;
}

export const COMPARE = 'Compare';
export const MERGE = 'Merge';
export const OVERWRITE = 'Overwrite';

export type MergeOutcome =
  | { readonly kind: 'merged'; readonly conflicts: number; readonly etag: string | undefined }
  | { readonly kind: 'in-step' }
  | { readonly kind: 'unavailable'; readonly reason: string };

/**
 * What the user can do about a held push: compare the server's text with theirs, merge the two
 * (base ↔ server ↔ local) into the file, or overwrite the server's version they were told about.
 * Every button reads the server and the file when it is clicked, never what they were when the
 * conflict was found, so a late click cannot undo a newer push or edit.
 */
export class Conflicts {
  constructor(
    private readonly s: Pick<Parts, 'connections' | 'log' | 'serverVersions'>,
    private readonly bases: LockStore,
    /** Pushes the file as it is now (a push by hand), through the same conflict check. */
    private readonly push: (file: vscode.Uri, part: VersionedResource) => Promise<unknown>,
    /**
     * Holds the file's auto-saves until a save by hand, from before the merge goes into the editor
     * (an auto-save comes a second after the edit); returns what lets go of it if the edit fails.
     */
    private readonly holdFromAutoSave: (target: { app: Application; folder: vscode.Uri; part: VersionedResource; label: string }) => () => void,
  ) {}

  /** Compare: the server's text now ↔ the local file, in VS Code's diff editor. */
  async compare(app: Application, folder: vscode.Uri, id: string, part: VersionedResource, label: string): Promise<ServerCopy | undefined> {
    const local = localFileOf(folder, part);
    const server = await readServerCopy(this.s, app, folder, id, part);
    if (!server) {
      void vscode.window.showWarningMessage(
        `The server cannot return the ${part === 'implementation' ? 'code' : 'metadata'} of ${label}, so there is nothing to compare with.`,
      );
      return undefined;
    }
    const left = this.s.serverVersions.hold(local.path, server.text);
    await vscode.commands.executeCommand('vscode.diff', left, local, `${nameOf(part)} of ${label}: Server ↔ Local`, { preview: false });
    return server;
  }

  /**
   * Merge: the server's text now and the local file, three ways against the version the local copy
   * was derived from. The result goes into the editor (undoable, unsaved): where both changed the
   * same lines, with conflict markers VS Code's merge-conflict support offers to resolve. The base
   * becomes the server's version merged with, so the save after it pushes against that version.
   */
  async merge(conflict: Pick<Conflict, 'app' | 'folder' | 'id' | 'part' | 'label'>): Promise<MergeOutcome> {
    const { app, folder, id, part, label } = conflict;
    const uri = localFileOf(folder, part);
    const server = await readServerCopy(this.s, app, folder, id, part);
    if (!server)
      return this.unavailable(`The server cannot return the ${part === 'implementation' ? 'code' : 'metadata'} of ${label}, so it cannot be merged.`);
    const base = await this.bases.part(app, id, part);
    // In step by the core's rule of "changed on the server" (content against the base's, not tags).
    if (changedSinceBase(base, { hash: server.hash, etag: server.etag }) === false) {
      void vscode.window.showInformationMessage(`${nameOf(part)} of ${label} is based on the server's version already: save to push it.`);
      return { kind: 'in-step' };
    }
    const local = await currentText(uri);
    if (local === undefined) return this.unavailable(`${nameOf(part)} of ${label} cannot be read, so it cannot be merged.`);
    // The base's text only as recorded here (its hash): without it every difference is one both sides
    // made, and the markers show both. A base the server made up never decides what the user loses.
    const fetched = await readBaseCopy(this.s, app, folder, id, part, base?.etag).catch(() => undefined);
    const baseText = trustedBase(base?.hash, fetched);
    if (fetched && baseText === '' && fetched.text !== '')
      this.s.log.warn(`The server's base of ${label} is not the version recorded here (its hash differs): merged with no common base.`);
    const merged = mergeTexts(baseText, server.text, local, {
      local: `Local (your ${nameOf(part)})`,
      base: 'Base (your last pull or push)',
      server: 'Server (now)',
    });
    await assertInsideWorkspace(uri);
    const release = this.holdFromAutoSave({ app, folder, part, label });
    if (!(await replaceDocumentText(uri, merged.text).catch(() => false))) {
      release();
      return this.unavailable(`${nameOf(part)} of ${label} could not be edited; nothing was changed.`);
    }
    const mergedWith = baseAfter({ kind: 'merged', server });
    if (mergedWith) this.bases.record(app, { id, key: label }, part, mergedWith);
    await vscode.window.showTextDocument(uri, { preview: false });
    // What the message says happens next is exactly what the deployer does: the hold above.
    void vscode.window.showInformationMessage(
      merged.conflicts === 0
        ? `Merged the server's ${nameOf(part)} of ${label} into yours, in the editor. Nothing is pushed yet, and auto-save does not push it: review it, then save by hand (Ctrl+S) to push.`
        : `${merged.conflicts} conflict${merged.conflicts === 1 ? '' : 's'} marked in ${nameOf(part)} of ${label}: resolve ${merged.conflicts === 1 ? 'it' : 'them'} (Accept Current, Incoming or Both above each), then save by hand (Ctrl+S) to push. Nothing is pushed while markers remain, and auto-save does not push the merge.`,
    );
    return { kind: 'merged', conflicts: merged.conflicts, etag: server.etag };
  }

  /**
   * Overwrite: the file as it is now replaces the version the conflict reported, and only that one:
   * it becomes the base, so the push names it in `If-Match` (or, where the server checks nothing,
   * finds it by its hash), and a version written after the user was told is held again.
   */
  async overwrite(conflict: Conflict): Promise<unknown> {
    const { app, id, part, folder, server, label } = conflict;
    const named = baseAfter({ kind: 'overwritten', server });
    if (named) this.bases.record(app, { id, key: label }, part, named);
    return this.push(localFileOf(folder, part), part);
  }

  private unavailable(reason: string): MergeOutcome {
    void vscode.window.showWarningMessage(reason);
    return { kind: 'unavailable', reason };
  }
}

function nameOf(part: VersionedResource): string {
  return part === 'implementation' ? MAIN_FILE : ACTION_FILE;
}
