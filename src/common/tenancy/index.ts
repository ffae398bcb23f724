export * from './scope';
export * from './tenant-repository';
export * from './tenant-guard.plugin';
