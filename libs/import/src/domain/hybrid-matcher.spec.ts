import { Decimal } from '@app/shared/domain';
import { brokerLot, TransactionsBuilder } from '../testing/transaction-builders.js';
import type { MatchedTrade } from './matched-trade.js';
import { matchTrades } from './hybrid-matcher.js';

function brief(trade: MatchedTrade): Record<string, unknown> {
  return {
    source: trade.source,
    side: trade.side,
    buy: trade.buyDate,
    sell: trade.sellDate,
    volume: trade.volume.toString(),
    cost: trade.costBasis.toString(),
    proceeds: trade.proceeds.toString(),
    pnl: trade.totalProfitLoss.toString(),
  };
}

describe('matchTrades', () => {
  describe('FIFO', () => {
    it('matches oldest lots first with fees pro rata, and cost shares add up exactly', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '15', '12', '179.7', '0.3')
        .add('2024-03-02', 'Buy', 'ABC', '10', '11', '-111', '1')
        .add('2024-03-01', 'Buy', 'ABC', '10', '10', '-100.99', '0.99')
        .build();
      const { trades, positions } = matchTrades(rows, []);
      expect(trades.map(brief)).toEqual([
        { source: 'fifo', side: 'long', buy: '2024-03-01', sell: '2024-03-10', volume: '10', cost: '100.99', proceeds: '119.8', pnl: '18.81' },
        { source: 'fifo', side: 'long', buy: '2024-03-02', sell: '2024-03-10', volume: '5', cost: '55.5', proceeds: '59.9', pnl: '4.4' },
      ]);
      expect(trades[1].buyPrice.toString()).toBe('11.1');
      expect(trades[1].buyTxPrice?.toString()).toBe('11');
      expect(trades[1].holdingDays).toBe(8);
      expect(positions.sharesAt('ABC').toString()).toBe('5');
    });

    it('gives the last piece the remainder so proceeds split into thirds still sum exactly', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '3', '33.3333', '100')
        .add('2024-03-03', 'Buy', 'ABC', '1', '10', '-10')
        .add('2024-03-02', 'Buy', 'ABC', '1', '10', '-10')
        .add('2024-03-01', 'Buy', 'ABC', '1', '10', '-10')
        .build();
      const { trades } = matchTrades(rows, []);
      expect(trades.map((trade) => trade.proceeds.toString())).toEqual(['33.3333333333', '33.3333333333', '33.3333333334']);
      expect(Decimal.sum(trades.map((trade) => trade.proceeds)).toString()).toBe('100');
    });

    it('computes cost from Quantity × Price ± Fees when Amount is empty', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '10', '12', undefined, '1')
        .add('2024-03-01', 'Buy', 'ABC', '10', '10', undefined, '1')
        .build();
      expect(matchTrades(rows, []).trades.map(brief)).toEqual([
        { source: 'fifo', side: 'long', buy: '2024-03-01', sell: '2024-03-10', volume: '10', cost: '101', proceeds: '119', pnl: '18' },
      ]);
    });

    it('reads a day bottom-up: a same-day round trip listed Sell above Buy is a trade', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-01', 'Sell', 'ABC', '5', '11', '55')
        .add('2024-03-01', 'Buy', 'ABC', '5', '10', '-50')
        .build();
      const { trades, warnings } = matchTrades(rows, []);
      expect(trades.map(brief)).toEqual([
        { source: 'fifo', side: 'long', buy: '2024-03-01', sell: '2024-03-01', volume: '5', cost: '50', proceeds: '55', pnl: '5' },
      ]);
      expect(trades[0].holdingDays).toBe(0);
      expect(warnings).toEqual([]);
    });

    it('reports a sell with no prior buy instead of failing, and does not invent a short', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '10', '12', '120')
        .add('2024-03-01', 'Buy', 'ABC', '4', '10', '-40')
        .build();
      const { trades, warnings, positions } = matchTrades(rows, []);
      expect(trades.map(brief)).toEqual([
        { source: 'fifo', side: 'long', buy: '2024-03-01', sell: '2024-03-10', volume: '4', cost: '40', proceeds: '48', pnl: '8' },
      ]);
      expect(warnings.map((warning) => [warning.code, warning.line])).toEqual([['CLOSE_EXCEEDS_OPEN_LOTS', 2]]);
      expect(warnings[0].message).toContain('6 shares make no trade');
      expect(positions.sharesAt('ABC').toString()).toBe('0');
    });
  });

  describe('shorts', () => {
    it('opens with Sell Short, closes with Buy to Cover, dated on the cover, open shorts negative', () => {
      const rows = new TransactionsBuilder()
        .add('2024-04-08', 'Buy to Cover', 'XYZ', '4', '90', '-360')
        .add('2024-04-01', 'Buy to Cover', 'XYZ', '6', '95', '-570')
        .add('2024-03-14', 'Sell Short', 'XYZ', '15', '100', '1499.85', '0.15')
        .build();
      const { trades, positions } = matchTrades(rows, []);
      expect(trades.map(brief)).toEqual([
        { source: 'fifo', side: 'short', buy: '2024-04-01', sell: '2024-03-14', volume: '6', cost: '570', proceeds: '599.94', pnl: '29.94' },
        { source: 'fifo', side: 'short', buy: '2024-04-08', sell: '2024-03-14', volume: '4', cost: '360', proceeds: '399.96', pnl: '39.96' },
      ]);
      expect(trades[0].closeDate).toBe('2024-04-01');
      expect(trades[0].openDate).toBe('2024-03-14');
      expect(trades[0].returnPercentage.toFixed(2)).toBe('5.25');
      expect([trades[0].buyTxPrice?.toString(), trades[0].sellTxPrice?.toString()]).toEqual(['95', '100']);
      expect(positions.sharesAt('XYZ', '2024-04-01').toString()).toBe('-9');
      expect(positions.openPositionsAt().map((position) => [position.symbol, position.shares.toString()])).toEqual([['XYZ', '-5']]);
    });

    it('uses broker lots for a Buy to Cover when they add up', () => {
      const rows = new TransactionsBuilder()
        .add('2024-04-01', 'Buy to Cover', 'XYZ', '10', '95', '-950')
        .add('2024-03-15', 'Sell Short', 'XYZ', '10', '101', '1010')
        .add('2024-03-14', 'Sell Short', 'XYZ', '10', '100', '1000')
        .build();
      const lot = brokerLot('XYZ', '2024-03-15', '2024-04-01', '10', '950', '1010');
      const { trades, positions } = matchTrades(rows, [lot]);
      expect(trades.map(brief)).toEqual([
        { source: 'broker', side: 'short', buy: '2024-04-01', sell: '2024-03-15', volume: '10', cost: '950', proceeds: '1010', pnl: '60' },
      ]);
      expect(trades[0].sellTxPrice?.toString()).toBe('101');
      expect(positions.sharesAt('XYZ').toString()).toBe('-10');
      expect(matchTrades([...rows, ...new TransactionsBuilder().add('2024-05-01', 'Buy to Cover', 'XYZ', '10', '90', '-900').build()], [lot])
        .trades.at(-1)?.sellDate).toBe('2024-03-14');
    });
  });

  describe('broker lots', () => {
    const purchases = new TransactionsBuilder()
      .add('2024-03-20', 'Sell', 'ABC', '10', '25', '250')
      .add('2024-03-10', 'Sell', 'ABC', '10', '25', '250')
      .add('2024-03-02', 'Buy', 'ABC', '10', '20', '-200')
      .add('2024-03-01', 'Buy', 'ABC', '10', '10', '-100')
      .build();

    it('take precedence over FIFO and use up the open lots they name', () => {
      const lot = brokerLot('ABC', '2024-03-02', '2024-03-10', '10', '200', '250', { washSale: true, disallowedLoss: Decimal.parse('5') });
      const { trades, stats, unmatchedLots } = matchTrades(purchases, [lot]);
      expect(trades.map(brief)).toEqual([
        { source: 'broker', side: 'long', buy: '2024-03-02', sell: '2024-03-10', volume: '10', cost: '200', proceeds: '250', pnl: '50' },
        // The later FIFO sell sees what the broker left: the 03/01 lot.
        { source: 'fifo', side: 'long', buy: '2024-03-01', sell: '2024-03-20', volume: '10', cost: '100', proceeds: '250', pnl: '150' },
      ]);
      expect([trades[0].washSale, trades[0].disallowedLoss?.toString(), trades[0].term, trades[0].lotLine]).toEqual([
        true,
        '5',
        'Short Term',
        lot.line,
      ]);
      expect([trades[1].washSale, trades[1].term, trades[1].lotLine]).toEqual([null, null, null]);
      expect(stats).toMatchObject({ realizedGainsLots: 1, brokerVerifiedTrades: 1, fifoTrades: 1, closingTransactionsWithBrokerLots: 1 });
      expect(unmatchedLots).toEqual([]);
    });

    it('share one day’s lots among several sells so each is met exactly', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '15', '25', '375')
        .add('2024-03-10', 'Sell', 'ABC', '5', '25', '125')
        .add('2024-03-03', 'Buy', 'ABC', '5', '30', '-150')
        .add('2024-03-02', 'Buy', 'ABC', '5', '20', '-100')
        .add('2024-03-01', 'Buy', 'ABC', '10', '10', '-100')
        .build();
      const lots = [
        brokerLot('ABC', '2024-03-03', '2024-03-10', '5', '150', '125'),
        brokerLot('ABC', '2024-03-02', '2024-03-10', '5', '100', '125'),
        brokerLot('ABC', '2024-03-01', '2024-03-10', '10', '100', '250'),
      ];
      const { trades, unmatchedLots, warnings } = matchTrades(rows, lots);
      expect(trades.every((trade) => trade.source === 'broker')).toBe(true);
      // The 5-share sale came first (lower in the file) and takes the first lot that meets it.
      expect(trades.map((trade) => [trade.txLine, trade.buyDate, trade.volume.toString()])).toEqual([
        [3, '2024-03-03', '5'],
        [2, '2024-03-02', '5'],
        [2, '2024-03-01', '10'],
      ]);
      expect([unmatchedLots, warnings]).toEqual([[], []]);
    });

    it('send a sale whose lots do not add up to FIFO, and leave those lots unused', () => {
      const lot = brokerLot('ABC', '2024-03-02', '2024-03-10', '7', '140', '175');
      const { trades, unmatchedLots, warnings } = matchTrades(purchases, [lot]);
      expect(trades.map((trade) => [trade.source, trade.buyDate])).toEqual([
        ['fifo', '2024-03-01'],
        ['fifo', '2024-03-02'],
      ]);
      expect(unmatchedLots).toEqual([lot]);
      expect(warnings.map((warning) => warning.message)).toEqual([
        'line 3: 1 broker lot(s) for ABC 2024-03-10 sum to 7, not 10; FIFO used',
      ]);
    });

    it('keep lots with no sale in the transactions (a later period) without making trades', () => {
      const later = brokerLot('ABC', '2024-03-01', '2024-07-01', '5', '50', '60');
      const { trades, unmatchedLots, stats } = matchTrades(purchases, [later]);
      expect(trades.every((trade) => trade.source === 'fifo')).toBe(true);
      expect(unmatchedLots).toEqual([later]);
      expect(stats.realizedGainsLots).toBe(1);
    });

    it('still make the trade when the named purchase is older than the transactions', () => {
      const old = brokerLot('ABC', '2023-12-01', '2024-03-10', '10', '80', '250');
      const { trades, warnings, positions } = matchTrades(purchases, [old]);
      expect(trades.map((trade) => [trade.source, trade.buyDate, trade.buyTxPrice])).toEqual([
        ['broker', '2023-12-01', null],
        ['fifo', '2024-03-01', Decimal.parse('10')],
      ]);
      expect(warnings.map((warning) => warning.code)).toEqual(['BROKER_LOT_NOT_OPEN']);
      expect(positions.sharesAt('ABC').toString()).toBe('10');
    });

    it('match symbols case-insensitively', () => {
      const lot = brokerLot('abc', '2024-03-02', '2024-03-10', '10', '200', '250');
      expect(matchTrades(purchases, [lot]).stats.brokerVerifiedTrades).toBe(1);
    });

    it('can be ignored for a pure FIFO comparison', () => {
      const lot = brokerLot('ABC', '2024-03-02', '2024-03-10', '10', '200', '250');
      const fifo = matchTrades(purchases, [lot], { useBrokerLots: false });
      expect(fifo.trades.map((trade) => trade.source)).toEqual(['fifo', 'fifo']);
      expect(fifo.stats.realizedGainsLots).toBe(1);
    });
  });

  describe('open lots', () => {
    it('hands them over by symbol, long then short, each side by open date, whatever order the symbols came in', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-05', 'Buy', 'AAA', '3', '10', '-30')
        .add('2024-03-04', 'Sell Short', 'MMM', '2', '20', '40')
        .add('2024-03-03', 'Buy', 'MMM', '4', '20', '-80')
        .add('2024-03-02', 'Buy', 'AAA', '1', '10', '-10')
        .add('2024-03-01', 'Buy', 'ZZZ', '5', '30', '-150')
        .build();
      const { openLots } = matchTrades(rows, []);
      expect(openLots.map((lot) => [lot.symbol, lot.side, lot.openDate])).toEqual([
        ['AAA', 'long', '2024-03-02'],
        ['AAA', 'long', '2024-03-05'],
        ['MMM', 'long', '2024-03-03'],
        ['MMM', 'short', '2024-03-04'],
        ['ZZZ', 'long', '2024-03-01'],
      ]);
    });
  });

  describe('splits', () => {
    it('a forward split adds shares to the open lots, same total cost', () => {
      const rows = new TransactionsBuilder()
        .add('2024-06-01', 'Sell', 'NVDA', '150', '12', '1800')
        .add('2024-05-02', 'Stock Split', 'NVDA', '180')
        .add('2024-03-02', 'Buy', 'NVDA', '10', '110', '-1100')
        .add('2024-03-01', 'Buy', 'NVDA', '10', '100', '-1000')
        .build();
      const { trades, positions, openLots } = matchTrades(rows, []);
      expect(positions.sharesAt('NVDA', '2024-05-01').toString()).toBe('20');
      expect(positions.sharesAt('NVDA', '2024-05-02').toString()).toBe('200');
      expect(trades.map(brief)).toEqual([
        { source: 'fifo', side: 'long', buy: '2024-03-01', sell: '2024-06-01', volume: '100', cost: '1000', proceeds: '1200', pnl: '200' },
        { source: 'fifo', side: 'long', buy: '2024-03-02', sell: '2024-06-01', volume: '50', cost: '550', proceeds: '600', pnl: '50' },
      ]);
      expect(trades.map((trade) => trade.buyTxPrice?.toString())).toEqual(['10', '11']);
      expect(openLots.map((lot) => [lot.openDate, lot.quantity.toString(), lot.amount.toString()])).toEqual([['2024-03-02', '50', '550']]);
    });

    it('a reverse split removes shares; the two-row form nets out', () => {
      const oneRow = new TransactionsBuilder()
        .add('2024-05-02', 'Reverse Split', 'ABC', '90')
        .add('2024-03-01', 'Buy', 'ABC', '100', '1', '-100')
        .build();
      const twoRows = new TransactionsBuilder()
        .add('2024-05-02', 'Reverse Split', 'ABC', '10')
        .add('2024-05-02', 'Reverse Split', 'ABC', '-100')
        .add('2024-03-01', 'Buy', 'ABC', '100', '1', '-100')
        .build();
      for (const rows of [oneRow, twoRows]) {
        const { openLots, positions } = matchTrades(rows, []);
        expect(openLots.map((lot) => [lot.quantity.toString(), lot.amount.toString(), lot.txPrice?.toString()])).toEqual([['10', '100', '10']]);
        expect(positions.sharesAt('ABC').toString()).toBe('10');
      }
    });

    it('a split with nothing open is reported and ignored', () => {
      const rows = new TransactionsBuilder().add('2024-05-02', 'Stock Split', 'ABC', '100').build();
      const { warnings, positions } = matchTrades(rows, []);
      expect(warnings.map((warning) => warning.code)).toEqual(['SPLIT_WITHOUT_OPEN_LOTS']);
      expect(positions.openPositionsAt()).toEqual([]);
    });
  });

  describe('dividends and other rows', () => {
    it('records dividends by Action, reversals negative; Reinvest Shares opens a lot; tax and interest are ignored', () => {
      const rows = new TransactionsBuilder()
        .add('2024-04-09', 'Reinvest Shares', 'PEP', '1.44', '179.75', '-258.84')
        .add('2024-04-09', 'Reinvest Dividend', 'PEP', undefined, undefined, '258.84')
        .add('2024-03-25', 'Foreign Tax Paid', 'NVO', undefined, undefined, '-4.33')
        .add('2024-03-25', 'Cash Dividend   ', 'NVO', undefined, undefined, '28.88')
        .add('2024-03-21', 'Bank Interest', '', undefined, undefined, '0.66')
        .add('2024-03-20', 'Rev Pr Yr Cash Div', 'NVO', undefined, undefined, '2.53')
        .add('2024-03-19', 'Short Term Cap Gain', 'VTI', undefined, undefined, '1.10')
        .add('2024-03-18', 'Non-Qualified Div', 'VTI', undefined, undefined, '3')
        .build();
      const { dividends, positions, trades } = matchTrades(rows, []);
      expect(dividends.map((dividend) => [dividend.transactionDate, dividend.symbol, dividend.action, dividend.amount.toString()])).toEqual([
        ['2024-03-18', 'VTI', 'Non-Qualified Div', '3'],
        ['2024-03-19', 'VTI', 'Short Term Cap Gain', '1.1'],
        ['2024-03-20', 'NVO', 'Rev Pr Yr Cash Div', '-2.53'],
        ['2024-03-25', 'NVO', 'Cash Dividend', '28.88'],
        ['2024-04-09', 'PEP', 'Reinvest Dividend', '258.84'],
      ]);
      expect(positions.sharesAt('PEP').toString()).toBe('1.44');
      expect(trades).toEqual([]);
    });
  });

  describe('purity', () => {
    it('depends only on the rows, not on their order in the input, and does not change them', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '15', '12', '180')
        .add('2024-03-02', 'Buy', 'ABC', '10', '11', '-110')
        .add('2024-03-01', 'Buy', 'ABC', '10', '10', '-100')
        .add('2024-03-01', 'Cash Dividend', 'ABC', undefined, undefined, '1')
        .build();
      const frozen = JSON.stringify(rows);
      const first = matchTrades(rows, []);
      const shuffled = matchTrades([rows[2], rows[0], rows[3], rows[1]], []);
      expect(JSON.stringify(rows)).toBe(frozen);
      expect(shuffled.trades).toEqual(first.trades);
      expect(shuffled.dividends).toEqual(first.dividends);
      expect(matchTrades(rows, []).trades).toEqual(first.trades);
    });

    it('gives the same result in slices, pausing between them', async () => {
      const builder = new TransactionsBuilder();
      for (let day = 1; day <= 28; day += 1) {
        const date = `2024-02-${String(day).padStart(2, '0')}`;
        builder.add(date, 'Buy', 'ABC', '10', '10', '-100').add(date, 'Buy', 'XYZ', '4', '25', '-100');
        if (day % 3 === 0) builder.add(date, 'Sell', 'ABC', '12', '11', '132').add(date, 'Cash Dividend', 'XYZ', undefined, undefined, '0.5');
      }
      const rows = builder.build();
      const lots = [brokerLot('ABC', '2024-02-02', '2024-02-03', '12', '120', '132')];
      let pauses = 0;
      const sliced = await matchTrades(rows, lots, { pause: async () => void (pauses += 1), sliceSize: 7 });
      // A pause between every 7 rows gone through three times (made ready, their sales found, applied;
      // these rows, not in time order, are sorted at once), one after 7 of the 9 sales whose broker lots
      // are shared out, and one every 7 of the lots, trades and open lots the result goes through.
      const sales = rows.filter((row) => row.action === 'Sell').length;
      expect(sales).toBe(9);
      expect(sliced.openLots.length).toBeGreaterThan(28);
      const counted = lots.length + sliced.trades.length + sliced.openLots.length;
      expect(pauses).toBe(3 * Math.floor((rows.length - 1) / 7) + Math.floor(sales / 7) + Math.floor(counted / 7));
      expect(sliced).toEqual(matchTrades(rows, lots));
      // Matching lets go of each row it has applied, in arrays of its own: the ones given are as they were.
      expect(rows.every((row) => row !== undefined) && lots.every((lot) => lot !== undefined)).toBe(true);
      expect([rows.length, lots.length]).toEqual([builder.build().length, 1]);
    });

    it('hands the trades made over at each stop, in their final order, and lets go of them', async () => {
      const builder = new TransactionsBuilder();
      for (let day = 1; day <= 28; day += 1) {
        const date = `2024-02-${String(day).padStart(2, '0')}`;
        builder.add(date, 'Buy', 'ABC', '10', '10', '-100');
        if (day % 2 === 0) builder.add(date, 'Sell', 'ABC', '15', '11', '165');
      }
      const rows = builder.build();
      const whole = matchTrades(rows, []);
      const handed: (readonly unknown[])[] = [];
      let pauses = 0;
      const result = await matchTrades(rows, [], {
        pause: async () => void (pauses += 1),
        sliceSize: 5,
        tradesMade: (trades) => handed.push(trades),
      });
      // Handed before stops of the matching itself (after every 5 rows applied) when it made any, and at its end.
      expect(handed.length).toBeGreaterThan(3);
      expect(handed.length).toBeLessThanOrEqual(Math.floor((rows.length - 1) / 5) + 1);
      expect(handed.every((batch) => batch.length > 0)).toBe(true);
      expect(handed.flat()).toEqual(whole.trades);
      expect(result.trades).toEqual([]);
      expect(result.stats).toEqual(whole.stats);
      expect({ ...result, trades: whole.trades }).toEqual(whole);
      expect(pauses).toBeGreaterThan(0);
    });

    it('counts the broker trades it handed over', async () => {
      const transactions = new TransactionsBuilder()
        .add('2024-03-01', 'Buy', 'ABC', '10', '10', '-100')
        .add('2024-03-02', 'Buy', 'ABC', '10', '12', '-120')
        .add('2024-03-05', 'Sell', 'ABC', '10', '15', '150')
        .add('2024-03-06', 'Sell', 'ABC', '10', '15', '150')
        .build();
      const lots = [brokerLot('ABC', '2024-03-02', '2024-03-05', '10', '120', '150')];
      const whole = matchTrades(transactions, lots);
      const handed: unknown[] = [];
      const result = await matchTrades(transactions, lots, { pause: async () => undefined, sliceSize: 1, tradesMade: (trades) => handed.push(...trades) });
      expect(whole.stats).toMatchObject({ brokerVerifiedTrades: 1, fifoTrades: 1 });
      expect(result.stats).toEqual(whole.stats);
      expect(handed).toEqual(whole.trades);
    });

    it('calls a trade shown as 0.00 Breakeven', () => {
      const rows = new TransactionsBuilder()
        .add('2024-03-10', 'Sell', 'ABC', '3', '1', '10.001')
        .add('2024-03-01', 'Buy', 'ABC', '3', '1', '-10')
        .build();
      expect(matchTrades(rows, []).trades[0].tradeResult).toBe('Breakeven');
    });
  });
});
