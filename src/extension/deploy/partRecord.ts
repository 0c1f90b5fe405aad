import type * as vscode from 'vscode';
import { type VersionedResource } from '../../core/client';
import { type Outcome } from '../../core/deploy/outcome';
import { type Application } from '../project';
import { type Conflict } from './conflicts';
import { localFileOf } from './serverCopy';
import { type PushKind } from './statusItem';

/**
 * What a push attempt came to, for the command and for tests: the core's outcome (./outcome.ts, the
 * command line's too), how long its request took, and for one that was not sent the words the user was told.
 */
export type PushResult = Outcome & { readonly durationMs?: number; readonly reason?: string };

/** Why auto-saves of a file wait for a save by hand. */
export interface Hold {
  readonly why: 'merge' | 'redeploy';
  /** The hash of the server's version: a save of exactly it is harmless and ends the hold. */
  readonly hash: string | undefined;
}

export const PART: Record<PushKind, VersionedResource> = { code: 'implementation', metadata: 'metadata' };
/** The other way: the push kind of a part. */
export const KIND: Record<VersionedResource, PushKind> = { implementation: 'code', metadata: 'metadata' };

/**
 * One part (code or metadata) of one action folder, as save to deploy follows it from push to push:
 * everything the deployer knows of it in one place, so nothing about it is kept in step by hand.
 */
export class PartRecord {
  /** The action's id on the server, once a push resolved it. */
  id: string | undefined;
  /** What Retry sends: the file the last push came from, read as it is then, or the version a redeploy sent. */
  retry: (() => Promise<PushResult>) | undefined;
  /** The latest push came from an auto-save: a failure of it is told without a notification. */
  quiet = false;
  /** The hash of the text the latest save replaced on disk, when known: a base where the lock has none. */
  replaced: string | undefined;
  /** The held push that still stands, as last told: what the status bar, the diff's title and the tree offer. */
  standing: Conflict | undefined;
  /** Auto-saves of the part's file wait for a save by hand (after a Merge or a Redeploy). */
  hold: Hold | undefined;

  constructor(
    readonly folder: vscode.Uri,
    readonly kind: PushKind,
    public app: Application,
    /** The action's key, as the user reads it. */
    public label: string,
  ) {}

  get part(): VersionedResource {
    return PART[this.kind];
  }

  /** The file of the part: main.ts or action.yaml. */
  get file(): vscode.Uri {
    return localFileOf(this.folder, this.part);
  }

  /** What the status bar keys an action by: its folder, known before its id is (docs/deploy.md). */
  get slot(): string {
    return this.folder.toString();
  }
}

/** The records of every action folder and part pushed from here, found by folder or by the server's id. */
export class PartRecords {
  private readonly byFolder = new Map<string, PartRecord>();
  private readonly byId = new Map<string, PartRecord>();

  /** The record of `kind` of the action in `folder`, made on first need; its application and label as now. */
  of(folder: vscode.Uri, kind: PushKind, app: Application, label: string): PartRecord {
    const key = `${kind}:${folder.toString()}`;
    const record = this.byFolder.get(key) ?? new PartRecord(folder, kind, app, label);
    this.byFolder.set(key, record);
    record.app = app;
    record.label = label;
    return record;
  }

  at(folder: vscode.Uri, part: VersionedResource): PartRecord | undefined {
    return this.byFolder.get(`${KIND[part]}:${folder.toString()}`);
  }

  /** The record a queue's push of `id` belongs to. */
  withId(kind: PushKind, id: string): PartRecord | undefined {
    return this.byId.get(`${kind}:${id}`);
  }

  /** The server's id of the record's action is `id` (known from the list): queue events for it find the record. */
  bind(record: PartRecord, id: string): void {
    if (record.id !== undefined && record.id !== id && this.byId.get(`${record.kind}:${record.id}`) === record) this.byId.delete(`${record.kind}:${record.id}`);
    record.id = id;
    this.byId.set(`${record.kind}:${id}`, record);
  }

  /** The record whose file's auto-saves are held, by that file. */
  holding(file: vscode.Uri): PartRecord | undefined {
    const key = file.toString();
    for (const record of this.byFolder.values()) if (record.hold && record.file.toString() === key) return record;
    return undefined;
  }

  /** Whether any held push still stands. */
  anyStanding(): boolean {
    for (const record of this.byFolder.values()) if (record.standing) return true;
    return false;
  }

  /** The action is gone from the server: its records go. */
  delete(record: PartRecord): void {
    this.byFolder.delete(`${record.kind}:${record.folder.toString()}`);
    if (record.id !== undefined && this.byId.get(`${record.kind}:${record.id}`) === record) this.byId.delete(`${record.kind}:${record.id}`);
  }
}

/**
 * The latest save of each file, so an older save still being prepared gives way to a newer one. Kept
 * per file, not per record: the turn is taken as the save arrives, before the file is known to be a
 * part of an action folder.
 */
export class SaveTurns {
  private readonly latest = new Map<string, number>();
  private sequence = 0;

  take(uri: vscode.Uri): { current(): boolean } {
    const key = uri.toString();
    const mine = ++this.sequence;
    this.latest.set(key, mine);
    return { current: () => this.latest.get(key) === mine };
  }
}
