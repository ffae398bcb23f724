export * from './commission-ladder';
export * from './decimal';
export * from './line-item-figures';
export * from './minor-units';
export * from './refund-figures';
