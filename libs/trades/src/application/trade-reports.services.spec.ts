import { Decimal, NotFoundError, ValidationError } from '@app/shared/domain';
import { aDividend, aTrade, InMemoryTradeReports } from '../testing/in-memory-trade-reports.js';
import { CalendarReports } from './calendar-reports.service.js';
import { MonthlyReports } from './monthly-reports.service.js';
import { SymbolReports } from './symbol-reports.service.js';
import { TimeframeReport } from './timeframe-report.service.js';
import {
  calendarMonthView,
  dayView,
  monthsView,
  monthView,
  symbolDetailView,
  symbolSummariesView,
  symbolsView,
  timeframeView,
  tradeDetailsView,
  type DividendView,
  type MonthSummaryView,
  type MonthTradeView,
} from '../http/report-views.js';

const ALICE = 1;
const BOB = 2;
const NOBODY = 3;
const d = (text: string) => Decimal.parse(text);

function reports(): InMemoryTradeReports {
  return new InMemoryTradeReports()
    .nameSymbol('AAPL', 'APPLE INC')
    .nameSymbol('KO', 'COCA COLA CO')
    .addTrades(ALICE, 10, [
      aTrade({ symbol: 'AAPL', openDate: '2024-12-02', closeDate: '2024-12-30', totalProfitLoss: d('100.005'), holdingDays: 28 }),
      aTrade({ symbol: 'AAPL', openDate: '2024-12-31', closeDate: '2025-01-02', totalProfitLoss: d('-40.004'), holdingDays: 2 }),
      aTrade({ symbol: 'MSFT', closeDate: '2025-01-31', totalProfitLoss: d('0.004') }),
    ])
    .addTrades(ALICE, 11, [aTrade({ symbol: 'AAPL', closeDate: '2025-02-03', totalProfitLoss: d('1') })])
    .addDividends(ALICE, 10, [aDividend('KO', '2025-01-15', '12.34'), aDividend('KO', '2025-03-03', '-2.34', 'Rev Cash Div')])
    .addPositions(ALICE, 10, [
      { symbol: 'AAPL', date: '2024-12-02', shares: d('10') },
      { symbol: 'AAPL', date: '2024-12-30', shares: d('0') },
      { symbol: 'AAPL', date: '2024-12-31', shares: d('10') },
      { symbol: 'AAPL', date: '2025-01-02', shares: d('5') },
      { symbol: 'TSLA', date: '2025-01-20', shares: d('-3') },
    ])
    .addPositions(ALICE, 11, [{ symbol: 'AAPL', date: '2025-01-10', shares: d('2.5') }])
    .addTrades(BOB, 20, [aTrade({ symbol: 'AAPL', closeDate: '2025-01-02', totalProfitLoss: d('-999') })])
    .addDividends(BOB, 20, [aDividend('T', '2025-01-02', '1')]);
}

/** The use cases' read models, shown as the controllers show them. */
/** Every account of the user. */
const all = (userId: number) => ({ userId, accountId: null });

/** What `/api/month/{month}` answers. */
interface MonthResponseBody {
  success: true;
  summary: MonthSummaryView;
  trades: MonthTradeView[];
  dividends: DividendView[];
  data_source: string;
}

