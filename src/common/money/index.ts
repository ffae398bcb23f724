export * from './decimal';
export * from './line-item-figures';
export * from './refund-figures';
