import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { byTradeKey, expectMatches, getJson, shownDividend, shownTrade } from './support/report-expectations.js';
import { exampleFiles, expected, ndjson, uploadForm, type UploadPart } from './support/uploads.js';

/**
 * The trading reports end to end: the Schwab example imported through the real upload endpoint,
 * then every report compared with `expected.json` (tolerance 0.01); a second user with other data,
 * a user with none, input errors, and a re-import that changes nothing.
 */
const EXPECTED = expected();
const TRADES: any[] = EXPECTED.trades.map(shownTrade);
const DIVIDENDS: any[] = EXPECTED.dividends.map(shownDividend);
const MONTHS: string[] = EXPECTED.months.map((month: { month: string }) => month.month);

const TRADER = 'trader@example.com';
const OTHER = 'other@example.com';
const NOBODY = 'nobody@example.com';

/** A small second data set: one AAPL round trip over the new year, one KO dividend (a symbol with only dividends). */
const OTHER_TRANSACTIONS = [
  '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
  '"01/15/2025","Cash Dividend","KO","COCA COLA CO","","","","$12.34"',
  '"01/03/2025","Sell","AAPL","APPLE INC","10","$190.00","$0.50","$1,899.50"',
  '"12/30/2024","Buy","AAPL","APPLE INC","10","$180.00","","-$1,800.00"',
  '',
].join('\n');
/** Added later: a losing MSFT round trip in February. */
const OTHER_MORE_TRANSACTIONS = [
  '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
  '"02/12/2025","Sell","MSFT","MICROSOFT CORP","5","$390.00","","$1,950.00"',
  '"02/10/2025","Buy","MSFT","MICROSOFT CORP","5","$400.00","","-$2,000.00"',
  '',
].join('\n');
/** The example's gains file with its header only (no lot closed in the period). */
const NO_LOTS = exampleFiles().realized_gains_file.content.toString('utf8').split(/\r\n/).slice(0, 2).join('\r\n') + '\r\n';

/** The fields of a trade in a month's listing (`/api/month/{month}`). */
const MONTH_TRADE_FIELDS = ['symbol', 'side', 'source', 'buy_date', 'sell_date', 'close_date', 'buy_price', 'sell_price', 'volume', 'total_profit_loss', 'return_percentage', 'trade_result', 'holding_days', 'wash_sale'];
const listedTrade = (trade: any): any => Object.fromEntries(MONTH_TRADE_FIELDS.map((field) => [field, trade[field]]));
const tradesClosedIn = (prefix: string) => TRADES.filter((trade) => trade.close_date.startsWith(prefix));
const dividendsPaidIn = (prefix: string) => DIVIDENDS.filter((dividend) => dividend.transaction_date.startsWith(prefix));

