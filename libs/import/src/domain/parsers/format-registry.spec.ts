import { ValidationError } from '@app/shared/domain';
import { readFixtureBytes, readFixtureJson, type ExpectedError } from '../../testing/fixtures.js';
import { ImportFileError } from '../import.errors.js';
import {
  brokerageFormats,
  parseBrokerageFile,
  parseRealizedLotsFile,
  parseTransactionsFile,
} from './format-registry.js';

const TX_HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
const LOT_HEADER =
  '"Symbol","Name","Closed Date","Opened Date","Quantity","Proceeds Per Share","Cost Per Share","Proceeds","Cost Basis (CB)",' +
  '"Gain/Loss ($)","Gain/Loss (%)","Long Term Gain/Loss","Short Term Gain/Loss","Term","Unadjusted Cost Basis","Wash Sale?",' +
  '"Disallowed Loss","Transaction Closed Date","Transaction Cost Basis","Total Transaction Gain/Loss ($)",' +
  '"Total Transaction Gain/Loss (%)","LT Transaction Gain/Loss ($)","LT Transaction Gain/Loss (%)",' +
  '"ST Transaction Gain/Loss ($)","ST Transaction Gain/Loss (%)"';
const LOT_ROW =
  '"PEP","PEPSICO INC","06/25/2024","04/03/2024","1","$176.5500","$175.3500","$176.55","$175.35","$1.20","0.68%","",' +
  '"$1.20","Short Term","$175.35","No","","06/25/2024","","","","","","",""';
const BUY = '"06/21/2024","Buy","PEP","PEPSICO INC","13.5","$174.44","$0.00","($2,354.94)"';
const SELL = '"06/25/2024","Sell","PEP","PEPSICO INC","1","$176.55","","$176.55"';

function failure(run: () => unknown): ImportFileError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return error as ImportFileError;
  }
  throw new Error('expected an ImportFileError');
}

describe('the bad fixtures', () => {
  const cases = readFixtureJson<ExpectedError[]>('bad', 'expected_errors.json');

  it.each(cases.map((wanted) => [wanted.file, wanted] as const))('%s is refused naming the file, the line and the reason', (file, wanted) => {
    const parse = wanted.part === 'transaction_history_file' ? parseTransactionsFile : parseRealizedLotsFile;
    const error = failure(() => parse(file, readFixtureBytes('bad', file)));
    const line = wanted.line ?? 1;
    expect(error.fileName).toBe(file);
    expect(error.line).toBe(line);
    expect(error.message.startsWith(`${file}, line ${line}: `)).toBe(true);
    for (const mention of wanted.mention) {
      expect(error.message).toContain(mention);
    }
    if (wanted.column) {
      expect([error.column, error.value]).toEqual([wanted.column, wanted.value]);
      expect(error.message).toBe(wanted.reference_model_message);
    }
    expect(error.importCode.startsWith('IMPORT_')).toBe(true);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error).toBeInstanceOf(ValidationError);
  });

  it('gives the reference messages for empty, binary and truncated files', () => {
    for (const file of ['empty.csv', 'binary.csv', 'truncated.csv']) {
      const wanted = cases.find((candidate) => candidate.file === file) as ExpectedError;
      expect(failure(() => parseTransactionsFile(file, readFixtureBytes('bad', file))).message).toBe(wanted.reference_model_message);
    }
  });

  it('lists the layouts it understands when the header is unknown', () => {
    const error = failure(() => parseTransactionsFile('wrong_header.csv', readFixtureBytes('bad', 'wrong_header.csv')));
    expect(error.importCode).toBe('IMPORT_HEADER_NOT_RECOGNISED');
    for (const label of brokerageFormats.understood) {
      expect(error.message).toContain(label);
    }
    expect(brokerageFormats.understood).toEqual([
      'Charles Schwab Transactions',
      'Charles Schwab Realized Gain/Loss - Lot Details',
      'Fidelity Accounts History',
      'Fidelity Realized Gain/Loss',
      'Interactive Brokers Flex Query Trades',
      'Interactive Brokers Activity Statement',
      'Robinhood Account Activity',
      'E*TRADE Transactions',
      'Webull Orders Records',
      'Tastytrade Transactions',
      'Vanguard Brokerage Transactions',
      'TD Ameritrade Transactions',
      'Firstrade Account History',
      'thinkorswim Account Statement',
      'Merrill Edge Activity',
      'Lightspeed Execution Blotter',
      'Ghostfolio activities',
      'Tradervue trades',
      'moomoo orders or fills history',
      'Trade executions template (TradeZero, TradeNote)',
    ]);
  });
});

