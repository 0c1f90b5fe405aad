export * from './generateTypes';
export * from './literals';
