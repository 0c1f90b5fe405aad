import * as vscode from 'vscode';
import { ApiError, type NormalizedEvent } from '../../core/client';
import { type EventsPoller, fetchNewest, formatEvent, type EventsApi, type PollerStatus } from '../../core/events';
import { type Environment } from '../../core/schema';
import { serverText } from '../../core/text';
import { type Config } from '../config';
import { type Connections, errorMessage, NoKeyError } from '../connections';
import { Disposable } from '../lifecycle';
import { type Application } from '../project';
import { EventsChannel } from './channel';
import { onDemand } from '../loadOnDemand';

/** One environment of one action, as the watcher addresses it. */
export interface WatchTarget {
  readonly app: Application;
  readonly actionId: string;
  readonly actionKey: string;
  readonly environment: Environment;
  /** Absolute URL of the environment's events list. */
  readonly eventsUrl: string;
}

export interface Watch extends WatchTarget {
  readonly id: string;
  readonly poller: EventsPoller;
}

export const WATCHING_CONTEXT = 'customActions.watchingEvents';

/** What the watches take from the on-demand bundle: the polling loop, made by the first watch (a command's). */
export interface EventsOnDemand {
  readonly EventsPoller: typeof EventsPoller;
}

/**
 * The events of one environment changed: new ones `arrived` (printed into the channel, kept by the
 * watch), or its watch began or ended (what `list()` and the watch's `recent` answer changed with it).
 */
export interface EventsChange {
  readonly app: Application;
  readonly eventsUrl: string;
  readonly kind: 'arrived' | 'watched' | 'unwatched';
}

/**
 * Every watched environment, each polled by its own EventsPoller, printed into the one events channel.
 * The tree's Test/Live nodes read from the same pollers, so a watched environment costs one polling
 * loop, and an unwatched one costs one request when its node is expanded, never a loop.
 */
export class EventWatchers extends Disposable {
  private readonly watches = new Map<string, Watch>();
  private readonly channel = this.register(new EventsChannel());
  private readonly changed = this.register(new vscode.EventEmitter<EventsChange>());
  /**
   * The one signal that the events of an environment changed, owned here where they arrive: the tree
   * refreshes that environment's node, the lens of the last failure above `main` reads the watches again.
   */
  readonly onDidChangeEvents = this.changed.event;

