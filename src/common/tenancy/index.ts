export * from './scope';
export * from './object-id';
