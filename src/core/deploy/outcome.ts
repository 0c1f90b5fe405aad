/**
 * What came of deploying one action, part by part: the typed record the command line prints. A save in
 * the editor comes to pushed, unchanged, held or failed for one part, as ./savePush.ts's `SaveOutcome`.
 */
import { type Range } from '../analysis/types';
import { type HeldReason, type Part } from './decide';
import { type LockedAction } from './lock';

/** `action` is the action as a whole: its create, or its delete. */
export type Step = Part | 'action';

/** A problem of a file of the workspace, where the Problems panel shows it (0-based, as there). */
export interface FileProblem {
  /** The file, relative to the project's folder, '/'-separated. */
  readonly file: string;
  readonly range: Range;
  readonly message: string;
  /** For code: the mismatch's kind (`count`, `type`, …) or `syntax`, the code the Problems panel shows. */
  readonly code?: string;
}

/** The server's version of a held part, as far as it could be read: what changed, when, by whom. */
export interface ServerVersionInfo {
  readonly etag?: string;
  /** The kept version's number, where the server keeps versions. */
  readonly version?: number;
  /** ISO 8601. */
  readonly at?: string;
  /** The writer's client (its User-Agent), untrusted text: show it through serverText. */
  readonly by?: string;
}

export type StepOutcome =
  /** Sent and accepted (in a dry run: would be sent). `checked`: the server checked it against the base. */
  | { readonly kind: 'pushed'; readonly step: Step; readonly op: 'create' | 'update' | 'delete'; readonly checked: boolean }
  /** The server holds it already: nothing sent. */
  | { readonly kind: 'unchanged'; readonly step: Part }
  /** Not sent: the server holds a version this copy was not derived from (named), or deleted the action. */
  | { readonly kind: 'held'; readonly step: Step; readonly why: HeldReason; readonly server?: ServerVersionInfo }
  /** Not sent: what the workspace holds is wrong (code that disagrees with its metadata, an invalid action.yaml). */
  | { readonly kind: 'refused'; readonly step: Step; readonly problems: readonly FileProblem[] }
  /** Sent and not accepted, or not known to be: `message` says why, never holding a key. */
  | { readonly kind: 'failed'; readonly step: Step; readonly error: unknown; readonly message: string }
  /** Not attempted, because an earlier step of the action did not go through. */
  | { readonly kind: 'skipped'; readonly step: Step; readonly because: Step }
  /** A newer text of the same part took its place before it was sent (a save in the editor). */
  | { readonly kind: 'superseded'; readonly step: Part }
  /** On the server only, left alone (deleting takes an explicit flag). */
  | { readonly kind: 'only-on-server'; readonly step: 'action' };

export interface ActionOutcome {
  readonly application: string;
  readonly key: string;
  /** The action's id on the server, once known. */
  readonly id: string | undefined;
  readonly steps: readonly StepOutcome[];
  /**
   * The action's base after this run, for the lock: undefined leaves the lock's entry as it is, null
   * removes it (the action was deleted).
   */
  readonly base: LockedAction | null | undefined;
  /** A dry run: nothing was written, and `pushed` means "would be sent". */
  readonly dryRun: boolean;
}

/** Whether the action is as the workspace has it on the server after this run. */
export function settled(outcome: ActionOutcome): boolean {
  return outcome.steps.every((s) => s.kind === 'pushed' || s.kind === 'unchanged');
}
