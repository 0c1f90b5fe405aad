import * as vscode from 'vscode';
import { normalizeEvent } from '../../core/client';
import { serverText } from '../../core/text';
import { eventToKeep } from '../debug/commands';
import { saveInputSet } from '../events/commands';
import { type Parts } from '../parts';

/**
 * Pin as Test: an event (a Live failure included) becomes a test case of its action, with its inputs
 * and the result it should have had: a success's own result, to confirm; for a failure `null`,
 * selected in the editor for the user to replace with the right one. `name` (tests) skips the question.
 */
export async function pinEventAsTest(s: Pick<Parts, 'eventDocuments' | 'model'>, arg?: unknown, name?: unknown): Promise<vscode.Uri | undefined> {
  const kept = await eventToKeep(s, arg);
  if (!kept) return undefined;
  const event = normalizeEvent(kept.raw);
  const when = event.startTime === undefined ? 'an event' : `the event of ${new Date(event.startTime).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  const failed = !kept.recorded.ok;
  const content = {
    description: failed
      ? `Pinned from ${when}, which failed: ${serverText(kept.recorded.ok ? '' : kept.recorded.error.message, 200)}. Replace null with the result it should have had.`
      : `Pinned from ${when}: the result it had.`,
    inputs: kept.inputs,
    expect: { result: kept.recorded.ok ? (kept.recorded.result ?? null) : null },
  };
  const suggested = `pinned-${new Date(event.startTime ?? Date.now()).toISOString().slice(0, 19).replace(/[T:]/g, '-')}`;
  const saved = await saveInputSet(kept.local.folder, content, {
    title: `Pin as Test: a test case of ${serverText(kept.key, 120)}`,
    name: typeof name === 'string' ? name : suggested,
    ask: typeof name !== 'string',
  });
  if (!saved) return undefined;
  const editor = await vscode.window.showTextDocument(saved, { preview: false });
  if (failed) {
    // The expected result is the user's to give: the placeholder is selected, ready to be typed over.
    const text = editor.document.getText();
    const at = text.search(/"result":\s*null/);
    if (at >= 0) {
      const start = editor.document.positionAt(text.indexOf('null', at));
      editor.selection = new vscode.Selection(start, start.translate(0, 4));
      editor.revealRange(editor.selection);
    }
  }
  return saved;
}
