import { generateActiveTraderHistory, generateLotHistory } from '../../../../bench/support/trading-history.mjs';
import { readFixtureBytes } from '../testing/fixtures.js';
import type { BrokerTransaction } from './broker-transaction.js';
import { Decimal } from '@app/shared/domain';
import { matchTrades, symbolKey, type MatchResult, type MatchResumePoint, type OpenLotReader, type ResumedLot } from './hybrid-matcher.js';
import { parseRealizedLotsFile, parseTransactionsFile } from './parsers/format-registry.js';
import type { RealizedLot } from './realized-lot.js';

/** What the ledger keeps of an open lot. */
function kept(lots: MatchResult['openLots']) {
  return lots.map((lot) => ({
    symbol: lot.symbol,
    side: lot.side,
    openDate: lot.openDate,
    shares: lot.quantity.toString(),
    cost: lot.amount.toString(),
    price: lot.txPrice?.toString() ?? null,
    source: lot.source,
  }));
}

/** Where `done`'s match ended, for `symbols`, as the ledger would give it back (the open lots and the sides FIFO took from). */
function resumePoint(done: MatchResult, symbols: ReadonlySet<string>): MatchResumePoint<readonly ResumedLot[]> {
  const fifoSides = new Map(done.trades.filter((trade) => trade.source === 'fifo').map((trade) => [`${trade.symbol}|${trade.side}`, trade]));
  return {
    openLots: done.openLots
      .filter((lot) => symbols.has(lot.symbol))
      .map((lot) => ({ symbol: lot.symbol, side: lot.side, openDate: lot.openDate, shares: lot.quantity, cost: lot.amount, price: lot.txPrice })),
    fifoSides: [...fifoSides.values()].filter((trade) => symbols.has(trade.symbol)).map((trade) => ({ symbol: trade.symbol, side: trade.side })),
  };
}

/**
 * Matches the rows up to `cut`, then goes on from where that ended with the later rows, as an import
 * of a later export does; `lotsKnownEarly`: the broker's lots of later days were stored with the
 * earlier rows (a gains file that reaches further than its transactions file).
 */
function matchInTwo(transactions: readonly BrokerTransaction[], lots: readonly RealizedLot[], cut: string, lotsKnownEarly: boolean) {
  const before = matchTrades(
    transactions.filter((row) => row.date <= cut),
    lots.filter((lot) => lotsKnownEarly || lot.closedDate <= cut),
  );
  const later = transactions.filter((row) => row.date > cut);
  const touched = new Set([...later.map((row) => symbolKey(row.symbol)), ...lots.filter((lot) => lot.closedDate > cut).map((lot) => symbolKey(lot.symbol))]);
  const after = matchTrades(later, lots.filter((lot) => lot.closedDate > cut), { resumeFrom: resumePoint(before, touched) });
  return { before, after, touched };
}

/**
 * `point`'s books read as the ledger reads them for a match (`SqlTradeLedger.openLots`): of each book
 * wanted, all its lots, or its oldest by whole open dates until they hold more than the shares wanted
 * and those of the dates wanted; and what the rest hold. Adds the lots it gives to `given`.
 */
function readAsWanted(point: MatchResumePoint<readonly ResumedLot[]>, given: Set<ResumedLot>): OpenLotReader {
  return async (wanted) => {
    const heldElsewhere: { symbol: string; side: 'long' | 'short'; shares: Decimal }[] = [];
    for (const { symbol, side, whole, oldestShares, openDates } of wanted) {
      const book = point.openLots.filter((lot) => lot.symbol === symbol && lot.side === side);
      let held = Decimal.ZERO;
      const until = whole ? '9999-12-31' : oldestShares.isPositive() ? (book.find((lot) => (held = held.add(lot.shares)).gt(oldestShares))?.openDate ?? '9999-12-31') : '';
      for (const lot of book) if (lot.openDate <= until || openDates.includes(lot.openDate)) given.add(lot);
      if (!whole) heldElsewhere.push({ symbol, side, shares: Decimal.sum(book.filter((lot) => !given.has(lot)).map((lot) => lot.shares)) });
    }
    return { openLots: point.openLots.filter((lot) => given.has(lot)), heldElsewhere };
  };
}

/**
 * `matchInTwo`, the later rows matched from the books read as their sales want them (`readAsWanted`):
 * the same trades, dividends, positions and warnings, and the same books once the lots not read are
 * put back among what the match left (by open date: a book is read by whole dates). Gives how many of
 * the books' lots were read.
 */
