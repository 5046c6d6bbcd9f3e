// Pure building blocks for every context's domain code (`@app/shared/domain`): exact decimals,
// calendar dates and the typed errors. No framework imports, so domain code can depend on it.
export * from './decimal.js';
export * from './date.js';
export * from './digest.js';
export * from '../errors/domain.errors.js';
export * from './number-bytes.js';
