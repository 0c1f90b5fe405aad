export * from './files';
export * from './layout';
export * from './positions';
export * from './actionYaml';
export * from './projectFile';
export * from './template';
export * from './actionFolder';
export * from './writeGuard';