describe('the trading reports use cases', () => {
  const data = reports();
  const monthlyReports = new MonthlyReports(data);
  const timeframeReport = new TimeframeReport(data);
  const symbolReports = new SymbolReports(data);
  const calendarReports = new CalendarReports(data);
  const monthly = {
    months: async (user: number) => monthsView(await monthlyReports.months(all(user))),
    // The month's page comes as its JSON text (the response's, envelope included).
    month: async (user: number, month: unknown) => JSON.parse(monthView(await monthlyReports.month(all(user), month)).text) as MonthResponseBody,
    tradeDetails: async (user: number, month: unknown) => tradeDetailsView(await monthlyReports.tradeDetails(all(user), month)),
  };
  const timeframe = { timeframe: async (user: number, query: Parameters<TimeframeReport['timeframe']>[1]) => timeframeView(await timeframeReport.timeframe(all(user), query)) };
  const symbols = {
    symbols: async (user: number) => symbolsView(await symbolReports.summaries(all(user))),
    summaries: async (user: number) => symbolSummariesView(await symbolReports.summaries(all(user))),
    detail: async (user: number, symbol: string) => symbolDetailView(await symbolReports.detail(all(user), symbol), new Map()),
  };
  const calendar = {
    month: async (user: number, year: number, month: number) => calendarMonthView(await calendarReports.month(all(user), year, month)),
    day: async (user: number, date: unknown) => dayView(await calendarReports.day(all(user), date), new Map()),
  };

  describe('months', () => {
    it('lists months with trades or dividends, newest first, rounded once at the edge', async () => {
      const { months } = await monthly.months(ALICE);
      expect(months.map((month) => [month.month, month.total_return_with_dividends])).toEqual([
        ['2025-03', -2.34],
        ['2025-02', 1],
        ['2025-01', -27.66],
        ['2024-12', 100.01],
      ]);
      // -40.004 + 0.004 + 12.34: the exact sum, not a sum of rounded figures.
      expect(months[2]).toMatchObject({ trading_profit_loss: -40, total_trades: 2, winning_trades: 0, win_rate: 0, total_dividends: 12.34 });
    });

    it('a month: its summary, trades by closing date and dividends; Breakeven is not a win', async () => {
      const month = await monthly.month(ALICE, '2025-01');
      expect(month.summary).toEqual({
        month: '2025-01',
        total_trades: 2,
        winning_trades: 0,
        win_rate: 0,
        trading_profit_loss: -40,
        total_dividends: 12.34,
        total_return_with_dividends: -27.66,
        dividend_count: 1,
      });
      expect(month.trades.map((trade) => [trade.symbol, trade.close_date, trade.trade_result])).toEqual([
        ['AAPL', '2025-01-02', 'Loss'],
        ['MSFT', '2025-01-31', 'Breakeven'],
      ]);
      expect(month.dividends).toEqual([{ transaction_date: '2025-01-15', symbol: 'KO', action: 'Cash Dividend', amount: 12.34 }]);
    });

    it('a month lists its trades with the fields a listing shows; trade details carry every field', async () => {
      const listed = (await monthly.month(ALICE, '2025-01')).trades[0];
      const detailed = (await monthly.tradeDetails(ALICE, '2025-01')).trades[0];
      expect(Object.keys(listed).sort()).toEqual(
        ['symbol', 'side', 'source', 'buy_date', 'sell_date', 'close_date', 'buy_price', 'sell_price', 'volume', 'total_profit_loss', 'return_percentage', 'trade_result', 'holding_days', 'wash_sale'].sort(),
      );
      expect(detailed).toMatchObject(listed);
      expect(Object.keys(detailed)).toEqual(expect.arrayContaining(['profit_per_share', 'cost_basis', 'proceeds', 'open_date', 'term', 'disallowed_loss', 'buy_tx_price', 'sell_tx_price']));
    });

    it('an empty month is zeros; a bad month is a ValidationError', async () => {
      expect(await monthly.month(ALICE, '2023-07')).toMatchObject({ summary: { total_trades: 0, win_rate: 0, total_return_with_dividends: 0 }, trades: [], dividends: [] });
      await expect(monthly.month(ALICE, '2025-13')).rejects.toThrow(ValidationError);
      await expect(monthly.tradeDetails(ALICE, '2025/01')).rejects.toThrow("Invalid month format: '2025/01'. Use YYYY-MM");
    });
  });

  describe('timeframe', () => {
    it('all time: weeks (Monday) and months newest first, positions now across accounts', async () => {
      const { data: result } = await timeframe.timeframe(ALICE, { all: 'true' });
      expect(result.summary).toMatchObject({ total_trades: 4, winning_trades: 2, win_rate_percentage: 50, total_dividends: 10, dividend_count: 2 });
      expect(result.weekly_summary.map((week) => week.week_start)).toEqual(['2025-03-03', '2025-02-03', '2025-01-27', '2025-01-13', '2024-12-30']);
      expect(result.weekly_summary.at(-1)).toMatchObject({ period: '2024-12-30', total_trades: 2, trading_profit_loss: 60 });
      expect(result.monthly_summary.map((month) => [month.month_start, month.period])).toEqual([
        ['2025-03-01', '2025-03'],
        ['2025-02-01', '2025-02'],
        ['2025-01-01', '2025-01'],
        ['2024-12-01', '2024-12'],
      ]);
      // In memory there are no open lots and no prices: shares only.
      const unvalued = { cost_basis: null, last_price: null, market_value: null, unrealized_profit_loss: null };
      expect(result.open_positions).toEqual([
        { symbol: 'AAPL', shares: 7.5, ...unvalued },
        { symbol: 'TSLA', shares: -3, ...unvalued },
      ]);
      expect(result).toMatchObject({ all_time: true, start_date: '2024-12-30', end_date: '2025-03-03', symbols: null });
    });

    it('a range with a symbols filter applies it to trades, dividends and positions', async () => {
      const { data: result } = await timeframe.timeframe(ALICE, { start: '2024-12-01', end: '2024-12-31', symbols: 'aapl,ko' });
      expect(result.summary).toMatchObject({ total_trades: 1, trading_profit_loss: 100.01, total_dividends: 0 });
      expect(result.open_positions).toMatchObject([{ symbol: 'AAPL', shares: 10 }]);
      const dividendsOnly = await timeframe.timeframe(ALICE, { start: '2025-01-01', end: '2025-01-31', symbols: 'KO' });
      expect(dividendsOnly.data.weekly_summary).toEqual([expect.objectContaining({ week_start: '2025-01-13', total_trades: 0, total_dividends: 12.34 })]);
      expect(dividendsOnly.data.open_positions).toEqual([]);
    });

    it('refuses a missing or inverted range', async () => {
      await expect(timeframe.timeframe(ALICE, {})).rejects.toThrow('Start date and end date are required');
      await expect(timeframe.timeframe(ALICE, { start: '2025-02-01', end: '2025-01-01' })).rejects.toThrow(ValidationError);
    });
  });

  describe('symbols', () => {
    it('summaries combine accounts; a symbol with only dividends or only a position is listed', async () => {
      const { symbols: list } = await symbols.symbols(ALICE);
      expect(list).toEqual([
        { symbol: 'AAPL', company_name: 'APPLE INC' },
        { symbol: 'KO', company_name: 'COCA COLA CO' },
        { symbol: 'MSFT', company_name: '' },
        { symbol: 'TSLA', company_name: '' },
      ]);
      const { symbols: summaries } = await symbols.summaries(ALICE);
      expect(summaries[0]).toMatchObject({
        symbol: 'AAPL',
        total_trades: 3,
        winning_trades: 2,
        win_rate_percentage: 66.67,
        trading_profit_loss: 61,
        avg_holding_days: 10,
        current_shares_held: 7.5,
        has_open_position: true,
        first_trade_date: '2024-12-30',
        last_trade_date: '2025-02-03',
        first_open_date: '2024-12-02',
      });
      expect(summaries[1]).toMatchObject({ symbol: 'KO', has_trades: false, total_trades: 0, min_profit_loss: null, total_dividends: 10, avg_dividend_amount: 5 });
      expect(summaries[3]).toMatchObject({ symbol: 'TSLA', total_trades: 0, current_shares_held: -3, has_open_position: true });
    });

    it('the detail view is case-insensitive; its figures are numbers even without trades', async () => {
      const { data: ko } = await symbols.detail(ALICE, ' ko ');
      expect(ko).toMatchObject({ symbol: 'KO', trades: [], summary: { min_profit_loss: 0, max_return_pct: 0, avg_return_pct: 0, total_dividends: 10 } });
      expect(ko.dividends).toHaveLength(2);
      await expect(symbols.detail(ALICE, 'T')).rejects.toThrow(NotFoundError);
      await expect(symbols.detail(ALICE, '')).rejects.toThrow('Symbol not found');
    });
  });

  describe('calendar', () => {
    it('a month of days, weeks across the new year', async () => {
      const { days, year, month } = await calendar.month(ALICE, 2025, 1);
      expect([year, month, days.length]).toEqual([2025, 1, 31]);
      expect(days[0]).toMatchObject({ date: '2025-01-01', day_of_week: 3, has_activity: false, week_start: '2024-12-30', week_trade_count: 2, week_total_pnl: 60 });
      expect(days[1]).toMatchObject({ date: '2025-01-02', trade_count: 1, trading_pnl: -40, total_pnl: -40, has_activity: true });
      expect(days[14]).toMatchObject({ date: '2025-01-15', trade_count: 0, dividend_count: 1, dividends: 12.34, total_pnl: 12.34, has_activity: true });
    });

    it('a day: its trades, dividends and summary', async () => {
      const day = await calendar.day(ALICE, '2025-01-02');
      expect(day.summary).toEqual({
        date: '2025-01-02',
        total_trading_pnl: -40,
        total_dividends: 0,
        total_pnl: -40,
        trade_count: 1,
        dividend_count: 0,
        winning_trades: 0,
        win_rate: 0,
      });
      await expect(calendar.day(ALICE, '2025-02-30')).rejects.toThrow('Invalid date format. Use YYYY-MM-DD');
    });
  });

  describe('users', () => {
    it('each user sees only their own numbers', async () => {
      expect((await monthly.months(BOB)).months).toEqual([expect.objectContaining({ month: '2025-01', trading_profit_loss: -999, total_dividends: 1 })]);
      expect((await calendar.day(BOB, '2025-01-02')).summary.total_trading_pnl).toBe(-999);
      expect((await calendar.day(ALICE, '2025-01-02')).summary.total_trading_pnl).toBe(-40);
      await expect(symbols.detail(BOB, 'KO')).rejects.toThrow(NotFoundError);
    });

    it('a user with no data gets empty lists and zeros', async () => {
      expect(await monthly.months(NOBODY)).toEqual({ months: [] });
      expect(await symbols.symbols(NOBODY)).toEqual({ symbols: [] });
      expect(await symbols.summaries(NOBODY)).toEqual({ symbols: [] });
      const all = await timeframe.timeframe(NOBODY, { all: 'true' });
      expect(all.data).toMatchObject({ weekly_summary: [], monthly_summary: [], open_positions: [], start_date: null, end_date: null });
      expect(all.data.summary).toEqual({ trading_profit_loss: 0, total_dividends: 0, total_trades: 0, winning_trades: 0, win_rate_percentage: 0, dividend_count: 0, total_return: 0 });
      const days = (await calendar.month(NOBODY, 2024, 2)).days;
      expect(days).toHaveLength(29);
      expect(days.some((day) => day.has_activity)).toBe(false);
    });
  });
});
