// What the import's domain offers other contexts' domain code (`@app/import/domain`): reading the
// figures of a file a broker or a spreadsheet wrote.
export { parseAmount, tryParseAmount, tryParsePercent } from './parsers/broker-figures.js';
