export * from './capabilities';
export * from './client';
export * from './errors';
export * from './normalizeEvent';
export type { ListedAction, RemoteAction } from './readers';
export { idFromLocation } from './urls';
export { closeAllPools } from './pools';
