export * from './domain-errors';
export * from './error-response';
export * from './all-exceptions.filter';
export * from './unavailable';
