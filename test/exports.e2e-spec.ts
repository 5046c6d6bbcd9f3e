import { csvBlock, csvRows, pdfText, sheetCells, workbook } from '../libs/export/src/testing/read-back.js';
import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';

type Session = Awaited<ReturnType<typeof signIn>>;

const money = (value: number) => value.toFixed(2);

describe('exports: a day or a month as CSV, Excel and PDF', () => {
  let service: RunningService;
  let trader: Session;
  let stranger: Session;

  async function withAccount(email: string, account: string): Promise<Session> {
    const session = await signIn(service, email);
    expect((await session.json('PUT', '/auth/profile', { brokerage_account: account })).status).toBe(200);
    return session;
  }

  beforeAll(async () => {
    service = await startService({ env: { AUTHORIZED_USERS: 'trader@example.com,stranger@example.com' } });
    trader = await withAccount('trader@example.com', 'XXXX-1234');
    const lines = ndjson(await (await trader.fetch('/api/upload-csv', { method: 'POST', body: uploadForm(exampleFiles()) })).text());
    expect(lines.at(-1)).toMatchObject({ type: 'success' });
    stranger = await withAccount('stranger@example.com', 'YYYY-0002');
    // The stranger's dividend has an Action that would run as a formula in a spreadsheet (a symbol
    // cannot: the import takes only tickers as trade symbols).
    const header = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
    const transactions =
      `${header}\n"05/10/2024","=2+3 Cash Dividend","ZZZ","@SUM(A1:A9)","","","","$1.00"\n` +
      `"05/09/2024","Sell","ZZZ","@SUM(A1:A9)","1","$12.00","","$12.00"\n"05/08/2024","Buy","ZZZ","@SUM(A1:A9)","1","$10.00","","-$10.00"\n`;
    const strangerUpload = await stranger.fetch('/api/upload-csv', {
      method: 'POST',
      body: uploadForm({ transaction_history_file: { name: 't.csv', content: transactions }, realized_gains_file: exampleFiles().realized_gains_file }),
    });
    const strangerResult = ndjson(await strangerUpload.text()).at(-1);
    expect(strangerResult).toMatchObject({ type: 'success' });
  });
  afterAll(async () => {
    await service?.stop();
  });

  const json = async (session: Session, path: string) => (await (await session.fetch(path)).json()) as any;
  const download = async (session: Session, path: string) => {
    const response = await session.fetch(path);
    return { response, content: Buffer.from(await response.arrayBuffer()) };
  };

  describe.each([
    ['day', '/api/calendar/export', 'date=2024-05-08', 'trading-2024-05-08', '/api/day-details?date=2024-05-08'],
    ['month', '/api/monthly/export', 'month=2024-05', 'trading-2024-05', '/api/month/2024-05'],
  ])('the %s', (_kind, base, query, fileStem, jsonPath) => {
    let report: any;
    beforeAll(async () => {
      report = await json(trader, jsonPath);
      expect(report.trades.length).toBeGreaterThan(0);
    });

    it('as CSV: the same trades, dividends and totals as the JSON report', async () => {
      const { response, content } = await download(trader, `${base}/csv?${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${fileStem}.csv"`);
      const rows = csvRows(content);
      expect(rows[1]).toEqual(['Account', 'XXXX-1234']);
      const trades = csvBlock(rows, 'Trades (');
      expect(trades.slice(1).map((row) => [row[0], row[3], row[4], row[8]])).toEqual(
        report.trades.map((trade: any) => [trade.symbol, trade.buy_date, trade.sell_date, money(trade.total_profit_loss)]),
      );
      const dividends = csvBlock(rows, 'Dividends (');
      expect(dividends.slice(1).map((row) => [row[0], row[1], row[3]])).toEqual(
        report.dividends.map((dividend: any) => [dividend.transaction_date, dividend.symbol, money(dividend.amount)]),
      );
      const summary = Object.fromEntries(csvBlock(rows, 'Summary'));
      const pnl = report.summary.trading_profit_loss ?? report.summary.total_trading_pnl;
      expect(summary['Trading P&L']).toBe(money(pnl));
    });

    it('as Excel: typed cells on a sheet per table matching the JSON report', async () => {
      const { response, content } = await download(trader, `${base}/excel?${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${fileStem}.xlsx"`);
      const book = workbook(content);
      expect(book.SheetNames).toEqual(['Summary', 'Trades', 'Dividends']);
      const trades = sheetCells(book, 'Trades').slice(1);
      expect(trades.map((row) => [row[0].v, row[8].t, row[8].v])).toEqual(report.trades.map((trade: any) => [trade.symbol, 'n', trade.total_profit_loss]));
      expect(trades.every((row) => row[3].t === 'n' && row[3].z === 'yyyy-mm-dd')).toBe(true);
    });

    it('as PDF: every trade symbol and P&L in the text', async () => {
      const { response, content } = await download(trader, `${base}/pdf?${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${fileStem}.pdf"`);
      const { text } = await pdfText(content);
      for (const trade of report.trades) {
        expect(text).toContain(trade.symbol);
        expect(text).toContain(trade.total_profit_loss.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
      }
      expect(text).toMatch(/Page 1 of \d+/);
    });
  });

  it('PDFs one after another and two at once (render threads used again) each hold their own document', async () => {
    type Wanted = { session: Session; path: string; title: string; account: string };
    const day: Wanted = { session: trader, path: '/api/calendar/export/pdf?date=2024-05-08', title: 'Trading day 2024-05-08', account: 'Account XXXX-1234' };
    const month: Wanted = { session: trader, path: '/api/monthly/export/pdf?month=2024-05&paper=letter', title: 'Trading month 2024-05', account: 'Account XXXX-1234' };
    const theirs: Wanted = { session: stranger, path: '/api/monthly/export/pdf?month=2024-05', title: 'Trading month 2024-05', account: 'Account YYYY-0002' };
    const check = async ({ session, path, title, account }: Wanted) => {
      const { response, content } = await download(session, path);
      expect(response.status).toBe(200);
      const { text } = await pdfText(content);
      expect(text).toContain(title);
      expect(text).toContain(account);
    };
    for (const wanted of [day, month, theirs, day]) await check(wanted);
    await Promise.all([month, theirs, day].map(check));
  });

  it('a day without trades is a 404 with the contract message; so is a month without data', async () => {
    const day = await trader.fetch('/api/calendar/export/csv?date=2024-05-11');
    expect(day.status).toBe(404);
    expect(await day.json()).toEqual({ success: false, error: 'No trades found for this date' });
    const month = await trader.fetch('/api/monthly/export/pdf?month=2023-01');
    expect(month.status).toBe(404);
    expect(await month.json()).toEqual({ success: false, error: 'No trading data found for this month' });
  });

  it.each([
    ['/api/calendar/export/xml?date=2024-05-08', /Unknown export format 'xml'/],
    ['/api/calendar/export/csv', /date is required/],
    ['/api/calendar/export/csv?date=2024-13-45', /date/i],
    ['/api/monthly/export/excel', /month is required/],
    ['/api/monthly/export/excel?month=2024-5x', /month/i],
    ['/api/monthly/export/pdf?month=2024-05&paper=a3', /Unknown paper size 'a3'/],
  ])('%s is a 400 with a readable message', async (path, message) => {
    const response = await trader.fetch(path);
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body.success).toBe(false);
    expect(body.error).toMatch(message);
  });

  it("never includes another user's data, and defuses formulas taken from uploaded files", async () => {
    expect((await stranger.fetch('/api/monthly/export/csv?month=2024-06')).status).toBe(404);
    const { content } = await download(stranger, '/api/monthly/export/csv?month=2024-05');
    const rows = csvRows(content);
    const trades = csvBlock(rows, 'Trades (');
    expect(trades.slice(1).map((row) => row[0])).toEqual(['ZZZ']);
    const dividends = csvBlock(rows, 'Dividends (');
    expect(dividends.slice(1).map((row) => row[2])).toEqual(["'=2+3 Cash Dividend"]);
    expect(rows[1]).toEqual(['Account', 'YYYY-0002']);
    expect(content.toString('utf8')).not.toContain('NVDA');
    const book = workbook((await download(stranger, '/api/monthly/export/excel?month=2024-05')).content);
    expect(sheetCells(book, 'Dividends')[1][2]).toMatchObject({ t: 's', v: "'=2+3 Cash Dividend" });
  });

  it('requires a session', async () => {
    expect((await fetch(`${service.url}/api/calendar/export/csv?date=2024-05-08`)).status).toBe(401);
  });
});
