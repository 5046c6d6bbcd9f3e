import { monthOf, weekStart } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import {
  plainForm,
  readFixtureBytes,
  readFixtureJson,
  type ExpectedExample,
  type ExpectedPeriod,
  type ExpectedTrade,
} from '../testing/fixtures.js';
import type { ActionKind, BrokerTransaction } from './broker-transaction.js';
import type { MatchedTrade } from './matched-trade.js';
import { fingerprintLots, fingerprintTransactions, withLotFingerprints, withTransactionFingerprints } from './fingerprint.js';
import { matchTrades, type MatchResult } from './hybrid-matcher.js';
import { parseRealizedLotsFile, parseTransactionsFile } from './parsers/format-registry.js';
import { summariseByPeriod, summarisePeriod, summariseSymbols, type PeriodSummary } from '../testing/trade-report.js';

const expected = readFixtureJson<ExpectedExample>('schwab-example', 'expected.json');
const transactionsBytes = readFixtureBytes('schwab-example', 'transactions.csv');
const gainsBytes = readFixtureBytes('schwab-example', 'realized_gains.csv');

const transactionsFile = parseTransactionsFile('transactions.csv', transactionsBytes);
const lotsFile = parseRealizedLotsFile('realized_gains.csv', gainsBytes);
const result = matchTrades(transactionsFile.transactions, lotsFile.lots);

const MONEY = 0.01;
const SHARES = 1e-6;

function expectNear(actual: Decimal | number | null, wanted: number | null, tolerance: number, what: string): void {
  if (wanted === null || actual === null) {
    expect({ what, actual: actual === null ? null : String(actual) }).toEqual({ what, actual: wanted === null ? null : String(wanted) });
    return;
  }
  const value = typeof actual === 'number' ? actual : actual.toNumber();
  const ok = Math.abs(value - wanted) <= tolerance + 1e-9;
  expect({ what, ok, value, wanted }).toEqual({ what, ok: true, value, wanted });
}

/** Money as the API shows it: rounded once to cents. */
function cents(value: Decimal): number {
  return value.toNumber(2);
}

function tradeKey(trade: { symbol: string; side: string; buyDate?: string; sellDate?: string; buy_date?: string; sell_date?: string }): string {
  return [trade.symbol, trade.side, trade.buyDate ?? trade.buy_date, trade.sellDate ?? trade.sell_date].join('|');
}

function findTrade(trades: readonly MatchedTrade[], wanted: ExpectedTrade): MatchedTrade {
  const candidates = trades.filter(
    (trade) => tradeKey(trade) === tradeKey(wanted) && Math.abs(trade.volume.toNumber() - wanted.volume) <= SHARES,
  );
  expect({ key: tradeKey(wanted), found: candidates.length }).toEqual({ key: tradeKey(wanted), found: 1 });
  return candidates[0];
}

function expectTradeEquals(trade: MatchedTrade, wanted: ExpectedTrade): void {
  const label = `${tradeKey(wanted)} ${wanted.volume}`;
  expect({
    label,
    symbol: trade.symbol,
    side: trade.side,
    source: trade.source,
    buy_date: trade.buyDate,
    sell_date: trade.sellDate,
    close_date: trade.closeDate,
    holding_days: trade.holdingDays,
    trade_result: trade.tradeResult,
    wash_sale: trade.washSale,
    term: trade.term,
    tx_line: trade.txLine,
    lot_line: trade.lotLine,
  }).toEqual({
    label,
    symbol: wanted.symbol,
    side: wanted.side,
    source: wanted.source,
    buy_date: wanted.buy_date,
    sell_date: wanted.sell_date,
    close_date: wanted.close_date,
    holding_days: wanted.holding_days,
    trade_result: wanted.trade_result,
    wash_sale: wanted.wash_sale,
    term: wanted.term,
    tx_line: wanted.tx_line,
    lot_line: wanted.lot_line,
  });
  expectNear(trade.volume, wanted.volume, SHARES, `${label} volume`);
  for (const [field, actual] of [
    ['buy_price', trade.buyPrice],
    ['sell_price', trade.sellPrice],
    ['profit_per_share', trade.profitPerShare],
    ['return_percentage', trade.returnPercentage],
    ['buy_tx_price', trade.buyTxPrice],
    ['sell_tx_price', trade.sellTxPrice],
    ['disallowed_loss', trade.disallowedLoss],
  ] as const) {
    expectNear(actual, wanted[field], MONEY, `${label} ${field}`);
  }
  // Money is exact: rounded once to cents it equals the reference to the cent.
  expect({ label, cost_basis: cents(trade.costBasis), proceeds: cents(trade.proceeds), pnl: cents(trade.totalProfitLoss) }).toEqual({
    label,
    cost_basis: wanted.cost_basis,
    proceeds: wanted.proceeds,
    pnl: wanted.total_profit_loss,
  });
}

