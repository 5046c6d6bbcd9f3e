import { createHash } from 'node:crypto';
import { Decimal } from '@app/shared/domain';
import { aTrade } from '../testing/in-memory-trade-reports.js';
import type { ClosedTrade } from './closed-trade.js';
import { encodeCursor, parseTradeListQuery, tradeId, TradeIdSequence, tradeIds } from './trade-list.js';

describe('the trade list query', () => {
  it('defaults to every trade, newest close first, 100 a page', () => {
    expect(parseTradeListQuery({})).toEqual({
      filters: { selection: { allTime: true, symbols: null }, side: null, result: null, source: null, minHoldingDays: null, maxHoldingDays: null, tags: null, untagged: false },
      sort: 'close_date',
      order: 'desc',
      limit: 100,
      after: null,
    });
  });

  it('reads every filter, in either spelling of the dates', () => {
    const query = parseTradeListQuery({
      start_date: '2024-01-01', end_date: '2024-06-30', symbol: ['nvda', 'AMD'], side: 'short', result: 'Loss', source: 'broker',
      min_holding_days: '0', max_holding_days: '30', sort: 'profit_loss', order: 'asc', limit: '500',
    });
    expect(query).toMatchObject({
      filters: { selection: { allTime: false, start: '2024-01-01', end: '2024-06-30', symbols: ['AMD', 'NVDA'] }, side: 'short', result: 'Loss', source: 'broker', minHoldingDays: 0, maxHoldingDays: 30 },
      sort: 'profit_loss', order: 'asc', limit: 500,
    });
  });

  it.each([
    [{ side: 'both' }, "Parameter 'side' must be one of long, short"],
    [{ result: 'win' }, "Parameter 'result' must be one of Win, Loss, Breakeven"],
    [{ source: 'csv' }, "Parameter 'source' must be one of broker, fifo"],
    [{ sort: 'pnl' }, "Parameter 'sort' must be one of close_date, open_date, symbol, profit_loss, return_percentage, holding_days, volume"],
    [{ order: 'up' }, "Parameter 'order' must be one of asc, desc"],
    [{ limit: '0' }, "Parameter 'limit' must be a whole number from 1 to 500"],
    [{ limit: '501' }, "Parameter 'limit' must be a whole number from 1 to 500"],
    [{ limit: '1e2' }, "Parameter 'limit' must be a whole number from 1 to 500"],
    [{ min_holding_days: '-1' }, "Parameter 'min_holding_days' must be a whole number of days from 0 to 110000"],
    [{ min_holding_days: '9', max_holding_days: '3' }, "Parameter 'min_holding_days' (9) is more than 'max_holding_days' (3)"],
    [{ side: ['long', 'short'] }, "Parameter 'side' must be given once"],
    [{ start: '2024-01-01' }, 'Start date and end date are required'],
    [{ start: '2024-02-30', end: '2024-03-01' }, 'Invalid date format. Use YYYY-MM-DD'],
    [{ cursor: 'not a cursor' }, "Invalid cursor: use the 'next_cursor' of a previous page with the same sort and order"],
    [{ cursor: Buffer.from('[1,2]').toString('base64url') }, "Invalid cursor: use the 'next_cursor' of a previous page with the same sort and order"],
  ])('refuses %j: %s', (query, message) => {
    expect(() => parseTradeListQuery(query)).toThrow(message);
  });

  it('takes back its own cursor, and refuses it under another sort or with a value of the wrong type', () => {
    const cursor = encodeCursor({ sortValue: '-12.5', accountId: 3, seq: 41 }, 'profit_loss', 'asc');
    expect(parseTradeListQuery({ sort: 'profit_loss', order: 'asc', cursor }).after).toEqual({ sortValue: '-12.5', accountId: 3, seq: 41 });
    expect(() => parseTradeListQuery({ sort: 'profit_loss', order: 'desc', cursor })).toThrow('Invalid cursor');
    expect(() => parseTradeListQuery({ sort: 'close_date', order: 'asc', cursor })).toThrow('Invalid cursor');
    for (const sortValue of ['9999-99-99', '2024-02-30', '0001-01-01']) {
      const badDate = encodeCursor({ sortValue, accountId: 3, seq: 41 }, 'close_date', 'desc');
      expect(() => parseTradeListQuery({ cursor: badDate })).toThrow('Invalid cursor');
    }
    const forged = encodeCursor({ sortValue: "1'; DROP TABLE x", accountId: 3, seq: 41 }, 'profit_loss', 'asc');
    expect(() => parseTradeListQuery({ sort: 'profit_loss', order: 'asc', cursor: forged })).toThrow('Invalid cursor');
  });
});

