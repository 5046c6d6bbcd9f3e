import { neutraliseFormula } from './spreadsheet-safety.js';

describe('neutraliseFormula', () => {
  it.each(['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])('defuses %p', (text) => {
    expect(neutraliseFormula(text)).toBe(`'${text}`);
  });

  it.each(['AAPL', 'Cash Dividend', 'BRK.B', '', 'a=b'])('leaves %p alone', (text) => {
    expect(neutraliseFormula(text)).toBe(text);
  });
});
