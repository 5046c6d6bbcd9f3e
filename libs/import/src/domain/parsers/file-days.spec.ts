import { createHash } from 'node:crypto';
import { runSteps } from '../turns.js';
import { parseRealizedLotsFile, parseTransactionsFile } from './format-registry.js';
import { withUnknownDays } from './file-days.js';

const HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
const ROWS = {
  '2024-03-04': ['"03/04/2024","Sell","ABC","ABC INC","5","$12.00","","$60.00"', '"03/04/2024","Buy","XYZ","XYZ CORP","1","$3.00","","-$3.00"'],
  '2024-03-01': ['"03/01/2024","Buy","ABC","ABC INC","10","$10.00","","-$100.00"'],
  '2024-02-29': ['"02/29/2024","Qualified Dividend","XYZ","XYZ CORP","","","","$0.50"'],
};
const file = (days: Record<string, string[]>, header = HEADER) => [header, ...Object.values(days).flat(), ''].join('\n');

describe("a file's days (uploads that cost what they add)", () => {
  it('gives each day a digest of its rows alone, which another file with the same rows of that day shares', () => {
    const whole = parseTransactionsFile('t.csv', file(ROWS));
    const { '2024-03-04': _, ...earlier } = ROWS;
    const part = parseTransactionsFile('t.csv', file(earlier));
    expect([...whole.days!.digests.keys()]).toEqual(['2024-03-04', '2024-03-01', '2024-02-29']);
    expect(part.days!.digests.get('2024-03-01')).toBe(whole.days!.digests.get('2024-03-01'));
    expect(part.days!.digests.get('2024-02-29')).toBe(whole.days!.digests.get('2024-02-29'));
    expect(whole.days!.digests.get('2024-03-01')).toMatch(/^[0-9a-f]{32}$/);
    // A row more, or another header over the same rows, is another digest.
    const more = parseTransactionsFile('t.csv', file({ ...ROWS, '2024-03-01': [...ROWS['2024-03-01'], ROWS['2024-03-01'][0]] }));
    expect(more.days!.digests.get('2024-03-01')).not.toBe(whole.days!.digests.get('2024-03-01'));
    const renamed = parseTransactionsFile('t.csv', file(ROWS, HEADER.replace('Fees & Comm', 'Fees & Commissions')));
    expect(renamed.transactions).toHaveLength(4);
    expect(renamed.days!.digests.get('2024-02-29')).not.toBe(whole.days!.digests.get('2024-02-29'));
  });

  it("digests a day as the header's and its rows' cells, one JSON text a line, however many rows (the digests imports stored before stay valid)", () => {
    const rows = Array.from({ length: 700 }, (_, index) => `"03/04/2024","Buy","S${index}","S${index} INC","${index + 1}","$1.00","","-$${index + 1}.00"`);
    const other = '"03/01/2024","Buy","ABC","ABC INC","10","$10.00","","-$100.00"';
    // The day's rows interleaved with another day's: file order within the day is what counts.
    const text = [HEADER, ...rows.slice(0, 300), other, ...rows.slice(300), ''].join('\n');
    const json = (line: string) => JSON.stringify(line.slice(1, -1).split('","'));
    const expected = createHash('sha256')
      .update([HEADER, ...rows].map(json).join('\n'))
      .digest('hex')
      .slice(0, 32);
    expect(parseTransactionsFile('t.csv', text).days!.digests.get('2024-03-04')).toBe(expected);
  });

  it('digests a day the same whether its rows come together or mixed with other days in runs of any length', () => {
    const days = ['01', '04', '05', '06'].map((day) => `03/${day}/2024`);
    const rowsOf = (date: string, count: number) =>
      Array.from({ length: count }, (_, index) => `"${date}","Buy","S${index}","S${index} INC","${index + 1}","$1.00","","-$${index + 1}.00"`);
    const byDay = days.map((date, at) => rowsOf(date, [3, 40, 300, 17][at]));
    const together = parseTransactionsFile('t.csv', [HEADER, ...byDay.flat(), ''].join('\n')).days!.digests;
    // Runs of 1, 2, 15, 16, 17 and 40 rows a day, each day's rows in their order.
    const runs = [1, 2, 15, 16, 17, 40];
    const left = byDay.map((rows) => [...rows]);
    const mixed: string[] = [];
    for (let turn = 0; left.some((rows) => rows.length > 0); turn += 1) {
      for (const rows of left) mixed.push(...rows.splice(0, runs[turn % runs.length]));
    }
    expect(mixed).toHaveLength(360);
    const apart = parseTransactionsFile('t.csv', [HEADER, ...mixed, ''].join('\n')).days!.digests;
    expect([...together.keys()]).toHaveLength(4);
    for (const [day, digest] of together) expect(apart.get(day)).toBe(digest);
  });

  it('puts the rows of days seen before aside unread, and reads those the account does not hold, in file order', async () => {
    const seen = new Map([['schwab-transactions', new Set(['2024-03-04', '2024-02-29'])]]);
    const parsed = await parseTransactionsFile('t.csv', file(ROWS), undefined, NO_PAUSE, seen);
    expect(parsed.transactions.map((row) => row.line)).toEqual([4]);
    expect(parsed.dataRows).toBe(4);
    expect(parsed.days!.waitingRows).toBe(3);
    const held = runSteps(withUnknownDays(parsed.transactions, parsed.days, new Set(['2024-03-04'])));
    expect(held.knownRows).toBe(2);
    expect(held.rows.map((row) => [row.line, row.date, row.action])).toEqual([
      [4, '2024-03-01', 'Buy'],
      [5, '2024-02-29', 'Qualified Dividend'],
    ]);
    const none = runSteps(withUnknownDays(parsed.transactions, parsed.days, new Set()));
    expect(none.rows).toEqual(parseTransactionsFile('t.csv', file(ROWS)).transactions);
  });

  it('refuses a bad row put aside when it is read, naming its line', async () => {
    const bad = { ...ROWS, '2024-02-29': ['"02/29/2024","Buy","XYZ","XYZ CORP","","$1.00","","-$1.00"'] };
    const seen = new Map([['schwab-transactions', new Set(['2024-02-29'])]]);
    const parsed = await parseTransactionsFile('t.csv', file(bad), undefined, NO_PAUSE, seen);
    expect(() => runSteps(withUnknownDays(parsed.transactions, parsed.days, new Set()))).toThrow(/t\.csv.*line 5/);
  });

  it('dates lots by their closing day', async () => {
    const lots = [
      '"Symbol","Name","Closed Date","Opened Date","Quantity","Proceeds Per Share","Cost Per Share","Proceeds","Cost Basis (CB)","Gain/Loss ($)"',
      '"ABC","ABC INC","03/04/2024","03/01/2024","5","$12.00","$10.00","$60.00","$50.00","$10.00"',
      '"ABC","ABC INC","03/05/2024","03/01/2024","5","$12.00","$10.00","$60.00","$50.00","$10.00"',
      '',
    ].join('\n');
    const seen = new Map([['schwab-realized-lot-details', new Set(['2024-03-05'])]]);
    const parsed = await parseRealizedLotsFile('g.csv', lots, undefined, NO_PAUSE, seen);
    expect([...parsed.days!.digests.keys()]).toEqual(['2024-03-04', '2024-03-05']);
    expect(parsed.lots.map((lot) => lot.closedDate)).toEqual(['2024-03-04']);
    expect(parsed.dataRows).toBe(2);
  });
});

const NO_PAUSE = { pause: async () => undefined };
