export * from './offset';
export * from './cursor';
export * from './cursor-page';
