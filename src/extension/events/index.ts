import * as vscode from 'vscode';
import { type NormalizedEvent } from '../../core/client';
import { type Application } from '../project';
import { type Parts } from '../parts';
import { InputSetCodeLens } from './inputSetLens';
import { type EventsChange, type Watch, type WatchTarget } from './watchers';

export { EventWatchers, type EventsChange, type Watch, type WatchTarget } from './watchers';

/**
 * The door of the events feature: the watched environments, their one change signal, and the events
 * channel. The pollers' bookkeeping and the channel's format stay inside (watchers.ts, channel.ts).
 */
export interface Events {
  /** The one signal that the events of an environment changed (`arrived`, `watched`, `unwatched`). */
  readonly onDidChangeEvents: vscode.Event<EventsChange>;
  list(): Watch[];
  find(app: Application, eventsUrl: string): Watch | undefined;
  watch(target: WatchTarget): Watch;
  unwatch(id: string, quiet?: boolean): Promise<void>;
  unwatchAll(quiet?: boolean): Promise<void>;
  /** Stops the watches of an action being deleted, quietly; `resume` watches them again if the delete fails. */
  stopForDelete(app: Application, eventsUrls: readonly string[]): Promise<WatchTarget[]>;
  resume(targets: readonly WatchTarget[]): void;
  /** Something happened to an action (a push, a run): its watched environments ask at once. */
  poke(actionId: string): void;
  /** An environment's newest events: the watch's, or one request when it is not watched. */
  recent(app: Application, eventsUrl: string): Promise<NormalizedEvent[]>;
  showChannel(preserveFocus?: boolean): void;
  /** A line of the extension's own in the channel (`-- …`), beside the events. */
  note(line: string): void;
}

/** What the events feature needs beyond its commands: the CodeLens over input sets, and an end to watches with the sandbox. */
export function registerEvents(s: Pick<Parts, 'model' | 'project' | 'sandbox'> & { readonly events: Events }): vscode.Disposable[] {
  return [
    vscode.languages.registerCodeLensProvider({ pattern: '**/inputs/*.json' }, new InputSetCodeLens(s.model)),
    // A project that went (its customactions.yaml deleted, its folder removed from the workspace) takes its watches with it.
    s.project.onDidChangeProjects(({ removed }) => {
      const gone = new Set(removed.map((root) => root.toString()));
      for (const watch of s.events.list()) if (gone.has(watch.app.project.root.toString())) void s.events.unwatch(watch.id);
    }),
    // Polling a stopped sandbox would start it again (connections start it on demand): its watches end with it.
    s.sandbox.onDidChangeState((state) => {
      if (state.kind === 'stopped' && s.events.list().length > 0) void s.events.unwatchAll();
    }),
  ];
}
