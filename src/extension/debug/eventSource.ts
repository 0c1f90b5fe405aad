import * as vscode from 'vscode';
import { normalizeEvent } from '../../core/client';
import { EVENT_SCHEME } from '../eventDocuments';
import { isNode } from '../commands/commands';
import { type LocalAction } from '../localActions';
import { type Parts } from '../parts';
import { isLensEvent } from './mainLens';
import { type Recorded } from './outcome';

/** An event the user acts on, from a tree node or an open event document, with the action folder it belongs to. */
export interface EventSource {
  readonly key: string;
  /** The server's id of the action, when known (where its form's last inputs are remembered). */
  readonly actionId: string | undefined;
  readonly local: LocalAction | undefined;
  /** The inputs the run received, when the event carries them (the sandbox's do, as `data.inputs`). */
  readonly inputs: Record<string, unknown> | undefined;
  readonly recorded: Recorded;
  readonly raw: unknown;
}

export async function eventSource(s: Pick<Parts, 'eventDocuments' | 'model'>, arg: unknown): Promise<EventSource | undefined> {
  let where: { appId: string; key: string; actionId?: string; raw: unknown } | undefined;
  if (isLensEvent(arg)) {
    where = { appId: arg.appId, key: arg.key, actionId: arg.actionId, raw: arg.raw };
  } else if (isNode(arg) && arg.kind === 'event') {
    where = { appId: arg.parent.parent.parent.app.uid, key: arg.parent.parent.key, actionId: arg.parent.parent.remote?.id, raw: arg.event.raw };
  } else {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const shown = uri?.scheme === EVENT_SCHEME ? s.eventDocuments.eventAt(uri) : undefined;
    if (shown) where = { appId: shown.path[0] ?? '', key: shown.path[1] ?? '', raw: shown.raw };
  }
  if (!where) {
    void vscode.window.showInformationMessage('Pick an event in the Custom Actions view, or open one, to act on it.');
    return undefined;
  }
  const event = normalizeEvent(where.raw);
  const recorded: Recorded = event.ok
    ? { ok: true, result: event.result }
    : { ok: false, error: event.error ?? { message: event.unreadable ?? 'the run failed' } };
  const found = await s.model.localAction(where.appId, where.key);
  const actionId = where.actionId ?? (found ? await s.model.idFor(found.app, found.action.folder, found.action.key).catch(() => undefined) : undefined);
  return { key: where.key, actionId, local: found?.action, inputs: inputsOf(where.raw), recorded, raw: where.raw };
}

/** `data.inputs` when it is a plain object (by parameter name); anything else is not taken for inputs. */
function inputsOf(raw: unknown): Record<string, unknown> | undefined {
  const data = (raw as { data?: unknown } | null)?.data;
  const inputs = typeof data === 'object' && data !== null ? (data as { inputs?: unknown }).inputs : undefined;
  return typeof inputs === 'object' && inputs !== null && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : undefined;
}
