import { Decimal, type IsoDate } from '@app/shared/domain';
import { TradeReports, type DayRange, type MonthTradesJson, type ReportScope } from '../application/trade-reports.port.js';
import { monthTradeView } from '../http/report-views.js';
import type { DayTotals } from '../domain/period-totals.js';
import { monthTradeOf, totalsOf, type OpenPosition, type DividendPayment, type ClosedTrade, type MonthTrade, type PositionChange } from '../domain/closed-trade.js';

export type { PositionChange };
import type { SymbolAccountTotals } from '../domain/symbol-summary.js';
import { aggregateTrades, type TradeAggregates } from '../domain/trade-statistics.js';
import { dateRangeOf, tradeIds, type TradeFilters, type TradeListPage, type TradeListQuery, type TradeSort } from '../domain/trade-list.js';
import { monthsWithActivity, type MonthTotals } from '../domain/timeframe.js';

interface Owned {
  userId: number;
  accountId: number;
}

const inScope = (row: Owned, scope: ReportScope): boolean => row.userId === scope.userId && (scope.accountId === null || row.accountId === scope.accountId);


/**
 * The read model in memory, computed from plain lists with the domain's own functions: what the SQL
 * adapter must agree with, and a fake for the use cases' tests.
 */
export class InMemoryTradeReports extends TradeReports {
  private trades: (ClosedTrade & Owned)[] = [];
  private dividends: (DividendPayment & Owned)[] = [];
  private positions: (PositionChange & Owned)[] = [];
  private names = new Map<string, string>();
  private accountNumbers = new Map<string, number>();

  /** Adds an account's trades after its earlier ones, each with its stable id (as the ledger stores them). */
  addTrades(userId: number, accountId: number, trades: readonly ClosedTrade[]): this {
    const earlier = this.trades.filter((trade) => trade.accountId === accountId);
    const ids = tradeIds(accountId, [...earlier, ...trades]).slice(earlier.length);
    this.trades.push(...trades.map((trade, index) => ({ ...trade, id: ids[index], userId, accountId })));
    return this;
  }

  addDividends(userId: number, accountId: number, dividends: readonly DividendPayment[]): this {
    this.dividends.push(...dividends.map((dividend) => ({ ...dividend, userId, accountId })));
    return this;
  }

  addPositions(userId: number, accountId: number, changes: readonly PositionChange[]): this {
    this.positions.push(...changes.map((change) => ({ ...change, userId, accountId })));
    return this;
  }

  /** Gives an account its number (what `accountNamed` finds). */
  nameAccount(userId: number, accountId: number, accountNumber: string): this {
    this.accountNumbers.set(`${userId}\u001f${accountNumber}`, accountId);
    return this;
  }

  async accountNamed(userId: number, accountNumber: string): Promise<number | null> {
    return this.accountNumbers.get(`${userId}\u001f${accountNumber}`) ?? null;
  }

  nameSymbol(symbol: string, companyName: string): this {
    this.names.set(symbol, companyName);
    return this;
  }

  async monthlyTotals(scope: ReportScope): Promise<MonthTotals[]> {
    return monthsWithActivity(await this.dailyTotals(scope, null, null));
  }

  async dailyTotals(scope: ReportScope, range: DayRange | null, symbols: readonly string[] | null): Promise<DayTotals[]> {
    const wanted = (date: IsoDate, symbol: string) => (range === null || (date >= range.from && date <= range.to)) && (symbols === null || symbols.includes(symbol));
    const trades = this.trades.filter((trade) => inScope(trade, scope) && wanted(trade.closeDate, trade.symbol));
    const dividends = this.dividends.filter((dividend) => inScope(dividend, scope) && wanted(dividend.transactionDate, dividend.symbol));
    const dates = [...new Set([...trades.map((trade) => trade.closeDate), ...dividends.map((dividend) => dividend.transactionDate)])].sort();
    return dates.map((date) => ({
      date,
      ...totalsOf(
        trades.filter((trade) => trade.closeDate === date),
        dividends.filter((dividend) => dividend.transactionDate === date),
      ),
    }));
  }

