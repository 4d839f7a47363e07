export * from './accounts';
export * from './communities';
export * from './games';
export * from './hosting';
export * from './limits';
export * from './live';
export * from './http-routes';
