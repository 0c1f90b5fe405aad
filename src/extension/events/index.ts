import * as vscode from 'vscode';
import { type Services } from '../services';
import { InputSetCodeLens } from './inputSetLens';

export { EventWatchers, type Watch, type WatchTarget } from './watchers';

/** What the events feature needs beyond its commands: the CodeLens over input sets, and an end to watches with the sandbox. */
export function registerEvents(s: Services): vscode.Disposable[] {
  return [
    vscode.languages.registerCodeLensProvider({ pattern: '**/inputs/*.json' }, new InputSetCodeLens(s.model)),
    // Polling a stopped sandbox would start it again (connections start it on demand): its watches end with it.
    s.sandbox.onDidChangeState((state) => {
      if (state.kind === 'stopped' && s.events.list().length > 0) void s.events.unwatchAll();
    }),
  ];
}
