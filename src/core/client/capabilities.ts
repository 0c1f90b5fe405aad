/** The extras a server may offer beyond the spec, read from its capability document (GET /api). */
export interface Capabilities {
  readonly getAction: boolean;
  readonly getImplementation: boolean;
  readonly run: boolean;
  readonly eventsPaging: { readonly limitParam: string; readonly cursorParam: string; readonly maxLimit: number } | undefined;
  readonly eventsLongPoll: { readonly waitParam: string; readonly maxWaitSeconds: number } | undefined;
  /**
   * Which writes the server checks against `If-Match` (412 when the version changed). Where it is
   * false the server cannot tell whether someone else changed the action: `ifMatch` is sent all the
   * same, but such a server ignores it and the write is unconditional.
   */
  readonly conditionalWrites: {
    readonly metadata: boolean;
    readonly implementation: boolean;
    /**
     * A code PUT with `If-None-Match: *` is written only while the action has no code (412 once it
     * has): the first push of a new action's code is checked too.
     */
    readonly firstImplementation: boolean;
  };
  /** GET …/versions lists the kept versions of an action's code and metadata, and each can be read back. */
  readonly versions: boolean;
}

/** What a server without a capability document offers: the spec's six operations and nothing more. */
export const NO_CAPABILITIES: Capabilities = Object.freeze({
  getAction: false,
  getImplementation: false,
  run: false,
  eventsPaging: undefined,
  eventsLongPoll: undefined,
  conditionalWrites: Object.freeze({ metadata: false, implementation: false, firstImplementation: false }),
  versions: false,
});

export function readCapabilities(body: unknown): Capabilities {
  const ext = record(record(body).extensions);
  const paging = record(ext.eventsPaging);
  const poll = record(ext.eventsLongPoll);
  return {
    getAction: ext.getAction === true,
    getImplementation: ext.getImplementation === true,
    run: ext.run === true,
    eventsPaging:
      typeof paging.limitParam === 'string' && typeof paging.cursorParam === 'string'
        ? { limitParam: paging.limitParam, cursorParam: paging.cursorParam, maxLimit: positive(paging.maxLimit) ?? 100 }
        : undefined,
    eventsLongPoll: typeof poll.waitParam === 'string' ? { waitParam: poll.waitParam, maxWaitSeconds: positive(poll.maxWaitSeconds) ?? 20 } : undefined,
    conditionalWrites: readConditionalWrites(ext.conditionalWrites),
    versions: ext.versions === true || (isRecord(ext.versions) && ext.versions.enabled !== false),
  };
}

/**
 * `true`, or `{ header, resources, firstWrite }`. A header other than If-Match is one this client does
 * not send, so it offers nothing; without a `resources` list, both are taken as checked. Only a server
 * that names If-None-Match as `firstWrite` is trusted to check it: one that ignored it would write.
 */
function readConditionalWrites(raw: unknown): Capabilities['conditionalWrites'] {
  if (raw === true) return { metadata: true, implementation: true, firstImplementation: false };
  if (!isRecord(raw) || raw.enabled === false) return NO_CAPABILITIES.conditionalWrites;
  if (raw.header !== undefined && (typeof raw.header !== 'string' || raw.header.toLowerCase() !== 'if-match')) return NO_CAPABILITIES.conditionalWrites;
  const resources = Array.isArray(raw.resources)
    ? raw.resources.filter((r): r is string => typeof r === 'string').map((r) => r.toLowerCase())
    : ['metadata', 'implementation'];
  const implementation = resources.includes('implementation') || resources.includes('code');
  const firstWrite = typeof raw.firstWrite === 'string' && raw.firstWrite.toLowerCase() === 'if-none-match';
  return { metadata: resources.includes('metadata'), implementation, firstImplementation: implementation && firstWrite };
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
