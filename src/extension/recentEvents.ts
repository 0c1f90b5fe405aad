import { type NormalizedEvent } from '../core/client';
import { type RemoteAction } from './catalog';
import { type Config } from './config';
import { type Connections } from './connections';
import { type Application } from './project';
import { type RecentEventsSource } from './tree/provider';

/** One GET of the newest page, newest first: what the tree shows until a watcher keeps it current. */
export class RecentEvents implements RecentEventsSource {
  constructor(
    private readonly connections: Connections,
    private readonly config: () => Config,
  ) {}

  async recent(app: Application, _action: RemoteAction, eventsUrl: string): Promise<NormalizedEvent[]> {
    const limit = this.config().recentEvents;
    const page = await this.connections.call(app, (client) => client.listEvents(eventsUrl, { limit }));
    return [...page.events].sort((a, b) => (b.startTime ?? 0) - (a.startTime ?? 0)).slice(0, limit);
  }
}
