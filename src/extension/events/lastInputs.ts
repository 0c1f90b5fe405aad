import { type Scope, scopedKey, scopedRecord } from '../../core/deploy/scope';
import type * as vscode from 'vscode';
import { serverOf } from '../project';
import { type Parts } from '../parts';

const LAST_INPUTS = 'customActions.lastRunInputs.v2';
/** Inputs remembered before they named their server: dropped, never offered (docs/security.md). */
const LEGACY_INPUTS = 'customActions.lastRunInputs';

/** Which action remembered inputs belong to: the server's id when there is one, else the key. */
export interface InputsOwner {
  readonly remoteId: string | undefined;
  readonly key: string;
  /** A folder of the action (or its application's): its project names the server. */
  readonly at: vscode.Uri;
}

/**
 * Where an action's inputs are kept: under the server its project names now, so inputs entered for an
 * action of one server (they may hold its data) are never offered for the same id on another. An
 * action's id on a server names one application's action; an action not on the server yet is known by
 * its key only. Undefined without a project: nothing is offered or kept.
 */
function slot(s: Pick<Parts, 'project'>, owner: InputsOwner): { scope: Scope; id: string } | undefined {
  const project = s.project.projectOf(owner.at);
  const server = project && serverOf(project);
  if (server === undefined) return undefined;
  return { scope: { server, appId: '' }, id: owner.remoteId !== undefined ? `id:${owner.remoteId}` : `key:${owner.key}` };
}

/** The inputs last entered in the form for this action (Run or Debug), to prefill it again; empty when none. */
export function lastInputs(s: Pick<Parts, 'context' | 'project'>, owner: InputsOwner): Record<string, unknown> {
  const at = slot(s, owner);
  if (at === undefined) return {};
  // Kept under another spelling of the same server before servers had one identity: read all the same.
  return scopedRecord(s.context.workspaceState.get<Record<string, Record<string, unknown>>>(LAST_INPUTS, {}), at.scope, at.id) ?? {};
}

export async function rememberInputs(s: Pick<Parts, 'context' | 'project'>, owner: InputsOwner, values: Record<string, unknown>): Promise<void> {
  const at = slot(s, owner);
  if (at === undefined) return;
  const key = scopedKey(at.scope, at.id);
  const remembered = s.context.workspaceState.get<Record<string, Record<string, unknown>>>(LAST_INPUTS, {});
  if (s.context.workspaceState.get(LEGACY_INPUTS) !== undefined) await s.context.workspaceState.update(LEGACY_INPUTS, undefined);
  await s.context.workspaceState.update(LAST_INPUTS, { ...remembered, [key]: values });
}
