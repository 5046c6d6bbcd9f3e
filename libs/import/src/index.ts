// The import context: Schwab CSV files in, trades, dividends and positions out (tables libs/trades reads).
export { ImportModule } from './import.module.js';
export { ImportFileError } from './domain/import.errors.js';
export { importSchemas } from './http/import.openapi.js';
