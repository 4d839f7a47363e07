export * from './accounts';
export * from './communities';
export * from './games';
export * from './hosting';
export * from './http-routes';
export * from './limits';
export * from './live';
export * from './metrics-routes';
