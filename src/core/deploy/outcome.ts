/**
 * What came of one step of deploying an action: the one typed answer both faces render, a save in the
 * editor (status bar, notification, log) and a deploy on the command line (a line, `--json`, an exit
 * code). Every way a step can end is a kind here; nothing of it travels as an exception, a string
 * reason or a field set on the side.
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
  /** The content's hash, when the part was read. */
  readonly hash?: string;
  /** The kept version's number, where the server keeps versions. */
  readonly version?: number;
  /** ISO 8601. */
  readonly at?: string;
  /** The writer's client (its User-Agent), untrusted text: show it through serverText. */
  readonly by?: string;
}

/**
 * Why a step was refused before anything was sent: code that disagrees with its metadata or does not
 * parse (`problems`), a file holding conflict markers, code that defines no `main`, an action.yaml that
 * is not valid metadata, a key another folder of the application declares too. Two are the editor's alone: a file that is not the code of an action folder
 * (or cannot be read), and an auto-save of a file whose merge or redeploy waits for a save by hand.
 */
export type RefusedReason = 'problems' | 'conflict-markers' | 'no-main' | 'invalid-metadata' | 'shared-key' | 'not-action-code' | 'awaiting-save-by-hand';

export type Outcome =
  /** Sent and accepted (in a dry run: would be sent). `checked`: the server checked it against the base. */
  | { readonly kind: 'pushed'; readonly step: Step; readonly op: 'create' | 'update' | 'delete'; readonly checked: boolean }
  /** The server holds it already, and still holds the base it came from: nothing sent. */
  | { readonly kind: 'unchanged'; readonly step: Part }
  /** Not sent: the server holds a version this copy was not derived from (named), or deleted the action. */
  | { readonly kind: 'held'; readonly step: Step; readonly why: HeldReason; readonly server: ServerVersionInfo }
  /** Not sent: what the workspace holds is wrong; `problems` positions it where it can be. */
  | { readonly kind: 'refused'; readonly step: Step; readonly why: RefusedReason; readonly problems: readonly FileProblem[] }
  /** Not sent: the server has no such action (a save does not create one; it offers to). */
  | { readonly kind: 'not-on-server'; readonly step: 'action' }
  /** Sent and not accepted, or not known to be: `message` says why, never holding a key. */
  | { readonly kind: 'failed'; readonly step: Step; readonly error: unknown; readonly message: string }
  /** Not attempted, because an earlier step of the action did not go through. */
  | { readonly kind: 'skipped'; readonly step: Step; readonly because: Step }
  /** A newer text of the same part took its place before it was sent (a save in the editor). */
  | { readonly kind: 'superseded'; readonly step: Part }
  /** Stopped before an answer: the window closed, the deploy was interrupted. Nothing to tell. */
  | { readonly kind: 'cancelled'; readonly step: Step }
  /** On the server only, left alone (deleting takes an explicit flag). */
  | { readonly kind: 'only-on-server'; readonly step: 'action' };

export type OutcomeKind = Outcome['kind'];

export interface ActionOutcome {
  readonly application: string;
  readonly key: string;
  /** The action's id on the server, once known. */
  readonly id: string | undefined;
  readonly steps: readonly Outcome[];
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

/** A failure's outcome: its message (the client's errors never hold a key), the error kept for the face's hint. */
export function failedOutcome(step: Step, error: unknown): Extract<Outcome, { kind: 'failed' }> {
  return { kind: 'failed', step, error, message: error instanceof Error ? error.message : String(error) };
}

/**
 * The verdict of an action, in the words of both faces: the worst of its steps, else what was done.
 * The command line prints it as the line's first word; the scenario table compares it across faces.
 */
export type Verdict = 'created' | 'updated' | 'deleted' | 'unchanged' | 'held' | 'refused' | 'not-on-server' | 'failed' | 'cancelled' | 'only-on-server';

export function verdictOf(steps: readonly Outcome[]): Verdict {
  const kinds = new Set(steps.map((s) => s.kind));
  if (kinds.has('failed')) return 'failed';
  if (kinds.has('cancelled')) return 'cancelled';
  if (kinds.has('held')) return 'held';
  if (kinds.has('refused')) return 'refused';
  if (kinds.has('not-on-server')) return 'not-on-server';
  if (kinds.has('only-on-server')) return 'only-on-server';
  const pushed = steps.filter((s): s is Extract<Outcome, { kind: 'pushed' }> => s.kind === 'pushed');
  if (pushed.some((s) => s.op === 'create')) return 'created';
  if (pushed.some((s) => s.op === 'delete')) return 'deleted';
  return pushed.length > 0 ? 'updated' : 'unchanged';
}
