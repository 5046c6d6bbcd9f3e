import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ImportFileError } from '../import.errors.js';
import { CellMemo, column, ColumnLayout, RowReader } from './csv-columns.js';
import { parseRealizedLotsFile, parseTransactionsFile } from './format-registry.js';

const LOT_HEADER =
  '"Symbol","Name","Closed Date","Opened Date","Quantity","Proceeds Per Share","Cost Per Share","Proceeds","Cost Basis (CB)",' +
  '"Gain/Loss ($)","Gain/Loss (%)","Term","Wash Sale?","Disallowed Loss"';

const TX_HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';

const file = (header: string, rows: string[]) => Buffer.from(`"Title line"\n${header}\n${rows.join('\n')}\n`);
const lot = (symbol: string, quantity: string, proceeds: string) =>
  `"${symbol}","${symbol} HOLDINGS INC","06/25/2024","04/03/2024","${quantity}","$10.00","$9.00","${proceeds}","$9.00","$1.00","11.11%","Short Term","No",""`;

describe('reading a file whose cells repeat', () => {
  it('gives the rows whose cells read the same the same values, each value still its own cell', () => {
    const trade = (symbol: string, quantity: string, amount: string) => `"06/25/2024","Buy","${symbol}","${symbol} HOLDINGS INC","${quantity}","$10.00","","${amount}"`;
    const { transactions } = parseTransactionsFile('t.csv', file(TX_HEADER, [trade('PEP', '1', '-$10.00'), trade('KO', '2', '-$20.00'), trade('PEP', '1', '-$10.00')]));
    const { lots } = parseRealizedLotsFile('lots.csv', file(LOT_HEADER, [lot('PEP', '1', '$10.00'), lot('KO', '2', '$20.00'), lot('PEP', '1', '$10.00')]));

    expect(transactions.map((each) => [each.symbol, each.quantity?.toString(), each.amount?.toString()])).toEqual([
      ['PEP', '1', '-10'],
      ['KO', '2', '-20'],
      ['PEP', '1', '-10'],
    ]);
    expect(lots.map((each) => [each.symbol, each.quantity.toString(), each.proceeds.toString()])).toEqual([
      ['PEP', '1', '10'],
      ['KO', '2', '20'],
      ['PEP', '1', '10'],
    ]);
  });

  it('keeps each way of reading a cell apart: the text of a symbol cell is not its ticker', () => {
    const specs = { symbol: column('Symbol'), amount: column('Amount'), change: column('Change', false) };
    const layout = ColumnLayout.of(specs, ['Symbol', 'Amount', 'Change']);
    if (layout === undefined) throw new Error('the header has the columns');
    const read = (cells: string[]) => new RowReader('file.csv', { line: 3, cells, json: undefined }, layout, specs);

    expect(read(['pep', '10', '10%']).sharedText('symbol')).toBe('pep');
    expect(read(['pep', '10', '10%']).symbol('symbol', true)).toBe('PEP');
    expect(read(['pep', '10', '10%']).symbol('symbol', false)).toBe('PEP');
    // A percentage is not an amount: the cell read as one is refused as the other.
    expect(read(['pep', '10%', '']).percent('amount')?.toString()).toBe('10');
    expect(() => read(['pep', '10%', '']).number('amount')).toThrow(ImportFileError);
    expect(read(['pep', '10%', '']).sharedText('amount')).toBe('10%');
  });

  it('lets go of what cells read to once told (the cells are slices of the file), reading the same values again after', () => {
    const specs = { amount: column('Amount') };
    const layout = ColumnLayout.of(specs, ['Amount']);
    if (layout === undefined) throw new Error('the header has the columns');
    const read = () => new RowReader('file.csv', { line: 3, cells: ['$1,234.50'], json: undefined }, layout, specs).number('amount');
    const first = read();

    expect(read()).toBe(first); // remembered: the same Decimal
    layout.forgetReadings();
    const again = read();
    expect(again).not.toBe(first);
    expect(again?.toString()).toBe('1234.5');
    expect(read()).toBe(again);
  });

  it('keeps the columns of a very wide file apart too', () => {
    // A hostile header: thousands of columns, a text column a thousand to the right of the symbol.
    const names = Array.from({ length: 3_000 }, (_, index) => `Column ${index}`);
    names[1_001] = 'Description';
    names[1] = 'Symbol';
    const specs = { description: column('Description'), symbol: column('Symbol') };
    const layout = ColumnLayout.of(specs, names);
    if (layout === undefined) throw new Error('the header has the columns');
    const cells = (description: string, symbol: string) => names.map((_, index) => (index === 1_001 ? description : index === 1 ? symbol : ''));
    const read = (row: string[]) => new RowReader('file.csv', { line: 3, cells: row, json: undefined }, layout, specs);

    expect(read(cells('<b>', 'PEP')).sharedText('description')).toBe('<b>');
    expect(() => read(cells('', '<b>')).symbol('symbol', false)).toThrow(ImportFileError);
  });
});

