/** The extras a server may offer beyond the spec, read from its capability document (GET /api). */
export interface Capabilities {
  readonly getAction: boolean;
  readonly getImplementation: boolean;
  readonly run: boolean;
  readonly eventsPaging: { readonly limitParam: string; readonly cursorParam: string; readonly maxLimit: number } | undefined;
  readonly eventsLongPoll: { readonly waitParam: string; readonly maxWaitSeconds: number } | undefined;
}

/** What a server without a capability document offers: the spec's six operations and nothing more. */
export const NO_CAPABILITIES: Capabilities = Object.freeze({ getAction: false, getImplementation: false, run: false, eventsPaging: undefined, eventsLongPoll: undefined });

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
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
