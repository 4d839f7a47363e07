export * from './age';
export * from './game-state';
export * from './live-timeline';
export * from './points';
export * from './ranking';
export * from './statistics';
export * from './suppression';
