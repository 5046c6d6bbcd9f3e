import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { exampleFiles, expected, ndjson, uploadForm } from './support/uploads.js';

type Session = Awaited<ReturnType<typeof signIn>>;

interface ExpectedTrade {
  symbol: string;
  side: 'long' | 'short';
  buy_date: string;
  sell_date: string;
  close_date: string;
  total_profit_loss: number;
  holding_days: number;
}

/**
 * `/api/statistics` and `/api/equity-curve` on the example files, against figures computed here,
 * independently, from the fixture's expected trades (in cents, so the sums are exact; the fixture
 * rounds each trade to the cent, hence the cent of tolerance on sums of many trades).
 */
describe('statistics and the equity curve', () => {
  let service: RunningService;
  let trader: Session;
  const trades = expected<{ trades: ExpectedTrade[] }>().trades;
  const cents = (value: number) => Math.round(value * 100);
  const sum = (list: ExpectedTrade[]) => list.reduce((total, trade) => total + cents(trade.total_profit_loss), 0) / 100;
  const near = (actual: number | null, wanted: number, tolerance = 0.011) => {
    expect(actual).not.toBeNull();
    expect(Math.abs((actual as number) - wanted)).toBeLessThanOrEqual(tolerance);
  };
  const get = async (path: string) => {
    const response = await trader.fetch(path);
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    service = await startService({ env: { AUTHORIZED_USERS: 'trader@example.com,other@example.com' } });
    trader = await signIn(service, 'trader@example.com');
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
    const lines = ndjson(await (await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) })).text());
    expect(lines.pop().type).toBe('success');
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('answers every figure of all time as computed from the expected trades', async () => {
    const { status, body } = await get('/api/statistics?all=true');
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, data_source: 'postgresql', filters: { all_time: true, side: null, symbols: null } });
    const stats = body.statistics;
    const winners = trades.filter((trade) => trade.total_profit_loss > 0);
    const losers = trades.filter((trade) => trade.total_profit_loss < 0);
    expect([stats.total_trades, stats.winning_trades, stats.losing_trades, stats.breakeven_trades]).toEqual([
      trades.length,
      winners.length,
      losers.length,
      trades.length - winners.length - losers.length,
    ]);
    near(stats.win_rate, Math.round((winners.length / trades.length) * 10000) / 100);
    near(stats.win_rate_excluding_breakeven, Math.round((winners.length / (winners.length + losers.length)) * 10000) / 100);
    near(stats.gross_profit, sum(winners));
    near(stats.gross_loss, sum(losers));
    near(stats.net_profit_loss, sum(trades));
    near(stats.profit_factor, sum(winners) / Math.abs(sum(losers)));
    near(stats.average_win, sum(winners) / winners.length);
    near(stats.average_loss, sum(losers) / losers.length);
    near(stats.payoff_ratio, sum(winners) / winners.length / Math.abs(sum(losers) / losers.length));
    near(stats.expectancy, sum(trades) / trades.length);
    const largestWin = winners.reduce((best, trade) => (trade.total_profit_loss > best.total_profit_loss ? trade : best));
    expect(stats.largest_win).toMatchObject({ symbol: largestWin.symbol, close_date: largestWin.close_date, total_profit_loss: largestWin.total_profit_loss });
    const largestLoss = losers.reduce((worst, trade) => (trade.total_profit_loss < worst.total_profit_loss ? trade : worst));
    expect(stats.largest_loss).toMatchObject({ symbol: largestLoss.symbol, close_date: largestLoss.close_date, total_profit_loss: largestLoss.total_profit_loss });
    near(stats.average_holding_days_winners, winners.reduce((total, trade) => total + trade.holding_days, 0) / winners.length, 0.051);

    // Trading days: each close date's trades summed.
    const byDay = new Map<string, number>();
    for (const trade of trades) byDay.set(trade.close_date, (byDay.get(trade.close_date) ?? 0) + cents(trade.total_profit_loss));
    const days = [...byDay].sort(([a], [b]) => (a < b ? -1 : 1));
    expect([stats.trading_days, stats.green_days, stats.red_days]).toEqual([days.length, days.filter(([, v]) => v > 0).length, days.filter(([, v]) => v < 0).length]);
    const best = days.reduce((a, b) => (b[1] > a[1] ? b : a));
    expect(stats.best_day).toEqual({ date: best[0], profit_loss: best[1] / 100 });
    // The drawdown: cumulative P&L by day, from 0.
    let equity = 0;
    let peak = 0;
    let deepest = 0;
    for (const [, value] of days) {
      equity += value;
      peak = Math.max(peak, equity);
      deepest = Math.min(deepest, equity - peak);
    }
    near(stats.max_drawdown.amount, deepest / 100);
    // The sides add up to the whole.
    const sides = Object.fromEntries(stats.by_side.map((row: any) => [row.side, row]));
    expect(sides.long.total_trades + sides.short.total_trades).toBe(trades.length);
    near(sides.short.net_profit_loss, sum(trades.filter((trade) => trade.side === 'short')));
    expect(stats.by_weekday.slice(0, 5).map((row: any) => row.weekday)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
    expect(stats.by_holding_period.reduce((total: number, row: any) => total + row.total_trades, 0)).toBe(trades.length);
  });

  it('filters by symbol, side and range; a range without trades is not an error', async () => {
    const nvda = (await get('/api/statistics?all=true&symbol=nvda')).body.statistics;
    const expectedNvda = trades.filter((trade) => trade.symbol === 'NVDA');
    expect(nvda.total_trades).toBe(expectedNvda.length);
    near(nvda.net_profit_loss, sum(expectedNvda));

    const shorts = (await get('/api/statistics?all=true&side=short')).body;
    expect(shorts.filters.side).toBe('short');
    expect(shorts.statistics.total_trades).toBe(trades.filter((trade) => trade.side === 'short').length);
    expect(shorts.statistics.by_side.map((row: any) => row.side)).toEqual(['short']);

    const empty = (await get('/api/statistics?start_date=2020-01-01&end_date=2020-12-31')).body.statistics;
    expect(empty).toMatchObject({ total_trades: 0, win_rate: null, profit_factor: null, expectancy: null, by_side: [], by_weekday: [], max_drawdown: { amount: 0 } });

    const june = (await get('/api/statistics?start=2024-06-01&end=2024-06-30')).body.statistics;
    expect(june.total_trades).toBe(trades.filter((trade) => trade.close_date.startsWith('2024-06')).length);
  });

  it.each([
    ['/api/statistics?side=sideways&all=true', "Parameter 'side' must be long or short"],
    ['/api/statistics?start_date=2024-02-30&end_date=2024-03-01', 'Invalid date format. Use YYYY-MM-DD'],
    ['/api/statistics', 'Start date and end date are required'],
    ['/api/equity-curve?all=true&symbol=%3Cx%3E', "Invalid symbol in 'symbols': '<X>'"],
  ])('%s → 400 %s', async (path, message) => {
    expect(await get(path)).toEqual({ status: 400, body: { success: false, error: message } });
  });

  it('draws the equity curve: one point per day with a trade or a dividend, ending at the totals', async () => {
    const { status, body } = await get('/api/equity-curve?all=true');
    expect(status).toBe(200);
    const points = body.points as any[];
    const allTime = expected<any>().timeframes.find((timeframe: any) => timeframe.name === 'all_time').data.summary;
    const activeDays = new Set([...trades.map((trade) => trade.close_date), ...expected<any>().dividends.map((dividend: any) => dividend.transaction_date)]);
    expect(points.map((point) => point.date)).toEqual([...activeDays].sort());
    near(points.at(-1).cumulative_trading_profit_loss, allTime.trading_profit_loss);
    near(points.at(-1).cumulative_total_return, allTime.trading_profit_loss + allTime.total_dividends);
    expect(points.every((point) => point.drawdown <= 0)).toBe(true);
    const statistics = (await get('/api/statistics?all=true')).body.statistics;
    near(Math.min(...points.map((point) => point.drawdown)), statistics.max_drawdown.amount);
    // By side, dividends belong to no side.
    const shorts = (await get('/api/equity-curve?all=true&side=short')).body.points as any[];
    expect(shorts.every((point) => point.dividends === 0)).toBe(true);
  });

  describe('the trade list', () => {
    const sorts = ['close_date', 'open_date', 'symbol', 'profit_loss', 'return_percentage', 'holding_days', 'volume'];
    const pageThrough = async (query: string) => {
      const seen: any[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 50; page++) {
        const { status, body } = await get(`/api/trades?${query}&limit=4${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
        expect(status).toBe(200);
        seen.push(...body.trades);
        cursor = body.next_cursor;
        if (cursor === null) break;
      }
      return seen;
    };

    it('pages through every trade exactly once, in every sort and order', async () => {
      for (const sort of sorts) {
        for (const order of ['asc', 'desc']) {
          const listed = await pageThrough(`sort=${sort}&order=${order}`);
          expect(listed).toHaveLength(trades.length);
          expect(new Set(listed.map((trade) => trade.id)).size).toBe(trades.length);
          const key = ({ profit_loss: 'total_profit_loss', return_percentage: 'return_percentage' } as Record<string, string>)[sort] ?? sort;
          const values = listed.map((trade) => trade[key]);
          const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(values).toEqual(order === 'asc' ? sorted : sorted.reverse());
        }
      }
      // The same trades as the fixture, field by field.
      const listed = await pageThrough('sort=close_date&order=asc');
      const wanted = trades.map((trade) => `${trade.symbol}|${trade.close_date}|${trade.total_profit_loss}`).sort();
      expect(listed.map((trade) => `${trade.symbol}|${trade.close_date}|${trade.total_profit_loss}`).sort()).toEqual(wanted);
    });

    it('answers the count and summary of everything the filters select, and ids that do not depend on the sort', async () => {
      const { body } = await get('/api/trades?limit=2');
      expect(body).toMatchObject({ success: true, sort: 'close_date', order: 'desc', total_count: trades.length, data_source: 'postgresql' });
      expect(body.trades).toHaveLength(2);
      expect(body.summary.total_trades).toBe(trades.length);
      near(body.summary.net_profit_loss, sum(trades));
      near(body.summary.win_rate, Math.round((trades.filter((trade) => trade.total_profit_loss > 0).length / trades.length) * 10000) / 100);
      expect(body.trades[0]).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{20}$/), side: expect.any(String), open_date: expect.any(String), close_date: expect.any(String) });

      const shortLosers = await pageThrough('side=short&result=Loss');
      expect(shortLosers.map((trade) => trade.id).sort()).toEqual(
        (await pageThrough('sort=symbol')).filter((trade) => trade.side === 'short' && trade.trade_result === 'Loss').map((trade) => trade.id).sort(),
      );
      const nvdaLong = (await get('/api/trades?symbol=NVDA&min_holding_days=1&max_holding_days=60&sort=profit_loss&start_date=2024-01-01&end_date=2024-12-31')).body;
      const wanted = trades.filter((trade) => trade.symbol === 'NVDA' && trade.holding_days >= 1 && trade.holding_days <= 60);
      expect(nvdaLong.total_count).toBe(wanted.length);
      near(nvdaLong.summary.net_profit_loss, sum(wanted));
      expect((await get('/api/trades?start=2020-01-01&end=2020-12-31')).body).toMatchObject({ trades: [], next_cursor: null, total_count: 0, summary: { total_trades: 0, net_profit_loss: 0, win_rate: 0 } });
    });

    it.each([
      ['/api/trades?sort=pnl', "Parameter 'sort' must be one of close_date, open_date, symbol, profit_loss, return_percentage, holding_days, volume"],
      ['/api/trades?result=won', "Parameter 'result' must be one of Win, Loss, Breakeven"],
      ['/api/trades?limit=1000', "Parameter 'limit' must be a whole number from 1 to 500"],
      ['/api/trades?min_holding_days=abc', "Parameter 'min_holding_days' must be a whole number of days from 0 to 110000"],
      ['/api/trades?cursor=garbage!', "Invalid cursor: use the 'next_cursor' of a previous page with the same sort and order"],
      ['/api/trades/export.csv?source=csv', "Parameter 'source' must be one of broker, fifo"],
    ])('%s → 400 %s', async (path, message) => {
      expect(await get(path)).toEqual({ status: 400, body: { success: false, error: message } });
    });

    it('keeps every id when the same files are imported again', async () => {
      const before = (await pageThrough('sort=close_date&order=asc')).map((trade) => trade.id);
      const lines = ndjson(await (await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) })).text());
      expect(lines.pop().type).toBe('success');
      expect((await pageThrough('sort=close_date&order=asc')).map((trade) => trade.id)).toEqual(before);
    });

    it('downloads what the list shows as CSV, every page of it', async () => {
      const response = await trader.fetch('/api/trades/export.csv?side=short');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="trades-all.csv"');
      const text = await response.text();
      const shorts = trades.filter((trade) => trade.side === 'short');
      expect(text).toContain(`Trades (${shorts.length})`);
      expect(text).not.toContain('Dividends');
      expect(text.split('\r\n').filter((line) => line.includes(',short,'))).toHaveLength(shorts.length);
      const ranged = await trader.fetch('/api/trades/export.csv?start=2024-05-01&end=2024-05-31');
      expect(ranged.headers.get('content-disposition')).toBe('attachment; filename="trades-2024-05-01_2024-05-31.csv"');
    });
  });

  it('answers only the signed-in trader’s trades', async () => {
    const other = await signIn(service, 'other@example.com');
    const response = await other.fetch('/api/statistics?all=true');
    expect(((await response.json()) as any).statistics.total_trades).toBe(0);
    expect(((await (await other.fetch('/api/trades')).json()) as any)).toMatchObject({ trades: [], total_count: 0 });
    expect(await (await other.fetch('/api/trades/export.csv')).text()).toContain('Trades (0)');
  });
});
