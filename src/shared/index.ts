export * from './types.js';
export * from './signature.js';
export * from './headers.js';
export * from './query.js';
