export * from './generateTypes';
