import { ApiError } from './errors';

/** The part of an action a conditional write replaces. */
export type VersionedResource = 'metadata' | 'implementation';

type ApiErrorInit = ConstructorParameters<typeof ApiError>[0];

/**
 * A conditional write (`ifMatch`) refused with 412 `precondition-failed`: the version it was based on
 * is no longer the server's, and nothing was written. Never retried: sending the same write again is
 * exactly what the condition is there to stop. A 412 is only reported after the server's current
 * content was found to differ from what was sent (docs/client.md, *Conditional writes*).
 */
export class VersionConflictError extends ApiError {
  /** The server's current version tag, when it named one: base a new write on it after comparing. */
  readonly currentEtag: string | undefined;
  /** The tag the write was based on (its `If-Match`). */
  readonly baseEtag: string | undefined;
  readonly resource: VersionedResource | undefined;
  /**
   * The 412 answered a retry after a failure that left the first try's outcome unknown, and the
   * server's content could not be read to compare: the change it reports may be that first try.
   */
  readonly mayBeOwnWrite: boolean;

  constructor(init: ApiErrorInit & { currentEtag?: string | undefined; baseEtag?: string | undefined; mayBeOwnWrite?: boolean }) {
    const resource = resourceOf(init.operation);
    const what = resource === 'metadata' ? 'metadata' : 'code';
    super({
      ...init,
      kind: 'conflict',
      code: init.code ?? 'precondition-failed',
      hint:
        init.hint ??
        (init.mayBeOwnWrite
          ? `The server's ${what} changed since your copy was taken, perhaps by an earlier try of this write whose answer was lost; compare with the server's version before writing again.`
          : `Someone changed the action's ${what} on the server since your copy was taken; compare with the server's version before writing again.`),
    });
    this.currentEtag = init.currentEtag;
    this.baseEtag = init.baseEtag;
    this.resource = resource;
    this.mayBeOwnWrite = init.mayBeOwnWrite ?? false;
  }
}

function resourceOf(operation: ApiErrorInit['operation']): VersionedResource | undefined {
  if (operation === 'updateAction') return 'metadata';
  if (operation === 'putImplementation') return 'implementation';
  return undefined;
}