describe('parsing brokerage files', () => {
  it('detects the layout from the header, not the file name', () => {
    const parsed = parseBrokerageFile('transactions.csv', `${LOT_HEADER}\n${LOT_ROW}\n`);
    expect(parsed.kind).toBe('realized-lots');
    expect(parsed.format.label).toBe('Charles Schwab Realized Gain/Loss - Lot Details');
  });

  it('refuses swapped parts', () => {
    const error = failure(() => parseTransactionsFile('gains.csv', `${LOT_HEADER}\n${LOT_ROW}\n`));
    expect([error.importCode, error.line]).toEqual(['IMPORT_WRONG_FILE_KIND', 1]);
    expect(error.message).toContain('swapped');
    expect(failure(() => parseRealizedLotsFile('tx.csv', `${TX_HEADER}\n${BUY}\n`)).importCode).toBe('IMPORT_WRONG_FILE_KIND');
  });

  it('recognises the one-row-per-sale gains summary and asks for the Lot Details export', () => {
    const summary =
      '"Realized Gain/Loss for XXXX-1234 from 05/01/2024 to 07/03/2024","","","","","",""\n' +
      '"Symbol","Name","Closed Date","Quantity","Proceeds","Cost Basis (CB)","Gain/Loss ($)"\n' +
      '"PEP","PEPSICO INC","06/25/2024","1","$176.55","$175.35","$1.20"\n';
    const error = failure(() => parseRealizedLotsFile('summary.csv', summary));
    expect([error.importCode, error.line]).toEqual(['IMPORT_UNSUPPORTED_LAYOUT', 2]);
    expect(error.message).toContain('Lot Details');
  });

  it('accepts the old layout: title line, trailing empty column, footer', () => {
    const text =
      '"Transactions  for account XXXX-1234 as of 06/29/2024 05:28:01 PM ET"\r\n' +
      `${TX_HEADER},""\r\n${SELL},""\r\n${BUY},""\r\n"Transactions Total","","","","","","","-$2,178.39",""\r\n`;
    const parsed = parseTransactionsFile('old.csv', text);
    expect(parsed.headerLine).toBe(2);
    expect(parsed.transactions.map((tx) => [tx.line, tx.action, tx.amount?.toString()])).toEqual([
      [3, 'Sell', '176.55'],
      [4, 'Buy', '-2354.94'],
    ]);
  });

  it('accepts a spreadsheet re-save with semicolons and no quotes', () => {
    const text = [TX_HEADER, SELL, BUY].map((line) => line.replaceAll('","', ';').replaceAll('"', '')).join('\n');
    const parsed = parseTransactionsFile('excel.csv', text);
    const reference = parseTransactionsFile('plain.csv', [TX_HEADER, SELL, BUY].join('\n'));
    expect(parsed.transactions.map(({ cellsJson: _cells, ...tx }) => tx)).toEqual(reference.transactions.map(({ cellsJson: _cells, ...tx }) => tx));
    // The same cells, as JSON text: stringified from the re-save's cells, taken as they are from the quoted lines.
    expect(parsed.transactions.map((tx) => tx.cellsJson)).toEqual(reference.transactions.map((tx) => tx.cellsJson));
  });

  it('accepts UTF-16 with a BOM and single-byte "ANSI" text', () => {
    const text = `${TX_HEADER}\r\n${BUY}\r\n`;
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(parseTransactionsFile('unicode.csv', utf16).transactions).toHaveLength(1);
    const ansi = Buffer.from(`${TX_HEADER}\n${BUY.replace('PEPSICO INC', 'NESTL\u00c9 SA')}\n`, 'latin1');
    expect(parseTransactionsFile('ansi.csv', ansi).transactions[0].description).toBe('NESTL\u00c9 SA');
  });

  it('keeps line numbers physical: blank lines count, quoted line breaks stay in their record', () => {
    const text = `${TX_HEADER}\n\n"06/25/2024","Journal","","JOURNAL\nTO ...5678","","","","-$750.00"\n${BUY}\n`;
    const parsed = parseTransactionsFile('lines.csv', text);
    expect(parsed.transactions.map((tx) => tx.line)).toEqual([3, 5]);
    expect(parsed.transactions[0].description).toBe('JOURNAL\nTO ...5678');
  });

  it.each([
    ['header only', `${TX_HEADER}\n`, 'IMPORT_NO_DATA_ROWS', 1, 'no transactions'],
    ['a repeated header', `${TX_HEADER}\n${BUY}\n${TX_HEADER}\n${SELL}\n`, 'IMPORT_MALFORMED_CSV', 3, 'header row appears again'],
    ['a repeated header, spaced and in capitals', `${TX_HEADER}\n${BUY}\n${TX_HEADER.replace('"Date"', '"  DATE"').toUpperCase()}\n`, 'IMPORT_MALFORMED_CSV', 3, 'header row appears again'],
    ['a negative quantity', `${TX_HEADER}\n${BUY.replace('"13.5"', '"-13.5"')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Quantity': negative quantity '-13.5'"],
    ['a zero quantity', `${TX_HEADER}\n${BUY.replace('"13.5"', '"0"')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Quantity'"],
    ['a Buy without quantity', `${TX_HEADER}\n${BUY.replace('"13.5"', '""')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Quantity' is empty"],
    ['a Buy without symbol', `${TX_HEADER}\n${BUY.replace('"PEP"', '""')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Symbol' is empty"],
    ['a Buy without price or amount', `${TX_HEADER}\n${BUY.replace('"$174.44"', '""').replace('"($2,354.94)"', '""')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Amount' is empty"],
    ['an impossible date', `${TX_HEADER}\n${SELL}\n${BUY.replace('06/21/2024', '13/45/2024')}\n`, 'IMPORT_INVALID_VALUE', 3, "column 'Date': '13/45/2024' is not a valid date"],
    ['a bad as-of date', `${TX_HEADER}\n${BUY.replace('06/21/2024', '06/21/2024 as of 02/30/2024')}\n`, 'IMPORT_INVALID_VALUE', 2, 'is not a valid date'],
    ['a bad price', `${TX_HEADER}\n${BUY.replace('$174.44', '$17,4.44')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Price': cannot read '$17,4.44' as a number"],
    ['an empty Action', `${TX_HEADER}\n${BUY.replace('"Buy"', '"  "')}\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Action' is empty"],
    ['too few columns', `${TX_HEADER}\n${SELL}\n"06/21/2024","Buy","PEP"\n`, 'IMPORT_MALFORMED_CSV', 3, 'expected 8 columns, found 3'],
    ['an extra filled column', `${TX_HEADER}\n${BUY},"x"\n`, 'IMPORT_MALFORMED_CSV', 2, 'found 9 columns'],
    ['a stray quote', `${TX_HEADER}\n${SELL}\n"06/21/2024"x,"Buy","PEP","PEPSICO INC","1","$1","","-$1"\n`, 'IMPORT_MALFORMED_CSV', 3, 'malformed CSV'],
    // The first problem in file order, whether in a row's content or in the CSV, in a short file or past the first slice of a long one.
    ['a bad price before a stray quote', `${TX_HEADER}\n${BUY.replace('$174.44', 'abc')}\n"06/21/2024"x,"Buy"\n`, 'IMPORT_INVALID_VALUE', 2, "column 'Price'"],
    ['a stray quote before a bad price', `${TX_HEADER}\n"06/21/2024"x,"Buy"\n${BUY.replace('$174.44', 'abc')}\n`, 'IMPORT_MALFORMED_CSV', 2, 'malformed CSV'],
    ['a bad price far before an open quote', `${TX_HEADER}\n${SELL}\n${BUY.replace('$174.44', 'abc')}\n${`${SELL}\n`.repeat(5_000)}"06/21/2024,"Buy"\n`, 'IMPORT_INVALID_VALUE', 3, "column 'Price'"],
    ['an open quote far before a bad price', `${TX_HEADER}\n${`${SELL}\n`.repeat(5_000)}"06/21/2024,"Buy"\n${BUY.replace('$174.44', 'abc')}\n`, 'IMPORT_MALFORMED_CSV', 5_002, 'malformed CSV'],
    ['a title line and a foreign header', `"Account history"\n"Trade Date","Type","Ticker"\n`, 'IMPORT_HEADER_NOT_RECOGNISED', 2, 'header not recognised'],
    ['only a title line', `"Transactions  for account XXXX-1234"\n`, 'IMPORT_HEADER_NOT_RECOGNISED', 1, 'header not recognised'],
    ['whitespace only', ' \r\n\r\n', 'IMPORT_EMPTY_FILE', 1, 'file is empty'],
    ['a BOM only', '\uFEFF', 'IMPORT_EMPTY_FILE', 1, 'file is empty'],
    ['a NUL byte on line 3', `${TX_HEADER}\n${SELL}\n${BUY.replace('PEPSICO', 'PEP\u0000SICO')}\n`, 'IMPORT_BINARY_CONTENT', 3, 'binary content'],
  ])('refuses %s', (_case, text, code, line, reason) => {
    const error = failure(() => parseTransactionsFile('bad.csv', text));
    expect([error.importCode, error.line]).toEqual([code, line]);
    expect(error.message).toContain(`bad.csv, line ${line}: `);
    expect(error.message).toContain(reason);
  });

  it('refuses bad lot rows naming the column', () => {
    const badQuantity = failure(() =>
      parseRealizedLotsFile('gains.csv', `"title"\n${LOT_HEADER}\n${LOT_ROW.replace('"1","$176.5500"', '"x","$176.5500"')}\n`),
    );
    expect(badQuantity.message).toBe("gains.csv, line 3: column 'Quantity': cannot read 'x' as a number");
    const badWash = failure(() => parseRealizedLotsFile('gains.csv', `${LOT_HEADER}\n${LOT_ROW.replace('"No"', '"Maybe"')}\n`));
    expect(badWash.message).toContain("column 'Wash Sale?'");
    const badPercent = failure(() => parseRealizedLotsFile('gains.csv', `${LOT_HEADER}\n${LOT_ROW.replace('0.68%', '0.6.8%')}\n`));
    expect(badPercent.message).toContain("column 'Gain/Loss (%)': cannot read '0.6.8%'");
  });

  it('accepts a gains file without lots and skips a Total row', () => {
    expect(parseRealizedLotsFile('gains.csv', `${LOT_HEADER}\n`).lots).toEqual([]);
    const total = `"Total","","","","","","","$176.55","$175.35","$1.20",${'"",'.repeat(14)}""`;
    const parsed = parseRealizedLotsFile('gains.csv', `${LOT_HEADER}\n${LOT_ROW}\n${total}\n`);
    expect(parsed.lots.map((lot) => [lot.symbol, lot.line, lot.gainLossPercent?.toString()])).toEqual([['PEP', 2, '0.68']]);
  });

  it('refuses a header met again in the same words whatever the layout', () => {
    const robinhood = [
      '"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"',
      '"1/3/2024","1/3/2024","1/5/2024","AAPL","Apple","Buy","10","$185.00","($1,850.00)"',
    ];
    const refusals = [
      failure(() => parseTransactionsFile('twice.csv', `${TX_HEADER}\n${BUY}\n${TX_HEADER}\n${SELL}\n`)),
      failure(() => parseRealizedLotsFile('twice.csv', `${LOT_HEADER}\n${LOT_ROW}\n${LOT_HEADER}\n${LOT_ROW}\n`)),
      failure(() => parseTransactionsFile('twice.csv', [...robinhood, ...robinhood].join('\n'))),
    ];
    expect(refusals.map((error) => [error.importCode, error.message])).toEqual(
      Array(3).fill(['IMPORT_MALFORMED_CSV', 'twice.csv, line 3: malformed CSV (the header row appears again (several exports in one file?); upload one export per file)']),
    );
  });

  it('keeps each row’s raw cells and reads Amount-less trades', () => {
    const parsed = parseTransactionsFile('raw.csv', `${TX_HEADER}\n"06/21/2024","Buy  ","pep","PEPSICO INC","10","$174.44","$1.00",""\n`);
    const [tx] = parsed.transactions;
    expect(JSON.parse(tx.cellsJson)).toEqual(['06/21/2024', 'Buy  ', 'pep', 'PEPSICO INC', '10', '$174.44', '$1.00', '']);
    expect([tx.action, tx.symbol, tx.amount, tx.fees?.toString()]).toEqual(['Buy', 'PEP', null, '1']);
  });

  it.each([
    ['a 309-digit price', BUY.replace('$174.44', `$${'9'.repeat(309)}`), "column 'Price': '$99999", 'is beyond the limit of 10,000,000'],
    ['a 31-digit amount', BUY.replace('($2,354.94)', `$${'1'.repeat(31)}`), "column 'Amount'", 'is beyond the limit of 1,000,000,000,000'],
    ['a quantity past 10^10', BUY.replace('"13.5"', '"20000000000"'), "column 'Quantity'", 'is beyond the limit of 10,000,000,000'],
    ['a 10,000-character symbol', BUY.replace('"PEP"', `"${'A'.repeat(10_000)}"`), "column 'Symbol'", 'is not a ticker'],
    ['a symbol with markup', BUY.replace('"PEP"', '"<B>PEP"'), "column 'Symbol'", 'is not a ticker'],
    ['a symbol with a path', BUY.replace('"PEP"', '"../PEP"'), "column 'Symbol'", 'is not a ticker'],
    ['a year past 2199', BUY.replace('06/21/2024', '06/21/2200'), "column 'Date'", 'outside the supported dates, 1900-01-01 to 2199-12-31'],
    ['a year before 1900', BUY.replace('06/21/2024', '06/21/1899'), "column 'Date'", 'outside the supported dates'],
  ])('refuses %s naming the file, line and column', (_, row, column, reason) => {
    const error = failure(() => parseTransactionsFile('t.csv', `${TX_HEADER}\n${row}\n`));
    expect(error.message).toContain(`t.csv, line 2: ${column}`);
    expect(error.message).toContain(reason);
    expect(error.message.length).toBeLessThan(300);
  });

  it('takes figures at the limits, and any short text as the symbol of a row that is not a trade', () => {
    const atLimits = BUY.replace('"13.5"', '"10000000000"').replace('$174.44', '$10,000,000.00').replace('($2,354.94)', '($1,000,000,000,000)');
    expect(parseTransactionsFile('t.csv', `${TX_HEADER}\n${atLimits}\n`).transactions).toHaveLength(1);
    const interest = '"06/21/2024","Bond Interest","912828 XX1 NOTE","US TREASURY","","","","$12.00"';
    expect(parseTransactionsFile('t.csv', `${TX_HEADER}\n${interest}\n`).transactions[0].symbol).toBe('912828 XX1 NOTE');
    const markup = interest.replace('912828 XX1 NOTE', '<script>');
    expect(failure(() => parseTransactionsFile('t.csv', `${TX_HEADER}\n${markup}\n`)).message).toContain('is not a symbol');
  });

  it('refuses a lot with a price per share past 10^7', () => {
    const error = failure(() => parseRealizedLotsFile('gains.csv', `${LOT_HEADER}\n${LOT_ROW.replace('$176.5500', '$99,000,000')}\n`));
    expect(error.message).toContain("gains.csv, line 2: column 'Proceeds Per Share'");
  });
});
