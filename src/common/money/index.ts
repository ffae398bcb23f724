export * from './decimal';
export * from './line-item-figures';
