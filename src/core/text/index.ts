export * from './serverText';
export * from './count';
