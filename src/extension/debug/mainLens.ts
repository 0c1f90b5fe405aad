import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../core/client';
import { serverText } from '../../core/text';
import { Disposable } from '../lifecycle';
import { PLATFORM } from '../platform';
import { type Parts } from '../parts';
import { type Events } from '../events';

/** `export function main`, `export async function main`, `export const main`: where the lenses go. */
const MAIN_DECLARATION = /^[ \t]*export[ \t]+(?:async[ \t]+function|function|const|let)[ \t*]*main\b/m;

/** A failure the lens offers to debug: the application and action it belongs to, and the server's event. */
export interface LensEvent {
  readonly kind: 'lensEvent';
  readonly appId: string;
  readonly key: string;
  readonly actionId: string;
  readonly raw: unknown;
}

export function isLensEvent(value: unknown): value is LensEvent {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'lensEvent';
}

/**
 * Run | Debug above `main` in an action's main.ts, and the latest failure in a watched environment.
 * Cheap: the document's own text, its action.yaml, and the events the watches already hold.
 */
export class MainCodeLens extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly s: Pick<Parts, 'model'> & { readonly events: Events }) {
    super();
    this.register(s.events.onDidChangeEvents(() => this.changed.fire()));
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const match = MAIN_DECLARATION.exec(document.getText());
    if (!match) return [];
    const found = await this.s.model.localActionAt(document.uri);
    if (!found) return [];
    const line = document.positionAt(match.index + match[0].length - match[0].trimStart().length).line;
    const range = new vscode.Range(line, 0, line, 0);
    const lenses = [
      new vscode.CodeLens(range, { title: '$(play) Run', command: 'customActions.runAction', arguments: [document.uri] }),
      new vscode.CodeLens(range, { title: '$(debug-alt) Debug', command: 'customActions.debugMain', arguments: [document.uri] }),
    ];
    // VS Code for the Web starts no process to debug in (platform.ts).
    if (!PLATFORM.processes) lenses.pop();
    const failure = this.lastFailure(found.app.uid, found.action.key);
    if (failure && PLATFORM.processes) {
      const message = serverText(failure.event.error?.message ?? 'no reason given', 80);
      lenses.push(
        new vscode.CodeLens(range, {
          title: `$(error) Last ${failure.environment} run failed: ${message} — Debug this event`,
          command: 'customActions.debugEvent',
          arguments: [{ kind: 'lensEvent', appId: failure.appId, key: failure.key, actionId: failure.actionId, raw: failure.event.raw } satisfies LensEvent],
        }),
      );
    }
    return lenses;
  }

  /** The newest event of this folder's action in a watched environment, when it failed. */
  private lastFailure(appId: string, key: string): { appId: string; key: string; actionId: string; environment: string; event: NormalizedEvent } | undefined {
    let newest: { appId: string; key: string; actionId: string; environment: string; event: NormalizedEvent } | undefined;
    for (const watch of this.s.events.list()) {
      if (watch.app.uid !== appId || watch.actionKey !== key) continue;
      const [event] = watch.poller.recent(1);
      if (event && (newest === undefined || (event.startTime ?? 0) > (newest.event.startTime ?? 0)))
        newest = { appId: watch.app.uid, key: watch.actionKey, actionId: watch.actionId, environment: watch.environment, event };
    }
    return newest && !newest.event.ok ? newest : undefined;
  }
}
