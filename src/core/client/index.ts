export * from './client';
export * from './errors';
export * from './normalizeEvent';
export { closeAllPools } from './pools';