describe('CellMemo', () => {
  it('remembers what a text read to', () => {
    const memo = new CellMemo<number>();

    expect(memo.get('a')).toBeUndefined();
    expect(memo.remember('a', 1)).toBe(1);
    expect(memo.get('a')).toBe(1);
  });

  it('lets go of a column whose texts seldom repeat, after its sample', () => {
    const memo = new CellMemo<number>({ entries: 1_000, sample: 8 });
    for (let at = 0; at < 7; at += 1) {
      if (memo.get(`unique ${at}`) === undefined) memo.remember(`unique ${at}`, at);
    }
    expect(memo.get('unique 0')).toBe(0);

    // Nine readings, one hit: the ninth new text lets the memo go; its value is still given.
    expect(memo.get('unique 7')).toBeUndefined();
    expect(memo.remember('unique 7', 7)).toBe(7);
    expect(memo.get('unique 0')).toBeUndefined();
  });

  it('keeps a column whose texts repeat, up to its number of entries', () => {
    const memo = new CellMemo<number>({ entries: 2, sample: 4 });
    for (let round = 0; round < 10; round += 1) {
      for (const text of ['a', 'b']) if (memo.get(text) === undefined) memo.remember(text, round);
    }
    expect([memo.get('a'), memo.get('b')]).toEqual([0, 0]);

    memo.remember('c', 3);
    expect(memo.get('a')).toBe(0);
    // Not kept, the memo being full: only the text read last is known beside its entries.
    expect(memo.get('c')).toBeUndefined();
  });

  it('keeps a column whose texts repeat in runs (a file sorted by symbol), counting the run\'s readings as hits', () => {
    const memo = new CellMemo<number>({ entries: 1_000, sample: 8 });
    // Ten symbols, each in a run of three rows: ten misses in thirty readings.
    for (const [value, symbol] of [...'ABCDEFGHIJ'].entries()) {
      for (let row = 0; row < 3; row += 1) if (memo.get(symbol) === undefined) memo.remember(symbol, value);
    }
    expect(memo.get('A')).toBe(0);
  });

  it('keeps no cell it remembers as a slice of the text the cell was read from', () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    const memo = new CellMemo<number>();
    collect();
    const before = getHeapStatistics().used_heap_size;
    for (let piece = 0; piece < 16; piece += 1) {
      // A piece of a file's text (2 MB) and a cell of it long enough to be a slice of it.
      const text = `${'x'.repeat(2 ** 21)}"NAME ${piece} HOLDINGS INC",`;
      memo.remember(text.slice(2 ** 21 + 1, text.length - 2), piece);
    }
    collect();

    // The last text read is kept as itself (one piece); the sixteen pieces were 32 MB.
    expect(getHeapStatistics().used_heap_size - before).toBeLessThan(8 * 2 ** 20);
    expect(memo.get('NAME 3 HOLDINGS INC')).toBe(3);
  });

  it('knows the text read last, as the same string or an equal one, also once it has let go of the column', () => {
    const memo = new CellMemo<number>({ entries: 1_000, sample: 2 });
    for (const [text, value] of [['x', 1], ['y', 2]] as const) if (memo.get(text) === undefined) memo.remember(text, value);
    // Two readings, no hit: the column is let go.
    expect(memo.get('x')).toBeUndefined();
    expect(memo.get(['y'].join(''))).toBe(2);
  });
});