  async tradesClosedIn(scope: ReportScope, range: DayRange): Promise<ClosedTrade[]> {
    return this.trades
      .filter((trade) => inScope(trade, scope) && trade.closeDate >= range.from && trade.closeDate <= range.to)
      .sort((a, b) => compare(a.closeDate, b.closeDate))
      .map(unowned);
  }

  /** Serialises `monthTradeView` of each trade: what the database's text must equal (sql-trade-reports.spec). */
  async monthTradesJson(scope: ReportScope, range: DayRange): Promise<MonthTradesJson> {
    const trades: MonthTrade[] = (await this.tradesClosedIn(scope, range)).map(monthTradeOf);
    const totals = totalsOf(trades, []);
    return { json: JSON.stringify(trades.map(monthTradeView)), tradeCount: totals.tradeCount, winningTrades: totals.winningTrades, tradingProfitLoss: totals.tradingProfitLoss };
  }

  async tradeListPage(scope: ReportScope, query: TradeListQuery): Promise<TradeListPage> {
    const selected = this.selected(scope, query.filters);
    const value = (row: (typeof selected)[number]) => sortValueOf(row.trade, query.sort);
    const direction = query.order === 'asc' ? 1 : -1;
    const byPosition = (a: (typeof selected)[number], b: (typeof selected)[number]) =>
      compareSortValues(query.sort, value(a), value(b)) || a.accountId - b.accountId || a.seq - b.seq;
    const after = query.after;
    const pastCursor = (row: (typeof selected)[number]) =>
      after === null ||
      direction * (compareSortValues(query.sort, value(row), after.sortValue) || row.accountId - after.accountId || row.seq - after.seq) > 0;
    const ordered = selected.sort((a, b) => direction * byPosition(a, b)).filter(pastCursor);
    const page = ordered.slice(0, query.limit);
    const last = page.at(-1);
    return {
      trades: page.map((row) => ({ id: row.trade.id as string, trade: row.trade, accountId: row.accountId, seq: row.seq })),
      next: ordered.length > query.limit && last !== undefined ? { sortValue: value(last), accountId: last.accountId, seq: last.seq } : null,
      totalCount: selected.length,
      winningTrades: selected.filter((row) => row.trade.totalProfitLoss.isPositive()).length,
      netProfitLoss: Decimal.sum(selected.map((row) => row.trade.totalProfitLoss)),
    };
  }

  async tradesMatching(scope: ReportScope, filters: TradeFilters): Promise<ClosedTrade[]> {
    return this.selected(scope, filters)
      .sort((a, b) => compare(a.trade.closeDate, b.trade.closeDate) || a.accountId - b.accountId || a.seq - b.seq)
      .map((row) => row.trade);
  }

  async tradeAggregates(scope: ReportScope, filters: TradeFilters): Promise<TradeAggregates> {
    return aggregateTrades(await this.tradesMatching(scope, filters));
  }

  /** The user's trades `filters` select, each with its account and its place in insertion order. */
  private selected(scope: ReportScope, filters: TradeFilters) {
    const range = dateRangeOf(filters.selection);
    const symbols = filters.selection.symbols;
    return this.trades
      .map((row, seq) => ({ trade: unowned(row) as ClosedTrade, userId: row.userId, accountId: row.accountId, seq }))
      .filter(
        ({ trade, userId, accountId }) =>
          inScope({ userId, accountId }, scope) &&
          trade.closeDate >= range.from &&
          trade.closeDate <= range.to &&
          (symbols === null || symbols.includes(trade.symbol)) &&
          (filters.side === null || trade.side === filters.side) &&
          (filters.result === null || trade.tradeResult === filters.result) &&
          (filters.source === null || trade.source === filters.source) &&
          (filters.minHoldingDays === null || trade.holdingDays >= filters.minHoldingDays) &&
          (filters.maxHoldingDays === null || trade.holdingDays <= filters.maxHoldingDays) &&
          // No journal here: no trade carries a tag.
          filters.tags === null,
      );
  }

