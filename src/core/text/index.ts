export * from './serverText';
export * from './count';
export * from './invisible';
