/**
 * Bodies read tolerantly: the spec fixes little beyond "a JSON array", so lists may come bare or
 * wrapped, ids as strings or numbers, and environment names in either case.
 */
import { type Environment, ENVIRONMENTS } from '../schema';
import { strongEtag } from './etags';
import { ApiError, type Operation } from './errors';
import { resolveServerUrl } from './urls';

/** An entry of the list (spec §2.4) with its events URLs resolved to absolute URLs. */
export interface ListedAction {
  readonly id: string;
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly eventsUrls: Partial<Record<Environment, string>>;
  /**
   * The version tag of each part as the server's GET of it would send it (an extension of the list,
   * docs/api.md): a strong tag, `null` for code the action does not have, absent when the list does
   * not say. A deploy takes a part whose tag is its base's as unchanged without reading it.
   */
  readonly etags?: ListedEtags;
}

export interface ListedEtags {
  readonly metadata?: string;
  readonly implementation?: string | null;
}

/** One action as GET /api/actions/{id} returns it (an extension): its metadata fields as sent, id and events URLs settled. */
export type RemoteAction = Record<string, unknown> & {
  readonly id: string;
  readonly eventsUrls: Partial<Record<Environment, string>>;
};

const LIST_WRAPPERS = ['items', 'actions', 'events', 'data', 'results'] as const;

/** A JSON array, bare or as the one array property of a wrapper object; an empty body is an empty list. */
export function readList(operation: Operation, text: string): unknown[] {
  if (!text.trim()) return [];
  const body = parseJson(operation, text);
  if (Array.isArray(body)) return body;
  const wrapper = record(body);
  for (const key of LIST_WRAPPERS) {
    const value = wrapper[key];
    if (Array.isArray(value)) return value;
  }
  throw protocol(operation, 'the list is not a JSON array');
}

export function readListEntry(item: unknown, base: URL): ListedAction | undefined {
  const e = record(item);
  const id = readId(e);
  if (!id || typeof e.key !== 'string') return undefined;
  return {
    id,
    key: e.key,
    name: typeof e.name === 'string' ? e.name : e.key,
    description: typeof e.description === 'string' ? e.description : '',
    eventsUrls: readEventsUrls(e.eventsUrls, base),
    ...readListedEtags(e.etags),
  };
}

/** The list's tags, each kept only when it is one a GET could have sent (a strong tag) or, for code, `null`. */
function readListedEtags(value: unknown): { etags?: ListedEtags } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const tags = value as Record<string, unknown>;
  const metadata = typeof tags.metadata === 'string' ? strongEtag(tags.metadata) : undefined;
  const implementation = tags.implementation === null ? null : typeof tags.implementation === 'string' ? strongEtag(tags.implementation) : undefined;
  if (metadata === undefined && implementation === undefined) return {};
  return { etags: { ...(metadata !== undefined ? { metadata } : {}), ...(implementation !== undefined ? { implementation } : {}) } };
}

export function readEventsUrls(value: unknown, base: URL): Partial<Record<Environment, string>> {
  const urls = record(value);
  const out: Partial<Record<Environment, string>> = {};
  for (const env of ENVIRONMENTS) {
    const raw = urls[env] ?? urls[env.toLowerCase()] ?? urls[env.toUpperCase()];
    if (typeof raw !== 'string' || !raw) continue;
    try {
      // One on another origin is kept: the listing sends nothing, and using it fails with the reason.
      out[env] = resolveServerUrl(base, raw).toString();
    } catch {
      // An unusable URL is left out rather than failing the whole list.
    }
  }
  return out;
}

/** The action a body describes, if it describes one: bare, or wrapped as `{action|data: {…}}`. */
export function readResource(body: unknown, base: URL, fallbackId?: string): RemoteAction | undefined {
  let r = record(body);
  if (!readId(r) && typeof r.key !== 'string') r = record(r.action ?? r.data);
  const id = readId(r) ?? fallbackId;
  if (!id || Object.keys(r).length === 0) return undefined;
  return { ...r, id, eventsUrls: readEventsUrls(r.eventsUrls, base) };
}

export function readId(value: unknown): string | undefined {
  const id = record(value).id;
  if (typeof id === 'string' && id) return id;
  return typeof id === 'number' && Number.isFinite(id) ? String(id) : undefined;
}

export function parseJson(operation: Operation, text: string): unknown {
  if (!text.trim()) throw protocol(operation, 'the body is empty');
  try {
    return JSON.parse(text);
  } catch {
    throw protocol(operation, 'the body is not JSON');
  }
}

export function tryJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function protocol(operation: Operation, message: string): ApiError {
  return new ApiError({ kind: 'protocol', operation, serverMessage: message });
}
