export * from './expectation';
export * from './inputSetFile';
export * from './resultCheck';
export * from './caseRun';
export * from './eventOutcome';