  constructor(
    private readonly connections: Connections,
    private readonly config: () => Config,
    private readonly context: Pick<vscode.ExtensionContext, 'extensionUri'>,
  ) {
    super();
    this.register({ dispose: () => void this.unwatchAll(true) });
    // Back from the browser where the workflow was tried: its events are asked for at once, not at the
    // end of a quiet interval (which keeps idle watchers at 6 requests a minute).
    this.register(
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) for (const watch of this.watches.values()) watch.poller.glance();
      }),
    );
  }

  /** The events channel in the Output view. */
  showChannel(preserveFocus = true): void {
    this.channel.show(preserveFocus);
  }

  /** A line of the extension's own in the channel (`-- …`), beside the events. */
  note(line: string): void {
    this.channel.appendLines([line]);
  }

  list(): Watch[] {
    return [...this.watches.values()];
  }

  find(app: Application, eventsUrl: string): Watch | undefined {
    return this.watches.get(watchId(app, eventsUrl));
  }

  /** Starts watching (or returns the running watch); the channel shows what arrives from now on. */
  watch(target: WatchTarget): Watch {
    const id = watchId(target.app, target.eventsUrl);
    const existing = this.watches.get(id);
    if (existing && !existing.poller.stopped) return existing;
    const label = `${target.environment} events of ${target.actionKey}`;
    const { EventsPoller } = onDemand<EventsOnDemand>(this.context);
    const poller: EventsPoller = new EventsPoller({
      eventsUrl: target.eventsUrl,
      api: () => this.api(target.app),
      onEvents: (events) => this.print(target, events),
      onStatus: (status) => this.status(id, poller, target, label, status),
      schedule: { quietMs: this.config().eventsQuietIntervalMs },
      keepRecent: Math.max(200, this.config().recentEvents),
    });
    const watch: Watch = { ...target, id, poller };
    this.watches.set(id, watch);
    this.channel.appendLines([`-- Watching ${label} (${target.app.label})`]);
    poller.start();
    this.changed.fire({ app: target.app, eventsUrl: target.eventsUrl, kind: 'watched' });
    void vscode.commands.executeCommand('setContext', WATCHING_CONTEXT, true);
    return watch;
  }

  async unwatch(id: string, quiet = false): Promise<void> {
    const watch = this.watches.get(id);
    if (!watch) return;
    this.watches.delete(id);
    await watch.poller.stop();
    this.changed.fire({ app: watch.app, eventsUrl: watch.eventsUrl, kind: 'unwatched' });
    if (!quiet) this.channel.appendLines([`-- Stopped watching ${watch.environment} events of ${watch.actionKey}`]);
    this.afterStop();
  }

  async unwatchAll(quiet = false): Promise<void> {
    await Promise.all([...this.watches.keys()].map((id) => this.unwatch(id, quiet)));
  }

  /**
   * Stops the watches of an action the user is deleting, before the delete is sent: its events are
   * about to answer 404, which is no news to the one who asked for it, so nothing pops up. Returns
   * what was watched, for `resume` when the server refuses the delete.
   */
  async stopForDelete(app: Application, eventsUrls: readonly string[]): Promise<WatchTarget[]> {
    const stopped = eventsUrls.flatMap((url) => {
      const watch = this.watches.get(watchId(app, url));
      return watch ? [watch] : [];
    });
    await Promise.all(stopped.map((w) => this.unwatch(w.id, true)));
    this.channel.appendLines(stopped.map((w) => `-- Stopped watching ${w.environment} events of ${w.actionKey}: the action is being deleted`));
    return stopped.map(({ app: a, actionId, actionKey, environment, eventsUrl }) => ({ app: a, actionId, actionKey, environment, eventsUrl }));
  }

  /** Watches again what `stopForDelete` stopped, when the action was not deleted after all. */
  resume(targets: readonly WatchTarget[]): void {
    for (const target of targets) this.watch(target);
  }

  /** Something happened to an action (a push, a run): its watched environments ask at once and keep a fast pace. */
  poke(actionId: string): void {
    for (const watch of this.watches.values()) if (watch.actionId === actionId) watch.poller.poke();
  }

  async recent(app: Application, eventsUrl: string): Promise<NormalizedEvent[]> {
    const id = watchId(app, eventsUrl);
    const limit = this.config().recentEvents;
    const watch = this.watches.get(id);
    if (watch?.poller.ready) return watch.poller.recent(limit);
    return this.connections.call(app, (client) => fetchNewest(client, eventsUrl, limit));
  }

  private async api(app: Application): Promise<EventsApi> {
    try {
      return await this.connections.client(app);
    } catch (error) {
      // No key at all is the same dead end as a refused one: the watch stops and says how to fix it.
      if (error instanceof NoKeyError) throw new ApiError({ kind: 'auth', operation: 'listEvents', serverMessage: 'no key is stored for this application' });
      throw error;
    }
  }

  private print(target: WatchTarget, events: readonly NormalizedEvent[]): void {
    const lines = events.flatMap((event) => formatEvent(event, { environment: target.environment, actionKey: target.actionKey }));
    this.channel.appendLines(lines);
    this.changed.fire({ app: target.app, eventsUrl: target.eventsUrl, kind: 'arrived' });
  }

  private status(id: string, poller: EventsPoller, target: WatchTarget, label: string, status: PollerStatus): void {
    // A watch already ended here (Stop Watching, a delete) may still hear its last request's answer.
    if (this.watches.get(id)?.poller !== poller) return;
    switch (status.kind) {
      case 'watching':
        this.channel.appendLines([
          `-- ${label}: ${status.earlier === 0 ? 'no earlier events' : `${status.earlier} earlier event(s), listed in the tree`}; new ones appear below`,
        ]);
        return;
      case 'retrying':
        // One line when the trouble starts, not one per attempt.
        if (status.failures === 1) this.channel.appendLines([`-- ${label}: ${errorMessage(status.error)} Retrying with backoff…`]);
        return;
      case 'resumed':
        this.channel.appendLines([`-- ${label}: the server answers again; nothing was missed`]);
        return;
      case 'stopped': {
        this.watches.delete(id);
        this.afterStop();
        const why =
          status.reason === 'auth'
            ? 'the server refused the key (401)'
            : status.reason === 'gone'
              ? 'the server no longer knows this action or environment (404)'
              : status.reason === 'foreign-origin'
                ? errorMessage(status.error)
                : `the key may not read these events (${errorMessage(status.error)})`;
        this.channel.appendLines([`-- Stopped watching ${label}: ${why}`]);
        const actions = status.reason === 'auth' ? ['Sign In'] : [];
        void vscode.window.showErrorMessage(serverText(`Stopped watching ${label}: ${why}.`), ...actions).then((choice) => {
          if (choice === 'Sign In') void vscode.commands.executeCommand('customActions.signIn', { kind: 'application', app: target.app });
        });
        return;
      }
    }
  }

  private afterStop(): void {
    if (this.watches.size === 0 && !this.isDisposed) void vscode.commands.executeCommand('setContext', WATCHING_CONTEXT, false);
  }
}

function watchId(app: Application, eventsUrl: string): string {
  return `${app.uid}\n${eventsUrl}`;
}