async function expectSameReadAsWanted(transactions: readonly BrokerTransaction[], lots: readonly RealizedLot[], cut: string): Promise<{ read: number; books: number }> {
  const { before, after, touched } = matchInTwo(transactions, lots, cut, false);
  const point = resumePoint(before, touched);
  const given = new Set<ResumedLot>();
  const later = transactions.filter((row) => row.date > cut);
  const partly = await matchTrades(later, lots.filter((lot) => lot.closedDate > cut), { pause: async () => undefined, resumeFrom: { ...point, openLots: readAsWanted(point, given) } });
  expect(partly.trades).toEqual(after.trades);
  expect(partly.dividends).toEqual(after.dividends);
  expect(partly.positions.entries()).toEqual(after.positions.entries());
  expect(partly.warnings).toEqual(after.warnings);
  const sourceOf = new Map(before.openLots.map((lot) => [`${lot.symbol}|${lot.side}`, lot.source]));
  const notRead = point.openLots
    .filter((lot) => !given.has(lot))
    .map((lot) => ({ symbol: lot.symbol, side: lot.side, openDate: lot.openDate, shares: lot.shares.toString(), cost: lot.cost.toString(), price: lot.price?.toString() ?? null, source: sourceOf.get(`${lot.symbol}|${lot.side}`) }));
  const bookOrder = (lot: { symbol: string; side: string; openDate: string }) => `${lot.symbol}|${lot.side}|${lot.openDate}`;
  const byBookAndDate = <T extends { symbol: string; side: string; openDate: string }>(books: T[]) => [...books].sort((a, b) => bookOrder(a).localeCompare(bookOrder(b)));
  expect(byBookAndDate([...notRead, ...kept(partly.openLots)])).toEqual(byBookAndDate(kept(after.openLots)));
  return { read: given.size, books: point.openLots.length };
}

function expectSameAsOneMatch(transactions: readonly BrokerTransaction[], lots: readonly RealizedLot[], cut: string, lotsKnownEarly: boolean): void {
  const whole = matchTrades(transactions, lots);
  const { before, after, touched } = matchInTwo(transactions, lots, cut, lotsKnownEarly);
  // The trades before the cut are the stored ones; the resumed match adds exactly the later ones, in order.
  expect([...before.trades.filter((trade) => trade.closeDate <= cut), ...after.trades]).toEqual(whole.trades);
  expect(after.trades.every((trade) => trade.closeDate > cut)).toBe(true);
  expect([...before.dividends, ...after.dividends]).toEqual(whole.dividends);
  const byKey = (changes: { symbol: string; date: string }[]) => [...changes].sort((a, b) => a.symbol.localeCompare(b.symbol) || a.date.localeCompare(b.date));
  expect(byKey([...before.positions.entries(), ...after.positions.entries()])).toEqual(byKey(whole.positions.entries()));
  // The touched symbols' open lots replace the stored ones; the others stay as they were.
  const untouched = before.openLots.filter((lot) => !touched.has(lot.symbol));
  const bySymbol = (lots: ReturnType<typeof kept>) => [...lots].sort((a, b) => a.symbol.localeCompare(b.symbol));
  expect(bySymbol(kept([...untouched, ...after.openLots]))).toEqual(bySymbol(kept(whole.openLots)));
  for (const [symbol, name] of after.companyNames) expect(whole.companyNames.get(symbol)).toBe(name);
}

