export * from './csv';
export * from './content-negotiation';
export * from './export-events';
export * from './csv-response';
