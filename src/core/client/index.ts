export * from './capabilities';
export * from './client';
export * from './errors';
export * from './normalizeEvent';
export { EVENT_LIMITS } from './eventBounds';
export type { ListedAction, RemoteAction } from './readers';
export { idFromLocation } from './urls';
export { closeAllPools } from './pools';
