import { readFileSync } from 'node:fs';
import path from 'node:path';
import { matchTrades } from '../hybrid-matcher.js';
import { unknownActionWarnings } from '../unknown-actions.js';
import { parseTransactionsFile } from './format-registry.js';
import { ghostfolioExportAsCsv, GHOSTFOLIO_EXPORT_MAX_BYTES, plainNumber } from './ghostfolio-export.js';

const EXPORT = readFileSync(path.resolve(process.cwd(), 'test/fixtures/ghostfolio/export.json'));

/** An export of the given activities, each a BUY of 1 AAPL at 100 on 2024-01-03 but for what it sets. */
function exportOf(...activities: Record<string, unknown>[]): Buffer {
  const base = { type: 'BUY', symbol: 'AAPL', dataSource: 'YAHOO', currency: 'USD', quantity: 1, unitPrice: 100, fee: 0, comment: null, date: '2024-01-03T00:00:00.000Z' };
  return Buffer.from(JSON.stringify({ meta: { version: '2.105.0' }, activities: activities.map((activity) => ({ ...base, ...activity })) }));
}

const csvOf = (bytes: Buffer) => ghostfolioExportAsCsv('export.json', bytes).toString('utf8');

describe("Ghostfolio's export (docs/formats.md): read as the CSV of its activities", () => {
  it('gives the trades, dividends and open lots of the same account as Ghostfolio\'s activities CSV, days as they were entered', () => {
    const file = parseTransactionsFile('export.json', ghostfolioExportAsCsv('export.json', EXPORT));
    expect([file.format.id, file.dataRows]).toEqual(['ghostfolio-activities', 12]);
    const result = matchTrades(file.transactions, []);
    // As ghostfolio/activities.csv (broker-layouts.spec.ts): midnights of Berlin and New York are their own days.
    expect(result.trades.map((t) => [t.symbol, t.closeDate, t.volume.toString(), t.totalProfitLoss.toFixed(2)])).toEqual([
      ['AAPL', '2024-04-10', '10', '-150.04'],
      ['AAPL', '2024-04-10', '2', '-10.21'],
      ['MSFT', '2024-05-23', '10', '9.94'],
      ['NVDA', '2024-06-20', '20', '700.00'],
    ]);
    expect(result.dividends.map((d) => [d.symbol, d.transactionDate, d.amount.toFixed(2)])).toEqual([['AAPL', '2024-02-15', '2.40']]);
    expect(result.openLots.map((lot) => [lot.symbol, lot.quantity.toString(), lot.amount.toFixed(2), lot.openDate])).toEqual([['AAPL', '3', '525.30', '2024-03-04']]);
    // A manual asset (an id, not a ticker) is kept and reported, as are a fee, interest and another currency.
    expect(unknownActionWarnings('export.json', file.transactions).map((warning) => /Action '([^']+)'/.exec(warning)?.[1])).toEqual([
      'Ghostfolio fee activity',
      'Ghostfolio activity in EUR',
      'Ghostfolio interest activity',
      'Ghostfolio activity of a manual asset',
    ]);
  });

  it('takes each day as the nearest UTC midnight, the activities in order of their days, the export\'s order within one', () => {
    const lines = csvOf(
      exportOf(
        { date: '2024-01-03T05:00:00.000Z', comment: 'New York' },
        { date: '2024-01-02T23:00:00.000Z', comment: 'Berlin' },
        { date: '2024-01-02T10:00:00.000Z', comment: 'Kiritimati' },
        { date: '2024-01-02T11:59:59.000Z', comment: 'UTC-11:59' },
        { date: '2024-01-01T12:00:00.000Z', comment: 'noon' },
        { date: '2024-01-02T18:30:00-05:00', comment: 'an offset' },
        { date: '2024-01-02T13:00', comment: 'no zone' },
      ),
    ).split('\n');
    expect(lines.slice(1, -1).map((line) => [line.slice(1, 11), /"([^"]*)"$/.exec(line)?.[1]])).toEqual([
      ['2024-01-02', 'Kiritimati'],
      ['2024-01-02', 'UTC-11:59'],
      ['2024-01-02', 'noon'],
      ['2024-01-03', 'New York'],
      ['2024-01-03', 'Berlin'],
      ['2024-01-03', 'an offset'],
      ['2024-01-03', 'no zone'],
    ]);
  });

  it('writes figures without an exponent and a comment on one line, quoted', () => {
    expect([5e-7, 2.5e-8, -1.25e-7, 1.5e21, 123.45, 0.1, 100].map(plainNumber)).toEqual([
      '0.0000005',
      '0.000000025',
      '-0.000000125',
      '1500000000000000000000',
      '123.45',
      '0.1',
      '100',
    ]);
    expect(csvOf(exportOf({ quantity: 5e-7, comment: 'Bought "the dip",\n\tafter\u0000 the open ' })).split('\n')[1]).toBe(
      '"2024-01-03","AAPL","YAHOO","USD","100","0.0000005","BUY","0","Bought ""the dip"", after the open"',
    );
  });

  it.each([
    ['not JSON', Buffer.from('{"activities": [}'), /^export\.json: not JSON a Ghostfolio export is made of \(/],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), /^export\.json: not JSON a Ghostfolio export is made of \(its bytes are not UTF-8 text\)$/],
    ['JSON of something else', Buffer.from('[{"date": "2024-01-03"}]'), /^export\.json: not a Ghostfolio export: /],
    ['an export without activities', Buffer.from('{"meta": {}, "activities": []}'), /^export\.json: the export holds no activities$/],
    ['an activity that is not one', Buffer.from('{"activities": [42]}'), /^export\.json: activity 1: not an activity/],
    ['an activity without its date', exportOf({}, { date: null }), /^export\.json: activity 2: 'date' is missing$/],
    ['a date without its time', exportOf({ date: '2024-01-03' }), /^export\.json: activity 1: '2024-01-03' is not a date and time as Ghostfolio writes one/],
    ['a date that is not one', exportOf({ date: '03/01/2024' }), /^export\.json: activity 1: '03\/01\/2024' is not a date and time as Ghostfolio writes one/],
    ['a figure that is not a number', exportOf({ unitPrice: '185' }), /^export\.json: activity 1: 'unitPrice' is not a number$/],
    ['a type that is not a text', exportOf({ type: 7 }), /^export\.json: activity 1: 'type' is not a text$/],
    ['a symbol with a control character', exportOf({}, {}, { symbol: 'AA\u0000PL' }), /^export\.json: activity 3: 'symbol' holds a control character$/],
    ['a file over the limit', Buffer.alloc(GHOSTFOLIO_EXPORT_MAX_BYTES + 1, 0x20), /^export\.json: larger than the 20 MB a Ghostfolio export is read up to$/],
  ])('refuses %s, naming the file', (_, bytes, message) => {
    expect(() => ghostfolioExportAsCsv('export.json', bytes)).toThrow(message);
  });
});
