export * from './limits';
export * from './metadata';
export * from './project';
export * from './validate';
export * from './wire';
export * from './values';
export * from './runInputs';
