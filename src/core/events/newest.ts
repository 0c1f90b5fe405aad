import { type NormalizedEvent } from '../client';
import { type EventsApi } from './poller';
import { byStartTime } from './recent';

/** One request for the newest events, newest first: what an environment shows when nobody watches it. */
export async function fetchNewest(api: EventsApi, eventsUrl: string, limit: number, signal?: AbortSignal): Promise<NormalizedEvent[]> {
  const page = await api.listEvents(eventsUrl, { limit, signal });
  const unique = new Map(page.events.map((e) => [e.id, e]));
  return [...unique.values()].sort(byStartTime).reverse().slice(0, limit);
}
