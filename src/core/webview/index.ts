export * from './formProtocol';
export * from './formState';
export * from './formModel';
