// The export context: a day or a month of trading as a CSV, Excel or PDF file.
export { ExportModule } from './export.module.js';