function periodNumbers(summary: PeriodSummary): ExpectedPeriod {
  return {
    trading_profit_loss: cents(summary.tradingProfitLoss),
    total_dividends: cents(summary.totalDividends),
    total_trades: summary.totalTrades,
    winning_trades: summary.winningTrades,
    win_rate_percentage: summary.winRate.toNumber(2),
  };
}

function withoutLines<T extends { line?: number; txLine?: number; lotLine?: number | null }>(row: T): Omit<T, 'line' | 'txLine' | 'lotLine'> {
  const { line: _line, txLine: _txLine, lotLine: _lotLine, ...rest } = row;
  return rest;
}

describe('Schwab example fixture', () => {
  describe('parsing', () => {
    it('reads every transaction row and every lot row, with their physical lines', () => {
      expect(transactionsFile.format.id).toBe('schwab-transactions');
      expect(transactionsFile.headerLine).toBe(2);
      expect(transactionsFile.transactions).toHaveLength(expected.stats.transactions_inserted);
      expect(transactionsFile.dataRows).toBe(expected.upload.transactions_processed);
      expect(transactionsFile.transactions[0].line).toBe(3);
      expect(transactionsFile.transactions.at(-1)?.line).toBe(77);

      expect(lotsFile.format.id).toBe('schwab-realized-lot-details');
      expect(lotsFile.headerLine).toBe(2);
      expect(lotsFile.lots).toHaveLength(expected.stats.realized_gains_lots);
      expect(lotsFile.lots.map((lot) => lot.line)).toEqual(Array.from({ length: 24 }, (_, index) => index + 3));
    });

    it('reads the quirks: padded actions, as-of dates, ($…) negatives, separators, empty fees', () => {
      const byLine = new Map(transactionsFile.transactions.map((tx) => [tx.line, tx]));
      const padded = byLine.get(4) as BrokerTransaction;
      expect(padded.action).toBe('Reinvest Shares');
      expect(padded.kind).toBe('buy');
      expect(JSON.parse(padded.cellsJson)[1]).toBe('Reinvest Shares     ');

      const asOf = byLine.get(9) as BrokerTransaction;
      expect([asOf.date, asOf.asOfDate, asOf.kind]).toEqual(['2024-06-24', '2024-06-21', 'sell']);
      expect(asOf.amount?.toString()).toBe('1980.66');

      const parenthesised = byLine.get(11) as BrokerTransaction;
      expect(parenthesised.amount?.toString()).toBe('-2354.94');
      expect(parenthesised.quantity?.toString()).toBe('13.5');

      const separated = byLine.get(77) as BrokerTransaction;
      expect(separated.quantity?.toString()).toBe('10153.89');
      expect(separated.fees).toBeNull();

      const fourDecimals = byLine.get(21) as BrokerTransaction;
      expect(fourDecimals.price?.toString()).toBe('180.655');

      const split = transactionsFile.transactions.find((tx) => tx.kind === 'stock_split') as BrokerTransaction;
      expect([split.symbol, split.quantity?.toString(), split.price, split.amount]).toEqual(['NVDA', '405', null, null]);

      const lot = lotsFile.lots[0];
      // Twelve written decimals are kept to Decimal.SCALE (10) places; the matcher computes returns itself.
      expect(lot.gainLossPercent?.toString()).toBe('-15.0023882376');
      expect(lot.proceeds.toString()).toBe('3594.6');
      const washSale = lotsFile.lots.find((candidate) => candidate.washSale && candidate.symbol === 'NVDA');
      expect(washSale?.disallowedLoss?.toString()).toBe('118.59');
    });

    it('classifies the rows as the reference does', () => {
      const kinds: Record<string, number> = {};
      const bucket: Record<ActionKind, string> = {
        buy: 'open_long',
        sell: 'close_long',
        sell_short: 'open_short',
        buy_to_cover: 'close_short',
        stock_split: 'split',
        reverse_split: 'split',
        dividend: 'dividend',
        other: 'other',
      };
      for (const tx of transactionsFile.transactions) {
        kinds[bucket[tx.kind]] = (kinds[bucket[tx.kind]] ?? 0) + 1;
      }
      expect(kinds).toEqual(expected._diagnostics.row_kinds);
    });
  });

  describe('hybrid matching', () => {
    it('makes exactly the expected trades', () => {
      expect(result.trades).toHaveLength(expected.trades.length);
      const keys = (trades: { symbol: string; side: string }[]): string[] => trades.map(tradeKey).sort();
      expect(keys(result.trades)).toEqual(keys(expected.trades));
    });

    it.each(expected.trades.map((trade) => [`${tradeKey(trade)} ${trade.volume}`, trade] as const))(
      'trade %s equals the reference in every field',
      (_label, wanted) => {
        expectTradeEquals(findTrade(result.trades, wanted), wanted);
      },
    );

    it('keeps exactness: profit per share × volume is the P&L, month totals are sums of trades', () => {
      for (const trade of result.trades.filter((candidate) => candidate.source === 'fifo')) {
        expect(Math.abs(trade.profitPerShare.mul(trade.volume).sub(trade.totalProfitLoss).toNumber())).toBeLessThan(1e-6);
      }
      const total = Decimal.sum(result.trades.map((trade) => trade.totalProfitLoss));
      expect(cents(total)).toBe(expected._diagnostics.hybrid_total_trading_profit_loss);
    });

    it('finds every dividend, with reversals negative and the action as written', () => {
      expect(
        result.dividends.map((dividend) => ({
          transaction_date: dividend.transactionDate,
          symbol: dividend.symbol,
          action: dividend.action,
          amount: cents(dividend.amount),
          line: dividend.line,
        })),
      ).toEqual(expected.dividends);
    });

    it('gives the import stats and the diagnostics', () => {
      expect(result.stats.realizedGainsLots).toBe(expected.stats.realized_gains_lots);
      expect(result.stats.brokerVerifiedTrades).toBe(expected.stats.broker_verified_trades);
      expect(result.stats.closingTransactionsWithBrokerLots).toBe(expected._diagnostics.closing_txs_with_broker_lots);
      expect(result.stats.closingTransactions).toBe(
        expected._diagnostics.row_kinds.close_long + expected._diagnostics.row_kinds.close_short,
      );
      expect(result.unmatchedLots.map((lot) => lot.line)).toEqual(expected._diagnostics.unmatched_lots);
      expect(result.stats.unmatchedLots).toBe(expected._diagnostics.broker_lots_unmatched);
      const mismatch = result.warnings.filter((warning) => warning.code === 'LOTS_DO_NOT_ADD_UP');
      expect(mismatch).toHaveLength(expected._diagnostics.warnings.length);
      expect(mismatch[0].message).toMatch(/^line 23: 1 broker lot\(s\) for PEP 2024-05-28 sum to 102\.5, not 119; FIFO used$/);
      expect(result.warnings.filter((warning) => warning.code !== 'LOTS_DO_NOT_ADD_UP')).toEqual([]);
    });

    it('differs from pure FIFO exactly as the reference says', () => {
      const fifo = matchTrades(transactionsFile.transactions, lotsFile.lots, { useBrokerLots: false });
      const pure = expected._diagnostics.pure_fifo;
      expect(fifo.trades).toHaveLength(pure.trades);
      expect(fifo.trades.every((trade) => trade.source === 'fifo')).toBe(true);
      expect(cents(Decimal.sum(fifo.trades.map((trade) => trade.totalProfitLoss)))).toBe(pure.total_trading_profit_loss);
      const months = summariseByPeriod(fifo.trades, fifo.dividends, monthOf);
      expect(
        [...months].reverse().map(([month, summary]) => ({ month, total_return_with_dividends: cents(summary.totalReturnWithDividends) })),
      ).toEqual(pure.months);
      const hybridMonths = summariseByPeriod(result.trades, result.dividends, monthOf);
      const differing = [...months.keys()].filter(
        (month) => !months.get(month)?.tradingProfitLoss.eq(hybridMonths.get(month)?.tradingProfitLoss ?? Decimal.ZERO),
      );
      expect(differing).toEqual(pure.months_differing_from_hybrid);
      // A trade "as shown": identity, volume, prices to 4 places and P&L to the cent.
      const shown = (trade: MatchedTrade): string =>
        [tradeKey(trade), trade.volume, trade.buyPrice.toFixed(4), trade.sellPrice.toFixed(4), trade.totalProfitLoss.toFixed(2)].join('|');
      const fifoKeys = new Set(fifo.trades.map(shown));
      const notInFifo = result.trades.filter((trade) => !fifoKeys.has(shown(trade)));
      expect(notInFifo).toHaveLength(pure.hybrid_trades_not_in_pure_fifo);
    });

    it('knows the open positions at any date', () => {
      for (const timeframe of expected.timeframes) {
        const symbols = timeframe.params.symbols?.split(',');
        const positions = result.positions
          .openPositionsAt(timeframe.params.end)
          .filter((position) => !symbols || symbols.includes(position.symbol))
          .map((position) => ({ symbol: position.symbol, shares: position.shares.toNumber(6) }));
        expect({ name: timeframe.name, positions }).toEqual({ name: timeframe.name, positions: timeframe.data.open_positions });
      }
      const snow = result.positions;
      expect(snow.sharesAt('SNOW', '2024-03-14').toString()).toBe('-29');
      expect(snow.sharesAt('SNOW', '2024-03-13').toString()).toBe('0');
    });
  });

  describe('reports derived from the trades', () => {
    it('month summaries equal the reference to the cent', () => {
      const months = summariseByPeriod(result.trades, result.dividends, monthOf);
      for (const [month, wanted] of Object.entries(expected.month_summaries)) {
        const summary = months.get(month) as PeriodSummary;
        expect({
          month,
          total_trades: summary.totalTrades,
          winning_trades: summary.winningTrades,
          win_rate: summary.winRate.toNumber(2),
          trading_profit_loss: cents(summary.tradingProfitLoss),
          total_dividends: cents(summary.totalDividends),
          total_return_with_dividends: cents(summary.totalReturnWithDividends),
        }).toEqual(wanted);
      }
      expect([...months.keys()].reverse()).toEqual(expected.months.map((month) => month.month));
    });

    it('symbol summaries equal the reference', () => {
      const summaries = summariseSymbols(result);
      expect(summaries.map((summary) => ({ symbol: summary.symbol, company_name: summary.companyName }))).toEqual(expected.symbols);
      const asNumbers = summaries.map((summary) => ({
        symbol: summary.symbol,
        company_name: summary.companyName,
        has_trades: summary.hasTrades,
        total_trades: summary.totalTrades,
        trading_profit_loss: cents(summary.tradingProfitLoss),
        winning_trades: summary.winningTrades,
        win_rate_percentage: summary.winRatePercentage.toNumber(2),
        avg_profit_loss: cents(summary.avgProfitLoss),
        min_profit_loss: summary.minProfitLoss && cents(summary.minProfitLoss),
        max_profit_loss: summary.maxProfitLoss && cents(summary.maxProfitLoss),
        avg_return_percentage: summary.avgReturnPercentage.toNumber(2),
        min_return_pct: summary.minReturnPct?.toNumber(2) ?? null,
        max_return_pct: summary.maxReturnPct?.toNumber(2) ?? null,
        avg_holding_days: summary.avgHoldingDays.toNumber(2),
        total_volume: summary.totalVolume.toNumber(6),
        total_cost_basis: cents(summary.totalCostBasis),
        total_dividend_payments: summary.totalDividendPayments,
        total_dividends: cents(summary.totalDividends),
        avg_dividend_amount: cents(summary.avgDividendAmount),
        total_return: cents(summary.totalReturn),
        first_trade_date: summary.firstTradeDate,
        last_trade_date: summary.lastTradeDate,
        first_open_date: summary.firstOpenDate,
        first_dividend_date: summary.firstDividendDate,
        last_dividend_date: summary.lastDividendDate,
        current_shares_held: summary.currentSharesHeld.toNumber(6),
        has_open_position: summary.hasOpenPosition,
      }));
      expect(asNumbers).toEqual(expected.symbols_summary);
    });

    it.each(expected.timeframes.map((timeframe) => [timeframe.name, timeframe] as const))(
      'timeframe %s: summary, weekly and monthly lists',
      (_name, timeframe) => {
        const { start, end, symbols } = timeframe.params;
        const chosen = symbols?.split(',');
        const inRange = (date: string, symbol: string): boolean =>
          (!start || date >= start) && (!end || date <= end) && (!chosen || chosen.includes(symbol));
        const trades = result.trades.filter((trade) => inRange(trade.closeDate, trade.symbol));
        const dividends = result.dividends.filter((dividend) => inRange(dividend.transactionDate, dividend.symbol));
        expect(periodNumbers(summarisePeriod(trades, dividends))).toEqual(timeframe.data.summary);
        const weekly = [...summariseByPeriod(trades, dividends, weekStart)].reverse();
        expect(weekly.map(([week, summary]) => ({ week_start: week, period: week, ...periodNumbers(summary) }))).toEqual(
          timeframe.data.weekly_summary,
        );
        const monthly = [...summariseByPeriod(trades, dividends, monthOf)].reverse();
        expect(
          monthly.map(([month, summary]) => ({ month_start: `${month}-01`, period: month, ...periodNumbers(summary) })),
        ).toEqual(timeframe.data.monthly_summary);
      },
    );
  });

  describe('the plain form (no BOM, no title, no footer, LF)', () => {
    const plainTransactions = parseTransactionsFile('transactions.csv', plainForm(transactionsBytes));
    const plainLots = parseRealizedLotsFile('realized_gains.csv', plainForm(gainsBytes));

    it('reads the same rows one line higher', () => {
      expect(plainTransactions.headerLine).toBe(1);
      expect(plainTransactions.transactions.map((tx) => tx.line)).toEqual(transactionsFile.transactions.map((tx) => tx.line - 1));
      expect(plainTransactions.transactions.map(withoutLines)).toEqual(transactionsFile.transactions.map(withoutLines));
      expect(plainLots.lots.map(withoutLines)).toEqual(lotsFile.lots.map(withoutLines));
    });

    it('gives the same trades, dividends and positions', () => {
      const plain: MatchResult = matchTrades(plainTransactions.transactions, plainLots.lots);
      expect(plain.trades.map(withoutLines)).toEqual(result.trades.map(withoutLines));
      expect(plain.trades.map((trade) => trade.txLine)).toEqual(result.trades.map((trade) => trade.txLine - 1));
      expect(plain.dividends.map(withoutLines)).toEqual(result.dividends.map(withoutLines));
      expect(plain.positions.openPositionsAt()).toEqual(result.positions.openPositionsAt());
      expect(plain.stats).toEqual(result.stats);
    });

    it('gives the same fingerprints, so re-importing it adds nothing', () => {
      expect(fingerprintTransactions('XXXX-1234', plainTransactions.transactions)).toEqual(
        fingerprintTransactions('XXXX-1234', transactionsFile.transactions),
      );
      expect(fingerprintLots('XXXX-1234', plainLots.lots)).toEqual(fingerprintLots('XXXX-1234', lotsFile.lots));
    });
  });

  describe('fingerprints', () => {
    it('are 128-bit keys, 32 hexadecimal digits (stored as a uuid)', () => {
      for (const key of [...fingerprintTransactions('XXXX-1234', transactionsFile.transactions), ...fingerprintLots('XXXX-1234', lotsFile.lots)]) {
        expect(key).toMatch(/^[0-9a-f]{32}$/);
      }
    });

    it('stay the keys the stored rows hold (other keys would store every row of a re-import again)', () => {
      const transactions = fingerprintTransactions('XXXX-1234', transactionsFile.transactions);
      expect([transactions[0], transactions[1], transactions.at(-1)]).toEqual([
        'b955dfb20c692087f5156c282931ff0c',
        'f045c4461d3223893ac96dbd58953a52',
        'fd1093ba27f638548cec80269cafc94d',
      ]);
      const lots = fingerprintLots('XXXX-1234', lotsFile.lots);
      expect([lots[0], lots.at(-1)]).toEqual(['553843673596852df3c1b76bd19477ee', '225e1ef7b69262367dca250a9ae49d1d']);
    });

    it('are stable across re-parses, unique in the file, and differ per account', () => {
      const again = parseTransactionsFile('transactions.csv', transactionsBytes);
      const first = fingerprintTransactions('XXXX-1234', transactionsFile.transactions);
      expect(fingerprintTransactions('XXXX-1234', again.transactions)).toEqual(first);
      expect(new Set(first).size).toBe(first.length);
      const lots = fingerprintLots('XXXX-1234', lotsFile.lots);
      expect(new Set(lots).size).toBe(lots.length);
      const other = fingerprintTransactions('XXXX-9999', transactionsFile.transactions);
      expect(other.filter((key) => first.includes(key))).toEqual([]);
    });

    it('keep two identical fills of one day distinct, and an overlapping re-export adds nothing new', () => {
      const text = transactionsBytes.toString('utf8');
      const lines = text.split('\r\n');
      const buyLine = lines.findIndex((line) => line.startsWith('"06/20/2024","Buy","SNOW"'));
      const doubled = [...lines.slice(0, buyLine + 1), lines[buyLine], ...lines.slice(buyLine + 1)].join('\r\n');
      const doubledFile = parseTransactionsFile('doubled.csv', doubled);
      const keys = fingerprintTransactions('XXXX-1234', doubledFile.transactions);
      expect(new Set(keys).size).toBe(keys.length);
      const original = new Set(fingerprintTransactions('XXXX-1234', transactionsFile.transactions));
      // The second fill's key, pinned as the first's are above.
      expect(keys.filter((key) => !original.has(key))).toEqual(['b2030abef777e2355d4ab12a2d2c6bba']);

      // A later export covering the last days again: the overlapping rows have the keys stored before.
      const recent = parseTransactionsFile('recent.csv', [lines[1], ...lines.slice(2, 12)].join('\n'));
      const recentKeys = fingerprintTransactions('XXXX-1234', recent.transactions);
      expect(recentKeys.every((key) => original.has(key))).toBe(true);
    });

    it('travel onto trades and dividends', () => {
      const keyed = matchTrades(
        withTransactionFingerprints('XXXX-1234', transactionsFile.transactions),
        withLotFingerprints('XXXX-1234', lotsFile.lots),
      );
      expect(keyed.trades.every((trade) => trade.txFingerprint !== null)).toBe(true);
      expect(keyed.trades.filter((trade) => trade.lotFingerprint !== null)).toHaveLength(expected.stats.broker_verified_trades);
      expect(keyed.dividends.every((dividend) => dividend.fingerprint !== null)).toBe(true);
    });
  });
});
