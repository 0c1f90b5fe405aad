export * from './serverText';
