export * from './capabilities';
export * from './client';
export * from './errors';
export * from './versionConflict';
export { CLIENT_MAX, VERSION_KINDS, type VersionContent, type VersionEntry, type VersionKind } from './versions';
export { strongEtag } from './etags';
export * from './normalizeEvent';
export { EVENT_LIMITS } from './eventBounds';
export type { ListedAction, ListedEtags, RemoteAction } from './readers';
export { idFromLocation } from './urls';
export { sameServer, serverIdentity } from './serverIdentity';
export { type ConnectionProblem, isConnectionProblem } from './connectionProblems';
export {
  closeDefaultTransport,
  /** The default transport's connections closed: the name from before the transport seam, kept for its callers. */
  closeDefaultTransport as closeAllPools,
  setDefaultTransport,
  TRANSPORT_ERROR,
  TransportError,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport';
// The transports themselves (nodeTransport.ts, fetchTransport.ts) are imported from their files by the
// face that sets one: exported here, undici would follow the client into the browser's bundle. Types
// cost nothing at run time.
export type { NodeTransportOptions } from './nodeTransport';
export type { FetchTransportOptions } from './fetchTransport';
export { looksLikeKey, redactKey, SANDBOX_KEY_PREFIX, scrubKeyShapes } from './redact';