  async dividendsPaidIn(scope: ReportScope, range: DayRange): Promise<DividendPayment[]> {
    return this.dividends
      .filter((dividend) => inScope(dividend, scope) && dividend.transactionDate >= range.from && dividend.transactionDate <= range.to)
      .sort((a, b) => compare(a.transactionDate, b.transactionDate))
      .map(unowned);
  }

  async tradesOfSymbol(scope: ReportScope, symbol: string): Promise<ClosedTrade[]> {
    return this.trades
      .filter((trade) => inScope(trade, scope) && trade.symbol === symbol)
      .sort((a, b) => compare(a.closeDate, b.closeDate))
      .map(unowned);
  }

  async dividendsOfSymbol(scope: ReportScope, symbol: string): Promise<DividendPayment[]> {
    return this.dividends
      .filter((dividend) => inScope(dividend, scope) && dividend.symbol === symbol)
      .sort((a, b) => compare(a.transactionDate, b.transactionDate))
      .map(unowned);
  }

  async symbolTotals(scope: ReportScope, symbol?: string): Promise<SymbolAccountTotals[]> {
    const keys = new Map<string, { accountId: number; symbol: string }>();
    for (const row of [...this.trades, ...this.dividends.filter((dividend) => dividend.symbol !== ''), ...this.positions]) {
      if (inScope(row, scope) && (symbol === undefined || row.symbol === symbol)) keys.set(`${row.symbol}|${row.accountId}`, row);
    }
    return [...keys.values()]
      .sort((a, b) => compare(a.symbol, b.symbol) || a.accountId - b.accountId)
      .map((key) => this.totalsOf(scope, key.accountId, key.symbol));
  }

  async openPositions(scope: ReportScope, asOf: IsoDate | null, symbols: readonly string[] | null): Promise<OpenPosition[]> {
    const held = new Map<string, Decimal>();
    const accounts = new Set(this.positions.filter((change) => inScope(change, scope)).map((change) => `${change.symbol}|${change.accountId}`));
    for (const key of accounts) {
      const [symbol, accountId] = key.split('|');
      if (symbols !== null && !symbols.includes(symbol)) continue;
      held.set(symbol, (held.get(symbol) ?? Decimal.ZERO).add(this.sharesAt(scope, Number(accountId), symbol, asOf)));
    }
    return [...held]
      .filter(([, shares]) => !shares.isZero())
      .sort(([a], [b]) => compare(a, b))
      .map(([symbol, shares]) => ({ symbol, shares, costBasis: this.costAt(scope, symbol, asOf), lastPrice: null }));
  }

  /**
   * The cost open at the end of `asOf` as the database computes it, without open lots (the model keeps
   * none): the trades opened by then and closed after; null when there are none, or for now.
   */
  private costAt(scope: ReportScope, symbol: string, asOf: IsoDate | null): Decimal | null {
    if (asOf === null) return null;
    const open = this.trades.filter((t) => inScope(t, scope) && t.symbol === symbol && t.openDate <= asOf && t.closeDate > asOf);
    return open.length === 0 ? null : Decimal.sum(open.map((t) => (t.side === 'long' ? t.costBasis : t.proceeds.neg())));
  }

  private sharesAt(scope: ReportScope, accountId: number, symbol: string, asOf: IsoDate | null): Decimal {
    const changes = this.positions
      .filter((change) => inScope(change, scope) && change.accountId === accountId && change.symbol === symbol && (asOf === null || change.date <= asOf))
      .sort((a, b) => compare(a.date, b.date));
    return changes.at(-1)?.shares ?? Decimal.ZERO;
  }

