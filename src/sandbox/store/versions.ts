import { StoreConflict } from './conflict';
import { type Queryable } from './sql';

/** What the versions of an action are kept of: its code and its metadata, each counted on its own. */
export type VersionKind = 'implementation' | 'metadata';

/** What a version's entity tag starts with, by kind: `"meta-3"`, `"code-2"`. */
export const ETAG_PREFIX: Readonly<Record<VersionKind, string>> = { implementation: 'code', metadata: 'meta' };

/** The strong entity tag of a version of an action's code or metadata: what GET sends and the list shows. */
export function etagOf(kind: VersionKind, version: number): string {
  return `"${ETAG_PREFIX[kind]}-${version}"`;
}

/**
 * What a conditional write expects to replace: the versions it may replace (from the `ETag`s in
 * `If-Match`; empty when none of them named a version), `'*'` (any version: the resource must
 * exist), `'none'` (`If-None-Match: *`: the resource must not exist yet), or undefined for an
 * unconditional write.
 */
export type Expected = readonly number[] | '*' | 'none' | undefined;

/** Versions kept per action and kind; older ones are dropped as new ones are written. */
export const VERSIONS_KEPT = 50;

/** Throws `precondition-failed` unless the current version is the one the write expects. */
export function checkExpected(kind: VersionKind, current: number, expected: Expected): void {
  if (expected === undefined) return;
  if (expected === 'none' ? current === 0 : expected === '*' ? current > 0 : expected.includes(current)) return;
  const what = kind === 'implementation' ? 'code' : 'metadata';
  throw new StoreConflict(
    'precondition-failed',
    expected === 'none'
      ? `the action has ${what} already (version ${current}), and this write was only for an action without`
      : current === 0
        ? `the action has no ${what} yet, so no version of it can be replaced`
        : `the action's ${what} changed since the version this write is based on (it is at version ${current} now)`,
    current,
  );
}

/** Records a written version and drops those beyond VERSIONS_KEPT of the same action and kind. */
export async function recordVersion(
  tx: Queryable,
  actionId: string,
  kind: VersionKind,
  version: number,
  content: string,
  client: string | undefined,
): Promise<void> {
  await tx.query('INSERT INTO action_versions (action_id, kind, version, content, client, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    actionId,
    kind,
    version,
    content,
    client?.slice(0, 200) ?? null,
    Date.now(),
  ]);
  await tx.query('DELETE FROM action_versions WHERE action_id = $1 AND kind = $2 AND version <= $3', [actionId, kind, version - VERSIONS_KEPT]);
}