describe('a match resumed from where an earlier one ended', () => {
  it('gives the Schwab example exactly what one match gives, cut at any of its days', () => {
    const { transactions } = parseTransactionsFile('transactions.csv', readFixtureBytes('schwab-example', 'transactions.csv'));
    const { lots } = parseRealizedLotsFile('realized_gains.csv', readFixtureBytes('schwab-example', 'realized_gains.csv'));
    const days = [...new Set(transactions.map((row) => row.date))].sort();
    expect(days.length).toBeGreaterThan(20);
    for (const cut of days.slice(0, -1)) {
      expectSameAsOneMatch(transactions, lots, cut, false);
      expectSameAsOneMatch(transactions, lots, cut, true);
    }
  });

  it('gives an active trader (lots for every sale, shorts, splits) exactly what one match gives', () => {
    const history = generateActiveTraderHistory({ rows: 6_000, symbols: 40, seed: 7 });
    const { transactions } = parseTransactionsFile('transactions.csv', Buffer.from(history.transactions));
    const { lots } = parseRealizedLotsFile('realized_gains.csv', Buffer.from(history.gains));
    expect(transactions.some((row) => row.kind === 'sell_short')).toBe(true);
    expect(transactions.some((row) => row.kind === 'stock_split')).toBe(true);
    const days = [...new Set(transactions.map((row) => row.date))].sort();
    for (const cut of [days[1], days[Math.floor(days.length / 3)], days[Math.floor(days.length / 2)], days[days.length - 2]]) {
      expectSameAsOneMatch(transactions, lots, cut, false);
    }
  });

  it('gives the same, reading of the books only the lots the later sales may take', async () => {
    const { transactions } = parseTransactionsFile('transactions.csv', readFixtureBytes('schwab-example', 'transactions.csv'));
    const { lots } = parseRealizedLotsFile('realized_gains.csv', readFixtureBytes('schwab-example', 'realized_gains.csv'));
    for (const cut of [...new Set(transactions.map((row) => row.date))].sort().slice(0, -1)) await expectSameReadAsWanted(transactions, lots, cut);
    // A side's first FIFO sale makes all its lots FIFO's estimate: it reads the book whole.
    const firstFifo = parseTransactionsFile(
      'transactions.csv',
      Buffer.from(
        [
          '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
          '"03/05/2024","Sell","ABC","ABC CORP","3","$11.00","","$33.00"',
          '"03/04/2024","Buy","ABC","ABC CORP","5","$12.00","","-$60.00"',
          '"03/01/2024","Buy","ABC","ABC CORP","10","$10.00","","-$100.00"',
          '',
        ].join('\n'),
      ),
    ).transactions;
    expect(await expectSameReadAsWanted(firstFifo, [], '2024-03-04')).toEqual({ read: 2, books: 2 });
    // Shorts and splits (a split reads its symbol's books whole).
    const active = generateActiveTraderHistory({ rows: 6_000, symbols: 8, seed: 11 });
    const activeRows = parseTransactionsFile('transactions.csv', Buffer.from(active.transactions)).transactions;
    const activeLots = parseRealizedLotsFile('realized_gains.csv', Buffer.from(active.gains)).lots;
    const activeDays = [...new Set(activeRows.map((row) => row.date))].sort();
    for (const cut of [activeDays[3], activeDays[Math.floor(activeDays.length / 2)], ...activeDays.slice(-4, -1)]) await expectSameReadAsWanted(activeRows, activeLots, cut);
    // Books that hold years of purchases, sold by the lots the broker names or first in, first out: the last days' uploads read few of their lots.
    for (const options of [
      { symbols: 2, buyShare: 0.8, lotsPerSale: 2 },
      { symbols: 3, buyShare: 0.7, lotsPerSale: 3, pick: 'fifo' as const, brokerLots: false },
    ]) {
      const history = generateLotHistory({ rows: 4_000, ...options });
      const rows = parseTransactionsFile('transactions.csv', Buffer.from(history.transactions)).transactions;
      const historyLots = parseRealizedLotsFile('realized_gains.csv', Buffer.from(history.gains)).lots;
      const days = [...new Set(rows.map((row) => row.date))].sort();
      await expectSameReadAsWanted(rows, historyLots, days[Math.floor(days.length / 2)]);
      let read = 0;
      let books = 0;
      for (const cut of days.slice(-6, -1)) {
        const counted = await expectSameReadAsWanted(rows, historyLots, cut);
        read += counted.read;
        books += counted.books;
      }
      expect({ options, read: read < books / 10 }).toEqual({ options, read: true });
    }
  });

  it('keeps a side FIFO took from as FIFO’s estimate after it was closed out and opened again', () => {
    const { transactions } = parseTransactionsFile(
      'transactions.csv',
      Buffer.from(
        [
          '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
          '"03/05/2024","Buy","ABC","ABC CORP","5","$12.00","","-$60.00"',
          '"03/04/2024","Sell","ABC","ABC CORP","10","$11.00","","$110.00"',
          '"03/01/2024","Buy","ABC","ABC CORP","10","$10.00","","-$100.00"',
          '',
        ].join('\n'),
      ),
    );
    const { after } = matchInTwo(transactions, [], '2024-03-04', false);
    expect(kept(after.openLots)).toEqual([{ symbol: 'ABC', side: 'long', openDate: '2024-03-05', shares: '5', cost: '60', price: '12', source: 'fifo' }]);
    expectSameAsOneMatch(transactions, [], '2024-03-04', false);
  });
});
