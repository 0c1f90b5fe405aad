export * from './expectation';
export * from './inputSetFile';
export * from './resultCheck';
export * from './caseRun';
export * from './pattern';
export * from './outdated';
export * from './eventOutcome';
