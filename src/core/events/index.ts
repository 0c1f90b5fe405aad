export * from './format';
export * from './inputs';
export * from './poller';
export * from './newest';
export * from './recent';
export * from './schedule';
export * from './seen';
export * from './mainFrames';
