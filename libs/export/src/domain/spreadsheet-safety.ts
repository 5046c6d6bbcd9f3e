/**
 * Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or carriage return first)
 * gets a leading apostrophe, so a symbol or description taken from an uploaded file can never
 * execute when the export is opened (OWASP "CSV injection"). Only text cells are touched: numbers
 * stay numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