describe('a trade id', () => {
  const trade = aTrade({ symbol: 'NVDA', closeDate: '2025-02-05', totalProfitLoss: Decimal.parse('5') });

  it('is made of what the trade is: equal trades differ only by their occurrence, another account gives another id', () => {
    expect(tradeId(1, trade, 0)).toMatch(/^[0-9a-f]{20}$/);
    expect(tradeId(1, { ...trade }, 0)).toBe(tradeId(1, trade, 0));
    expect(tradeId(1, trade, 1)).not.toBe(tradeId(1, trade, 0));
    expect(tradeId(2, trade, 0)).not.toBe(tradeId(1, trade, 0));
    expect(tradeId(1, { ...trade, volume: Decimal.parse('10.0000001') }, 0)).not.toBe(tradeId(1, trade, 0));
  });

  it('is the digest its trades have been stored under: account, identity and occurrence, as text joined by |', () => {
    // Written out as plainly as it can be, so a faster way of making ids that gave other ones (and so
    // orphaned every journal entry on the next import) fails.
    const storedIds = (accountId: number, trades: readonly ClosedTrade[]) => {
      const seen = new Map<string, number>();
      return trades.map((each) => {
        const units = [each.volume, each.costBasis, each.proceeds, each.totalProfitLoss].map((figure) => figure.rawUnits);
        const identity = [each.symbol, each.side, each.source, each.openDate, each.closeDate, ...units].join('|');
        const occurrence = seen.get(identity) ?? 0;
        seen.set(identity, occurrence + 1);
        return createHash('sha256').update(`${accountId}|${identity}|${occurrence}`, 'utf8').digest('hex').slice(0, 20);
      });
    };
    const figures = ['0', '-0.0000000001', '12.5', '-12.345', '0.99999999', '900719.9254740991', '900719.9254740992', '-1234567.8912', '1000000'];
    const trades: ClosedTrade[] = figures.map((figure, index) =>
      aTrade({
        symbol: ['NVDA', 'BRK.B', 'ÇA', '漢字', 'A'.repeat(40)][index % 5],
        closeDate: `2025-02-0${1 + (index % 3)}`,
        volume: Decimal.parse(figure).abs().add(Decimal.ONE),
        costBasis: Decimal.parse(figure),
        proceeds: Decimal.parse(figures[(index + 1) % figures.length]),
        totalProfitLoss: Decimal.parse(figure).neg(),
        side: index % 2 === 0 ? 'long' : 'short',
        source: index % 3 === 0 ? 'broker' : 'fifo',
      }),
    );
    // Identical trades (a lot sold in equal parts on one day) count their occurrences: 0, 1, 2.
    const all = [...trades, trades[2], { ...trades[2] }, trades[5]];
    expect(tradeIds(7, all)).toEqual(storedIds(7, all));
    expect(tradeIds(12_345, all)).toEqual(storedIds(12_345, all));
    // One trade's id as the occurrence-th of its kind: as the occurrence-th of a run of identical trades.
    expect(trades.map((each, index) => tradeId(7, each, index % 3))).toEqual(trades.map((each, index) => storedIds(7, Array(1 + (index % 3)).fill(each))[index % 3]));
  });

  it('counts occurrences the same when told the trades come in closing order, and refuses one that goes back a day', () => {
    const day = (date: string, profit: string) => aTrade({ symbol: 'NVDA', closeDate: date, totalProfitLoss: Decimal.parse(profit) });
    const trades = [day('2025-02-03', '1'), day('2025-02-03', '1'), day('2025-02-03', '2'), day('2025-02-04', '1'), day('2025-02-04', '1'), day('2025-02-06', '1')];
    const inOrder = new TradeIdSequence(7, true);

    expect(trades.map((each) => inOrder.next(each))).toEqual(tradeIds(7, trades));
    expect(() => inOrder.next(day('2025-02-04', '1'))).toThrow('a trade closed on 2025-02-04 came after one closed on 2025-02-06');
  });
});