  private totalsOf(scope: ReportScope, accountId: number, symbol: string): SymbolAccountTotals {
    const mine = <T extends Owned & { symbol: string }>(row: T) => inScope(row, scope) && row.accountId === accountId && row.symbol === symbol;
    const trades = this.trades.filter(mine);
    const dividends = this.dividends.filter(mine);
    const positions = this.positions.filter(mine);
    const profits = trades.map((trade) => trade.totalProfitLoss);
    const returns = trades.map((trade) => trade.returnPercentage);
    const extreme = (values: Decimal[], pick: (...all: [Decimal, ...Decimal[]]) => Decimal) =>
      values.length === 0 ? null : pick(values[0], ...values.slice(1));
    const first = (dates: IsoDate[]) => (dates.length === 0 ? null : [...dates].sort()[0]);
    const last = (dates: IsoDate[]) => (dates.length === 0 ? null : [...dates].sort().at(-1) ?? null);
    const totals = totalsOf(trades, dividends);
    return {
      symbol,
      companyName: this.names.get(symbol) ?? null,
      tradeCount: totals.tradeCount,
      winningTrades: totals.winningTrades,
      tradingProfitLoss: totals.tradingProfitLoss,
      minProfitLoss: extreme(profits, Decimal.min),
      maxProfitLoss: extreme(profits, Decimal.max),
      sumReturnPercentage: Decimal.sum(returns),
      minReturnPercentage: extreme(returns, Decimal.min),
      maxReturnPercentage: extreme(returns, Decimal.max),
      sumHoldingDays: trades.reduce((sum, trade) => sum + trade.holdingDays, 0),
      totalVolume: Decimal.sum(trades.map((trade) => trade.volume)),
      totalCostBasis: Decimal.sum(trades.map((trade) => trade.costBasis)),
      firstTradeDate: first(trades.map((trade) => trade.closeDate)),
      lastTradeDate: last(trades.map((trade) => trade.closeDate)),
      firstOpenDate: first([...trades.map((trade) => trade.openDate), ...positions.map((change) => change.date)]),
      dividendCount: totals.dividendCount,
      dividends: totals.dividends,
      firstDividendDate: first(dividends.map((dividend) => dividend.transactionDate)),
      lastDividendDate: last(dividends.map((dividend) => dividend.transactionDate)),
      currentShares: this.sharesAt(scope, accountId, symbol, null),
    };
  }
}

function unowned<T extends Owned>({ userId: _userId, accountId: _accountId, ...row }: T): Omit<T, keyof Owned> {
  return row;
}

function sortValueOf(trade: ClosedTrade, sort: TradeSort): string {
  switch (sort) {
    case 'close_date':
      return trade.closeDate;
    case 'open_date':
      return trade.openDate;
    case 'symbol':
      return trade.symbol;
    case 'profit_loss':
      return trade.totalProfitLoss.toString();
    case 'return_percentage':
      return trade.returnPercentage.toString();
    case 'holding_days':
      return String(trade.holdingDays);
    case 'volume':
      return trade.volume.toString();
  }
}

function compareSortValues(sort: TradeSort, a: string, b: string): number {
  if (sort === 'close_date' || sort === 'open_date' || sort === 'symbol') return compare(a, b);
  return Decimal.parse(a).cmp(Decimal.parse(b));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A long trade with sensible defaults; money as decimal text. */
export function aTrade(overrides: Partial<ClosedTrade> & { symbol: string; closeDate: IsoDate; totalProfitLoss?: Decimal }): ClosedTrade {
  const profit = overrides.totalProfitLoss ?? Decimal.parse('10');
  const openDate = overrides.openDate ?? overrides.buyDate ?? overrides.closeDate;
  return {
    side: 'long',
    source: 'fifo',
    buyDate: openDate,
    sellDate: overrides.closeDate,
    openDate,
    volume: Decimal.parse('10'),
    buyPrice: Decimal.parse('100'),
    sellPrice: Decimal.parse('100').add(profit.div(10)),
    costBasis: Decimal.parse('1000'),
    proceeds: Decimal.parse('1000').add(profit),
    profitPerShare: profit.div(10),
    returnPercentage: profit.mulDiv(100, 1000),
    holdingDays: 0,
    tradeResult: profit.round(2).isPositive() ? 'Win' : profit.round(2).isNegative() ? 'Loss' : 'Breakeven',
    washSale: null,
    disallowedLoss: null,
    term: null,
    buyTxPrice: null,
    sellTxPrice: null,
    ...overrides,
    totalProfitLoss: profit,
  };
}

export function aDividend(symbol: string, transactionDate: IsoDate, amount: string, action = 'Cash Dividend'): DividendPayment {
  return { symbol, transactionDate, amount: Decimal.parse(amount), action };
}

