/**
 * What a write would change, as text a person reads before sending (`deploy --dry-run`, `status`,
 * `promote`, `rollback --dry-run`): per part, a unified diff from the server's version to the one that
 * would replace it. Metadata is compared as the fields of action.yaml, each side written the same way
 * (serializeActionYaml), so a comment or a reordered key of the local file is no difference, and what
 * the server adds to its resource (its id, its events' URLs) is none either.
 *
 * Server text is data here: the lines are returned as they are, and each face escapes them where it
 * shows them (the command line's terminal guard, the editor's diff view).
 */
import { type Capabilities, type CustomActionsClient } from '../client';
import { metadataFields } from '../contentHash';
import { serializeActionYaml } from '../workspace/actionYamlEdit';
import { type Part } from './decide';
import { unifiedDiff } from './lineDiff';
import { type ActionOutcome } from './outcome';
import { type WorkspaceAction } from './plan';

/** One part's change: its unified diff lines (`---`, `+++`, `@@` hunks), none when the texts are the same. */
export interface PartDiff {
  readonly part: Part;
  readonly lines: readonly string[];
}

/** The text a part is compared as: code as it is, metadata as action.yaml's fields. Undefined: there is none. */
export type PartTexts = { readonly [P in Part]?: string | undefined };

/** What the server holds of an action, as the texts a diff compares (`undefined`: none, or not readable). */
export interface ServerTexts extends PartTexts {
  /** The parts this server offers no read of: their change cannot be shown. */
  readonly unreadable: readonly Part[];
}

/** Metadata (the server's resource, or action.yaml's value) as the text its diff compares. */
export function metadataText(metadata: object): string {
  return serializeActionYaml(metadataFields(metadata));
}

/** The texts of a workspace action, as a deploy would send them. */
export function workspaceTexts(local: WorkspaceAction): PartTexts {
  return { metadata: local.metadata ? metadataText(local.metadata) : undefined, implementation: local.code };
}

/**
 * The diffs of the parts named, from `before` to `after`, labelled as git labels them: the file each
 * side is (`/dev/null` for a side that has none).
 */
export function partDiffs(
  parts: readonly Part[],
  before: PartTexts,
  after: PartTexts,
  labels: { readonly [P in Part]: { readonly before: string; readonly after: string } },
): PartDiff[] {
  return parts.flatMap((part) => {
    const a = before[part];
    const b = after[part];
    if (a === b || (a === undefined && b === undefined)) return [];
    const label = labels[part];
    const lines = unifiedDiff(a ?? '', b ?? '', { before: a === undefined ? '/dev/null' : label.before, after: b === undefined ? '/dev/null' : label.after });
    return lines.length > 0 ? [{ part, lines }] : [];
  });
}

/** The client operations reading what the server holds. */
export type ReadClient = Pick<CustomActionsClient, 'getActionVersioned' | 'getImplementationVersioned'>;

/** The server's texts of the parts named, read where the server offers a read of them. */
export async function readServerTexts(
  client: ReadClient,
  caps: Pick<Capabilities, 'getAction' | 'getImplementation'>,
  id: string,
  parts: readonly Part[],
  signal?: AbortSignal,
): Promise<ServerTexts> {
  const o = signal ? { signal } : {};
  const readable = (part: Part) => parts.includes(part) && (part === 'metadata' ? caps.getAction : caps.getImplementation);
  const [metadata, implementation] = await Promise.all([
    readable('metadata') ? client.getActionVersioned(id, o).then((r) => metadataText(r.action)) : undefined,
    readable('implementation') ? client.getImplementationVersioned(id, o).then((r) => r.code) : undefined,
  ]);
  return { metadata, implementation, unreadable: parts.filter((p) => !readable(p)) };
}

/** The labels of a workspace action's files against the server's copies of them. */
export function serverLabels(local: Pick<WorkspaceAction, 'metadataFile' | 'codeFile'>): { readonly [P in Part]: { before: string; after: string } } {
  return {
    metadata: { before: `server:${local.metadataFile}`, after: local.metadataFile },
    implementation: { before: `server:${local.codeFile}`, after: local.codeFile },
  };
}

/** The parts an outcome sent (or, in a dry run, would send), and whether it creates the action. */
export function sentParts(outcome: Pick<ActionOutcome, 'steps'>): { readonly parts: Part[]; readonly create: boolean } {
  const pushed = outcome.steps.filter((s) => s.kind === 'pushed');
  const create = pushed.some((s) => s.op === 'create');
  const parts = pushed.flatMap((s) => (s.step === 'action' ? (s.op === 'create' ? (['metadata'] as Part[]) : []) : [s.step]));
  return { parts: [...new Set(parts)], create };
}

/**
 * What a deploy of `local` would change on the server, part by part: for the parts its (dry-run)
 * outcome sends, the server's text (none, for an action it creates) against the workspace's.
 */
export async function deployDiff(
  client: ReadClient,
  caps: Pick<Capabilities, 'getAction' | 'getImplementation'>,
  outcome: Pick<ActionOutcome, 'steps' | 'id'>,
  local: WorkspaceAction,
  signal?: AbortSignal,
): Promise<{ readonly diffs: PartDiff[]; readonly unreadable: readonly Part[] }> {
  const { parts, create } = sentParts(outcome);
  if (parts.length === 0) return { diffs: [], unreadable: [] };
  // An action it creates has nothing on the server: its code, if any, is its first.
  const all: Part[] = create && local.code !== undefined ? [...new Set<Part>([...parts, 'implementation'])] : parts;
  const server: ServerTexts = create || outcome.id === undefined ? { unreadable: [] } : await readServerTexts(client, caps, outcome.id, all, signal);
  const readable = all.filter((p) => !server.unreadable.includes(p));
  return { diffs: partDiffs(readable, server, workspaceTexts(local), serverLabels(local)), unreadable: server.unreadable };
}