describe('trading reports', () => {
  let service: RunningService;
  let trader: SignedIn;
  let other: SignedIn;
  let nobody: SignedIn;

  async function withAccount(email: string, account: string): Promise<SignedIn> {
    const session = await signIn(service, email);
    expect((await session.json('PUT', '/auth/profile', { brokerage_account: account })).status).toBe(200);
    return session;
  }

  async function upload(session: SignedIn, files: { transaction_history_file: UploadPart; realized_gains_file: UploadPart }): Promise<void> {
    const response = await session.fetch('/api/upload-csv', { method: 'POST', body: uploadForm(files) });
    const lines = ndjson(await response.text());
    expect(lines.at(-1)).toMatchObject({ type: 'success' });
  }

  const get = (session: SignedIn, path: string) => getJson(session, path);

  /** Every report of the example, as text: identical before and after a re-import. */
  const REPORT_PATHS = [
    '/api/months',
    ...MONTHS.flatMap((month) => [`/api/month/${month}`, `/api/trade-details/${month}`]),
    ...MONTHS.map((month) => `/api/calendar-data?year=${month.slice(0, 4)}&month=${Number(month.slice(5))}`),
    '/api/symbols',
    '/api/symbols/summary',
    ...EXPECTED.symbols.map((symbol: { symbol: string }) => `/api/symbols/${symbol.symbol}`),
    ...EXPECTED.timeframes.map((timeframe: { params: Record<string, string> }) => `/api/timeframe-data?${new URLSearchParams(timeframe.params)}`),
    '/api/day-details?date=2024-05-09',
  ];

  beforeAll(async () => {
    service = await startService({ env: { AUTHORIZED_USERS: [TRADER, OTHER, NOBODY].join(',') } });
    trader = await withAccount(TRADER, 'XXXX-1234');
    other = await withAccount(OTHER, 'YYYY-5678');
    nobody = await signIn(service, NOBODY);
    await upload(trader, exampleFiles());
  });

  afterAll(async () => {
    await service?.stop();
  });

  describe('the Schwab example equals expected.json', () => {
    it('GET /api/months: months with activity, newest first', async () => {
      const { status, body } = await get(trader, '/api/months');
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, data_source: 'postgresql' });
      expectMatches(body.months, EXPECTED.months);
    });

    it.each(MONTHS)('GET /api/month/%s: summary, trades and dividends', async (month) => {
      const { status, body } = await get(trader, `/api/month/${month}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, data_source: 'postgresql' });
      expectMatches(body.summary, EXPECTED.month_summaries[month]);
      // A month lists each trade's listing fields; /api/trade-details has every field (below).
      expectMatches(byTradeKey(body.trades), byTradeKey(tradesClosedIn(month).map(listedTrade)));
      for (const trade of body.trades) expect(Object.keys(trade).sort()).toEqual([...MONTH_TRADE_FIELDS].sort());
      expectMatches(body.dividends, dividendsPaidIn(month));
    });

    it.each(MONTHS)('GET /api/trade-details/%s: every trade field, with profit_per_share', async (month) => {
      const { status, body } = await get(trader, `/api/trade-details/${month}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, month, data_source: 'postgresql' });
      expectMatches(byTradeKey(body.trades), byTradeKey(tradesClosedIn(month)));
      for (const trade of body.trades) {
        expect(Object.keys(trade)).toEqual(expect.arrayContaining(['profit_per_share', 'total_profit_loss', 'return_percentage', 'trade_result']));
        expect(trade.buy_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    });

    it('lists trades by closing date', async () => {
      const { body } = await get(trader, '/api/month/2024-05');
      const dates = body.trades.map((trade: { close_date: string }) => trade.close_date);
      expect(dates).toEqual([...dates].sort());
    });

    it('GET /api/symbols and /api/symbols/summary', async () => {
      const symbols = await get(trader, '/api/symbols');
      expect(symbols.status).toBe(200);
      expect(symbols.body.symbols).toEqual(EXPECTED.symbols);
      const summary = await get(trader, '/api/symbols/summary');
      expect(summary.status).toBe(200);
      expect(summary.body).toMatchObject({ success: true, data_source: 'postgresql' });
      expectMatches(summary.body.symbols, EXPECTED.symbols_summary);
    });

    it.each(EXPECTED.symbols_summary.map((item: { symbol: string }) => [item.symbol, item]) as [string, Record<string, any>][])(
      'GET /api/symbols/%s (asked in lower case): summary, trades, dividends',
      async (symbol: string, item: Record<string, any>) => {
        const { status, body } = await get(trader, `/api/symbols/${symbol.toLowerCase()}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ success: true, data_source: 'postgresql', data: { symbol } });
        const { symbol: _symbol, company_name: _name, has_trades: _has, avg_return_percentage, ...detail } = item;
        expectMatches(body.data.summary, { ...detail, avg_return_pct: avg_return_percentage });
        expectMatches(byTradeKey(body.data.trades), byTradeKey(TRADES.filter((trade) => trade.symbol === symbol)));
        expectMatches(body.data.dividends, DIVIDENDS.filter((dividend) => dividend.symbol === symbol));
      },
    );

    it.each(MONTHS)('GET /api/calendar-data for %s: every day, with its week', async (month) => {
      const { status, body } = await get(trader, `/api/calendar-data?year=${month.slice(0, 4)}&month=${Number(month.slice(5))}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, year: Number(month.slice(0, 4)), month: Number(month.slice(5)), data_source: 'postgresql' });
      expectMatches(body.days, EXPECTED.calendar[month]);
    });

    it('GET /api/day-details for every day with activity', async () => {
      const days = Object.values(EXPECTED.calendar as Record<string, any[]>)
        .flat()
        .filter((day) => day.has_activity);
      expect(days.length).toBeGreaterThan(10);
      for (const day of days) {
        const { status, body } = await get(trader, `/api/day-details?date=${day.date}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ success: true, date: day.date, data_source: 'postgresql' });
        expectMatches(body.summary, {
          date: day.date,
          total_trading_pnl: day.trading_pnl,
          total_dividends: day.dividends,
          total_pnl: day.total_pnl,
          trade_count: day.trade_count,
          dividend_count: day.dividend_count,
          winning_trades: day.winning_trades,
          win_rate: day.trade_count === 0 ? 0 : Math.round((day.winning_trades / day.trade_count) * 10000) / 100,
        });
        expectMatches(byTradeKey(body.trades), byTradeKey(TRADES.filter((trade) => trade.close_date === day.date)));
        expectMatches(
          body.dividends,
          DIVIDENDS.filter((dividend) => dividend.transaction_date === day.date),
        );
      }
    });

    it.each(EXPECTED.timeframes.map((timeframe: { name: string }) => [timeframe.name, timeframe]) as [string, { params: Record<string, string>; data: unknown }][])(
      'GET /api/timeframe-data (%s)',
      async (_name: string, timeframe: { params: Record<string, string>; data: unknown }) => {
        const { status, body } = await get(trader, `/api/timeframe-data?${new URLSearchParams(timeframe.params)}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ success: true, data_source: 'postgresql' });
        expectMatches(body.data, timeframe.data);
      },
    );

    it('GET /api/timeframe with start_date and end_date is the same operation', async () => {
      for (const timeframe of EXPECTED.timeframes.filter((candidate: { params: Record<string, string> }) => candidate.params.start)) {
        const { start, end, symbols } = timeframe.params;
        const query = new URLSearchParams({ start_date: start, end_date: end, ...(symbols ? { symbols } : {}) });
        const { status, body } = await get(trader, `/api/timeframe?${query}`);
        expect(status).toBe(200);
        expectMatches(body.data, timeframe.data);
      }
    });

    it('shows open positions at the end of a range (and now for all time), filtered by symbol, shorts negative', async () => {
      const march = await get(trader, '/api/timeframe-data?start=2024-03-01&end=2024-03-14&symbols=snow,NVDA');
      // Cost at the range end: SNOW's short sale of 03/14 brought in $5,135.26 (no price is cached here).
      const unpriced = { last_price: null, market_value: null, unrealized_profit_loss: null };
      expect(march.body.data.open_positions).toEqual([
        { symbol: 'NVDA', shares: expect.any(Number), cost_basis: expect.any(Number), ...unpriced },
        { symbol: 'SNOW', shares: -29, cost_basis: -5135.26, ...unpriced },
      ]);
      const allTime = await get(trader, '/api/timeframe-data?all=true&start=1999-01-01&end=1999-01-02');
      expectMatches(allTime.body.data, EXPECTED.timeframes.find((timeframe: { name: string }) => timeframe.name === 'all_time').data);
    });

    it('a month without data is 200 with zeros and empty lists', async () => {
      const { status, body } = await get(trader, '/api/month/2023-01');
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        summary: {
          month: '2023-01',
          total_trades: 0,
          winning_trades: 0,
          win_rate: 0,
          trading_profit_loss: 0,
          total_dividends: 0,
          total_return_with_dividends: 0,
          dividend_count: 0,
        },
        trades: [],
        dividends: [],
        data_source: 'postgresql',
      });
    });

    it('sends JSON, gzipped or Brotli-compressed when the client accepts it (the same document every way)', async () => {
      const raw = (encoding: string) =>
        new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          const request = httpGet(`${service.url}/api/month/2024-05`, { headers: { cookie: trader.cookie, 'accept-encoding': encoding } }, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          });
          request.on('error', reject);
        });
      const plain = await raw('identity');
      const gzipped = await raw('gzip, deflate');
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(gzipped.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', vary: 'accept-encoding' });
      expect(gzipped.body.length).toBeLessThan(plain.body.length);
      expect(JSON.parse(gunzipSync(gzipped.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
      // A browser's header: gzip until the Brotli form is made (in the background), then Brotli.
      let browser = await raw('gzip, deflate, br, zstd');
      const deadline = Date.now() + 5000;
      while (browser.headers['content-encoding'] === 'gzip' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        browser = await raw('gzip, deflate, br, zstd');
      }
      expect(browser.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'br', vary: 'accept-encoding' });
      expect(browser.body.length).toBeLessThan(gzipped.body.length);
      expect(JSON.parse(brotliDecompressSync(browser.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    });

    it('re-importing the same files leaves every report identical', async () => {
      const before = await Promise.all(REPORT_PATHS.map(async (path) => (await get(trader, path)).text));
      await upload(trader, exampleFiles());
      const after = await Promise.all(REPORT_PATHS.map(async (path) => (await get(trader, path)).text));
      expect(after).toEqual(before);
    });
  });

  describe('input errors are 400 with a message saying what is wrong', () => {
    it.each([
      ['/api/month/2024-13', "Invalid month: '2024-13'. The month must be 01 to 12"],
      ['/api/month/2024-00', "Invalid month: '2024-00'. The month must be 01 to 12"],
      ['/api/month/May-2024', "Invalid month format: 'May-2024'. Use YYYY-MM"],
      ['/api/month/2024-5', "Invalid month format: '2024-5'. Use YYYY-MM"],
      ['/api/trade-details/2024-06-01', "Invalid month format: '2024-06-01'. Use YYYY-MM"],
      ['/api/calendar-data?year=abc&month=3', "Invalid year: 'abc'. Use a four-digit year such as 2025"],
      ['/api/calendar-data?year=2024&month=13', "Invalid month: '13'. Use a month number from 1 to 12"],
      ['/api/calendar-data?year=2024&month=x', "Invalid month: 'x'. Use a month number from 1 to 12"],
      ['/api/day-details', "Parameter 'date' is required (YYYY-MM-DD)"],
      ['/api/day-details?date=2024-02-30', 'Invalid date format. Use YYYY-MM-DD'],
      ['/api/day-details?date=05/09/2024', 'Invalid date format. Use YYYY-MM-DD'],
      ['/api/timeframe-data', 'Start date and end date are required'],
      ['/api/timeframe-data?start=2024-01-01', 'Start date and end date are required'],
      ['/api/timeframe-data?all=false', 'Start date and end date are required'],
      ['/api/timeframe-data?start=2024-01-01&end=2024-13-01', 'Invalid date format. Use YYYY-MM-DD'],
      ['/api/timeframe-data?start=01/01/2024&end=2024-02-01', 'Invalid date format. Use YYYY-MM-DD'],
      ['/api/timeframe-data?start=2024-06-01&end=2024-05-01', 'Start date 2024-06-01 is after end date 2024-05-01'],
      ['/api/timeframe?start_date=2024-06-01', 'Start date and end date are required'],
      ['/api/timeframe-data?start=2024-01-01&end=2024-02-01&start=2024-01-02', "Parameter 'start' must be given once"],
    ])('GET %s', async (path, error) => {
      const { status, body } = await get(trader, path);
      expect({ status, body }).toEqual({ status: 400, body: { success: false, error } });
    });

    it('an unknown symbol is 404 Symbol not found; `summary` is the summary list', async () => {
      expect(await get(trader, '/api/symbols/AAPL')).toMatchObject({ status: 404, body: { success: false, error: 'Symbol not found' } });
      const summary = await get(trader, '/api/symbols/summary');
      expect(summary.status).toBe(200);
      expect(Array.isArray(summary.body.symbols)).toBe(true);
    });

    it.each(['/api/months', '/api/month/2024-05', '/api/calendar-data', '/api/day-details?date=2024-05-09', '/api/symbols', '/api/timeframe-data?all=true'])(
      '%s needs a session (401)',
      async (path) => {
        const response = await fetch(`${service.url}${path}`);
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ success: false, error: 'Authentication required', redirect_to_login: true });
      },
    );
  });

  describe('users', () => {
    it('a user with no data gets empty lists and zeros, never errors', async () => {
      expect((await get(nobody, '/api/months')).body).toEqual({ success: true, months: [], data_source: 'postgresql' });
      expect((await get(nobody, '/api/symbols')).body).toEqual({ success: true, symbols: [], data_source: 'postgresql' });
      expect((await get(nobody, '/api/symbols/summary')).body).toEqual({ success: true, symbols: [], data_source: 'postgresql' });
      expect((await get(nobody, '/api/trade-details/2024-05')).body).toEqual({ success: true, month: '2024-05', trades: [], data_source: 'postgresql' });
      const month = await get(nobody, '/api/month/2024-05');
      expect(month.body).toMatchObject({ summary: { total_trades: 0, total_return_with_dividends: 0 }, trades: [], dividends: [] });
      const calendar = await get(nobody, '/api/calendar-data?year=2024&month=2');
      expect(calendar.body.days).toHaveLength(29);
      expect(calendar.body.days.every((day: { has_activity: boolean; week_total_pnl: number }) => !day.has_activity && day.week_total_pnl === 0)).toBe(true);
      const day = await get(nobody, '/api/day-details?date=2024-05-09');
      expect(day.body).toMatchObject({ trades: [], dividends: [], summary: { trade_count: 0, total_pnl: 0, win_rate: 0 } });
      const timeframe = await get(nobody, '/api/timeframe-data?all=true');
      expect(timeframe.body.data).toMatchObject({
        summary: { total_trades: 0, trading_profit_loss: 0, total_dividends: 0, win_rate_percentage: 0 },
        weekly_summary: [],
        monthly_summary: [],
        open_positions: [],
      });
      expect((await get(nobody, '/api/symbols/NVDA')).status).toBe(404);
    });

    it('the calendar defaults to the current month', async () => {
      const { status, body } = await get(nobody, '/api/calendar-data');
      expect(status).toBe(200);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit' }).format(new Date());
      expect(`${body.year}-${String(body.month).padStart(2, '0')}`).toBe(today.slice(0, 7));
    });

    it('two users with different data never see each other’s numbers', async () => {
      await upload(other, { transaction_history_file: { name: 'other.csv', content: OTHER_TRANSACTIONS }, realized_gains_file: { name: 'gains.csv', content: NO_LOTS } });

      const months = await get(other, '/api/months');
      expect(months.body.months).toEqual([
        expect.objectContaining({ month: '2025-01', total_return_with_dividends: 111.84, total_trades: 1, total_dividends: 12.34 }),
      ]);
      const symbols = await get(other, '/api/symbols/summary');
      expect(symbols.body.symbols.map((item: { symbol: string }) => item.symbol)).toEqual(['AAPL', 'KO']);
      expect((await get(other, '/api/symbols/NVDA')).status).toBe(404);
      expect((await get(other, '/api/month/2024-05')).body.trades).toEqual([]);
      expect((await get(trader, '/api/symbols/AAPL')).status).toBe(404);
      expectMatches((await get(trader, '/api/months')).body.months, EXPECTED.months);
      expect((await get(trader, '/api/months')).body.months).toHaveLength(EXPECTED.months.length);
    });

    it('a symbol with only dividends: listed, no trades, numbers in the detail view', async () => {
      const summary = (await get(other, '/api/symbols/summary')).body.symbols.find((item: { symbol: string }) => item.symbol === 'KO');
      expect(summary).toMatchObject({
        symbol: 'KO',
        company_name: 'COCA COLA CO',
        has_trades: false,
        total_trades: 0,
        trading_profit_loss: 0,
        win_rate_percentage: 0,
        avg_profit_loss: 0,
        min_profit_loss: null,
        total_dividend_payments: 1,
        total_dividends: 12.34,
        total_return: 12.34,
        first_trade_date: null,
        first_dividend_date: '2025-01-15',
        current_shares_held: 0,
        has_open_position: false,
      });
      const detail = await get(other, '/api/symbols/ko');
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({
        symbol: 'KO',
        trades: [],
        dividends: [{ transaction_date: '2025-01-15', symbol: 'KO', action: 'Cash Dividend', amount: 12.34 }],
        summary: { total_trades: 0, min_profit_loss: 0, max_return_pct: 0, avg_holding_days: 0, total_dividends: 12.34, avg_dividend_amount: 12.34 },
      });
    });

    it('weeks run Monday to Sunday across the new year, in the calendar and the timeframe', async () => {
      const january = await get(other, '/api/calendar-data?year=2025&month=1');
      const first = january.body.days[0];
      expect(first).toMatchObject({ date: '2025-01-01', day: 1, day_of_week: 3, week_start: '2024-12-30', week_trade_count: 1, week_total_pnl: 99.5, trade_count: 0 });
      const december = await get(other, '/api/calendar-data?year=2024&month=12');
      expect(december.body.days.at(-1)).toMatchObject({ date: '2024-12-31', day_of_week: 2, week_start: '2024-12-30', week_trade_count: 1, week_win_rate: 100 });
      const timeframe = await get(other, '/api/timeframe-data?start=2024-12-01&end=2025-01-31');
      expect(timeframe.body.data.weekly_summary.map((week: { week_start: string }) => week.week_start)).toEqual(['2025-01-13', '2024-12-30']);
      expect(timeframe.body.data.monthly_summary.map((month: { period: string }) => month.period)).toEqual(['2025-01']);
      expect(timeframe.body.data.open_positions).toEqual([]);
      const held = await get(other, '/api/timeframe-data?start=2024-12-01&end=2025-01-02');
      // Bought 12/30 for $1,800.00 and sold after the range: its cost comes from the closed trade.
      expect(held.body.data.open_positions).toEqual([{ symbol: 'AAPL', shares: 10, cost_basis: 1800, last_price: null, market_value: null, unrealized_profit_loss: null }]);
    });

    it('a later import shows at once (no stale cached report)', async () => {
      expect((await get(other, '/api/months')).body.months).toHaveLength(1);
      await upload(other, { transaction_history_file: { name: 'more.csv', content: OTHER_MORE_TRANSACTIONS }, realized_gains_file: { name: 'gains.csv', content: NO_LOTS } });
      const months = await get(other, '/api/months');
      expect(months.body.months).toEqual([
        expect.objectContaining({ month: '2025-02', total_return_with_dividends: -50 }),
        expect.objectContaining({ month: '2025-01', total_return_with_dividends: 111.84 }),
      ]);
      expect((await get(other, '/api/symbols')).body.symbols).toEqual([
        { symbol: 'AAPL', company_name: 'APPLE INC' },
        { symbol: 'KO', company_name: 'COCA COLA CO' },
        { symbol: 'MSFT', company_name: 'MICROSOFT CORP' },
      ]);
      expectMatches((await get(trader, '/api/months')).body.months, EXPECTED.months);
    });
  });
});
