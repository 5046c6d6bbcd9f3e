import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  assertNoSeriousViolations,
  describeInChromium,
  DESKTOP,
  firstRowFields,
  NARROW_PHONE,
  screenshotBothSizes,
  settle,
  signInThroughBrowser,
  startChromiumOnService,
  type ChromiumOnService,
  type ChromiumSession,
} from './support/chromium.js';
import { expected, FIXTURES } from './support/uploads.js';

// The web app in a real browser, on the example files: sign in, import with the progress bar, then the
// pages show expected.json's numbers, pass axe-core, and are saved as screenshots at 1280 and 390 px.

const EMAIL = 'web-trader@example.com';
const E = expected();

const signedMoney = (value: number): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', signDisplay: 'exceptZero' }).format(value).replace('-', '−');
/** 2024-05-09 → "May 9, 2024", as the tables show a date. */
const longDate = (day: string): string =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
/** 2024-06 → "June 2024", as a card's title names a month. */
const longMonth = (month: string): string =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
const percent = (value: number): string => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);

/**
 * The judgement figures of some of the example's trades, computed here as the page shows them: profit
 * factor, expectancy, the deepest fall of the realized equity curve by close date, and the net P&L.
 */
function judgement(trades: any[]): { profitFactor: string; expectancy: string; maxDrawdown: string; net: string } {
  const cents = (value: number) => Math.round(value * 100);
  const gains = trades.filter((t) => t.total_profit_loss > 0).reduce((sum, t) => sum + cents(t.total_profit_loss), 0);
  const losses = trades.filter((t) => t.total_profit_loss < 0).reduce((sum, t) => sum + cents(t.total_profit_loss), 0);
  const byDay = new Map<string, number>();
  for (const t of trades) byDay.set(t.close_date, (byDay.get(t.close_date) ?? 0) + cents(t.total_profit_loss));
  let equity = 0;
  let peak = 0;
  let drawdown = 0;
  for (const [, amount] of [...byDay].sort(([a], [b]) => a.localeCompare(b))) {
    equity += amount;
    peak = Math.max(peak, equity);
    drawdown = Math.min(drawdown, equity - peak);
  }
  return {
    profitFactor: (Math.round((gains / -losses) * 100) / 100).toFixed(2),
    expectancy: signedMoney(Math.round((gains + losses) / trades.length) / 100),
    maxDrawdown: signedMoney(drawdown / 100),
    net: signedMoney((gains + losses) / 100),
  };
}

/** The value shown under a summary label (`<dt>label</dt><dd>value</dd>`), in the first stats block holding it. */
async function stat(page: Page, label: string, within = page.locator('main')): Promise<string> {
  const dd = within.locator('div.stat').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label.replace(/[&()]/g, '\\$&')}$`) }) }).first().locator('dd');
  // The value's first line (a hint such as "2 payments" may follow).
  return (await dd.innerText()).trim().split('\n')[0];
}

/**
 * What `read` gives once it gives `wanted`, or after 15 seconds: after a filter or a sort is chosen,
 * the page shows the earlier answer until the new one arrives (a busy machine may take a while).
 */
async function onceItReads(read: () => Promise<string>, wanted: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  let value = await read();
  while (value !== wanted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

describeInChromium('web app: sign-in, import, reports (Chromium)', () => {
  let web: ChromiumOnService;
  let browser: ChromiumSession;
  let page: Page;
  let base: string;
  const url = (p: string) => `${base}${p}`;

  beforeAll(async () => {
    web = await startChromiumOnService({ AUTHORIZED_USERS: EMAIL, FINNHUB_API_KEY: undefined });
    ({ browser, page, base } = web);
  });
  afterAll(async () => {
    await web?.close();
  });


  async function visit(pathname: string, ready: () => Promise<unknown>): Promise<void> {
    await page.goto(url(pathname));
    await ready();
    await settle(page);
  }

  it('sends a signed-out browser to the login page, and signs in through the built-in provider', async () => {
    await signInThroughBrowser(page, base, EMAIL);
    await page.getByText(EMAIL).waitFor();
    // A new user sees how to import, not an empty page.
    await page.getByRole('heading', { name: 'No trades yet' }).waitFor();
    expect(await page.getByRole('link', { name: 'Import your trades' }).count()).toBe(1);
    await assertNoSeriousViolations(page, 'the empty dashboard');
    await screenshotBothSizes(page, 'dashboard-empty');
  });

  it('the other pages also tell a new user what to do', async () => {
    await visit('/calendar', () => page.getByRole('heading', { name: 'Nothing to show yet' }).waitFor());
    expect(await page.getByRole('table', { name: /Days of the month/ }).count()).toBe(0);
    await visit('/symbols', () => page.getByRole('heading', { name: 'No symbols yet' }).waitFor());
    await visit('/timeframe', () => page.getByRole('heading', { name: 'No trades or dividends in this range' }).waitFor());
    await visit('/portfolio', () => page.getByText(/No holdings yet/).waitFor());
    await assertNoSeriousViolations(page, 'the empty portfolio');
  });

  it('explains that the account number is missing, saves it, then imports with a progress bar that reaches 100%', async () => {
    await visit('/import', () => page.getByRole('heading', { name: 'Upload trades' }).waitFor());
    await page.getByText('Set your account number first.').waitFor();
    expect(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    await assertNoSeriousViolations(page, 'the import page without an account');
    await screenshotBothSizes(page, 'import-no-account');

    await page.getByLabel('Account number').fill('XXXX-1234');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: your uploads go to account XXXX-1234.').waitFor();
    expect(await page.getByText('Set your account number first.').count()).toBe(0);

    await page.getByLabel('Transactions CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'transactions.csv'));
    await page.getByLabel('Realized gain/loss (lot details) CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'realized_gains.csv'));
    // Every value the progress bar shows, as the stream delivers it.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        const value = Number(bar?.getAttribute('aria-valuenow'));
        if (bar && seen[seen.length - 1] !== value) seen.push(value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Successfully processed files.').waitFor({ timeout: 60000 });

    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(seen[seen.length - 1]).toBe(100);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen.every((value) => [0, 25, 40, 60, 80, 100].includes(value))).toBe(true);
    expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    // The form is ready for the next pair of files. It is cleared once the upload's promise settles,
    // which may be a moment after the success message is shown: wait for it rather than race it.
    await page.waitForFunction(
      () => ['transactions-file', 'gains-file'].every((id) => (document.getElementById(id) as HTMLInputElement | null)?.value === ''),
      undefined,
      { timeout: 10000 },
    );
    expect(await page.getByLabel('Transactions CSV').inputValue()).toBe('');
    expect(await page.getByLabel('Realized gain/loss (lot details) CSV').inputValue()).toBe('');

    const stats = page.getByLabel('Import statistics');
    expect(await stat(page, 'New transactions', stats)).toBe(String(E.stats.transactions_inserted));
    expect(await stat(page, 'Realized-gain lots read', stats)).toBe(String(E.stats.realized_gains_lots));
    expect(await stat(page, 'Broker-verified trades', stats)).toBe(String(E.stats.broker_verified_trades));
    // The history table has the upload, newest first.
    const history = page.getByRole('region', { name: 'Earlier uploads, newest first' });
    await history.getByText('transactions.csv').waitFor();
    expect(await history.locator('tbody tr').count()).toBe(1);
    await assertNoSeriousViolations(page, 'the import page after an upload');
    await screenshotBothSizes(page, 'import-done');
  });

  it('shows a failed import with the reason', async () => {
    await visit('/import', () => page.getByRole('heading', { name: 'Upload trades' }).waitFor());
    await page.getByLabel('Transactions CSV').setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('') });
    await page.getByLabel('Realized gain/loss (lot details) CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'realized_gains.csv'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('The import failed; nothing was changed.').waitFor();
    expect(await alert.innerText()).toContain('Both files must be CSV files: notes.csv, line 1: file is empty');
    // The bar shows the failure in full, in red, not a step it stopped at.
    expect(await page.locator('.progress-fill').getAttribute('class')).toBe('progress-fill progress-failed');
    expect(await page.locator('.progress-fill').getAttribute('style')).toContain('width: 100%');
  });

  it('says "Nothing new" for an upload of files already imported', async () => {
    await visit('/import', () => page.getByRole('heading', { name: 'Upload trades' }).waitFor());
    await page.getByLabel('Transactions CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'transactions.csv'));
    await page.getByLabel('Realized gain/loss (lot details) CSV').setInputFiles(path.join(FIXTURES, 'schwab-example', 'realized_gains.csv'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Successfully processed files.').waitFor({ timeout: 60000 });
    const history = page.getByRole('region', { name: 'Earlier uploads, newest first' });
    await history.locator('tbody tr').nth(1).waitFor();
    expect(await history.locator('tbody tr').first().getByText('Nothing new').count()).toBe(1);
    expect(await history.locator('tbody tr').nth(1).getByText('Imported').count()).toBe(1);
  });

  it('the dashboard: all-time and latest month cards, the monthly chart, the months list and the market badge', async () => {
    await visit('/', () => page.getByRole('heading', { name: 'Months' }).waitFor());
    const allTime = E.timeframes.find((t: any) => t.name === 'all_time').data.summary;
    const card = page.getByRole('region', { name: 'All time' });
    await card.locator('dd').first().waitFor();
    expect(await stat(page, 'Trading P&L', card)).toBe(signedMoney(allTime.trading_profit_loss));
    expect(await stat(page, 'Dividends', card)).toBe(signedMoney(allTime.total_dividends));
    expect(await stat(page, 'Total return', card)).toBe(signedMoney(allTime.trading_profit_loss + allTime.total_dividends));
    expect(await stat(page, 'Trades', card)).toBe(String(allTime.total_trades));
    // The example's trades are all of 2024: the second card is its latest month, not an empty year to
    // date nor that year (the all-time figures again).
    const latest = E.month_summaries[E.months[0].month];
    const monthCard = page.getByRole('region', { name: `${longMonth(latest.month)} (your latest month with activity)` });
    await monthCard.locator('dd').first().waitFor();
    expect(await stat(page, 'Trading P&L', monthCard)).toBe(signedMoney(latest.trading_profit_loss));
    expect(await stat(page, 'Dividends', monthCard)).toBe(signedMoney(latest.total_dividends));
    expect(await stat(page, 'Trades', monthCard)).toBe(String(latest.total_trades));
    expect(await monthCard.getByRole('link', { name: 'Details' }).getAttribute('href')).toBe(`/month/${latest.month}`);
    const months = page.locator('.month-list li');
    expect(await months.count()).toBe(E.months.length);
    for (const [index, month] of E.months.entries()) {
      expect(await months.nth(index).locator('.pnl').innerText()).toBe(signedMoney(month.total_return_with_dividends));
    }
    await page.locator('.market').waitFor();
    expect(await page.locator('.market strong').innerText()).toMatch(/^(Market open|Pre-market|After hours|Market closed)$/);
    const judged = judgement(E.trades);
    await card.getByText('Profit factor').waitFor();
    expect(await stat(page, 'Profit factor', card)).toBe(judged.profitFactor);
    expect(await stat(page, 'Expectancy', card)).toBe(judged.expectancy);
    expect(await stat(page, 'Max drawdown', card)).toBe(judged.maxDrawdown);
    const curve = page.getByRole('region', { name: 'Equity curve' }).locator('canvas[role="img"]');
    await curve.waitFor();
    expect(await curve.getAttribute('aria-label')).toContain(`ending at ${judged.net}`);
    expect(await page.locator('canvas[role="img"]').count()).toBe(2);
    await assertNoSeriousViolations(page, 'the dashboard');
    await screenshotBothSizes(page, 'dashboard');
  });

  it('the calendar opens on the latest month with activity when the address names none', async () => {
    const latest: string = E.months[0].month;
    await visit('/calendar', () => page.getByRole('table', { name: /Days of the month/ }).waitFor());
    const [year, month] = latest.split('-').map(Number);
    const name = new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Calendar: ${name}`);
  });

  it('the calendar: each day and each week as in expected.json; a day shows its trades and downloads its export', async () => {
    const month = '2024-05';
    const days: any[] = E.calendar[month];
    await visit(`/calendar?month=${month}`, () => page.getByRole('table', { name: /Days of the month/ }).waitFor());
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Calendar: May 2024');

    for (const day of days.filter((d) => d.has_activity)) {
      const label = await page.getByRole('button', { name: new RegExp(`, May ${day.day}, 2024,`) }).locator('.visually-hidden').textContent();
      expect(label).toContain(`total ${signedMoney(day.total_pnl)}`);
      if (day.trade_count > 0) expect(label).toContain(`${day.trade_count} trade`);
    }
    // Each week's row sums the days it shows (those of May), in cents: the rows add up to the month.
    const weekTotals = await page.locator('.calendar-week .calendar-full').allInnerTexts();
    const shownWeeks = new Map<string, number>();
    for (const day of days) shownWeeks.set(day.week_start, (shownWeeks.get(day.week_start) ?? 0) + Math.round(day.total_pnl * 100));
    expect(weekTotals).toEqual([...shownWeeks.values()].map((cents) => signedMoney(cents / 100)));
    expect([...shownWeeks.values()].reduce((a, b) => a + b, 0)).toBe(Math.round(E.month_summaries[month].total_return_with_dividends * 100));
    await assertNoSeriousViolations(page, 'the calendar');
    await screenshotBothSizes(page, 'calendar');

    // The day with the largest move: its trades, its numbers, its export.
    const busiest = days.reduce((a, b) => (Math.abs(b.total_pnl) > Math.abs(a.total_pnl) ? b : a));
    await page.getByRole('button', { name: new RegExp(`, May ${busiest.day}, 2024,`) }).click();
    const details = page.locator('section[aria-labelledby="day-details"]');
    await details.locator('dd').first().waitFor();
    expect(await stat(page, 'Total', details)).toBe(signedMoney(busiest.total_pnl));
    expect(await details.getByRole('region', { name: /^Trades closed on/ }).locator('tbody tr').count()).toBe(busiest.trade_count);
    expect(page.url()).toContain(`date=${busiest.date}`);
    await assertNoSeriousViolations(page, 'the calendar with a day open');
    await screenshotBothSizes(page, 'calendar-day');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /as CSV$/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`trading-${busiest.date}.csv`);
    const content = await readFile((await file.path())!, 'utf8');
    expect(content.length).toBeGreaterThan(50);

    // June's first row shows only June 1 and 2: none of the May trades of that week count there.
    const june: any[] = E.calendar['2024-06'];
    await visit('/calendar?month=2024-06', () => page.getByRole('heading', { name: 'Calendar: June 2024' }).waitFor());
    const firstWeek = june.filter((day) => day.week_start === june[0].week_start);
    expect(firstWeek[0].week_total_pnl).not.toBe(0);
    const firstRow = signedMoney(firstWeek.reduce((cents, day) => cents + Math.round(day.total_pnl * 100), 0) / 100);
    expect((await page.locator('.calendar-week .calendar-full').allInnerTexts())[0]).toBe(firstRow);
  });


  it('the month page: summary, sortable trades with their source, dividends, and a month export', async () => {
    const month = '2024-05';
    const summary = E.month_summaries[month];
    await visit(`/month/${month}`, () => page.getByRole('heading', { name: 'Summary' }).waitFor());
    expect(await stat(page, 'Total return')).toBe(signedMoney(summary.total_return_with_dividends));
    expect(await stat(page, 'Trading P&L')).toBe(signedMoney(summary.trading_profit_loss));
    expect(await stat(page, 'Dividends')).toBe(signedMoney(summary.total_dividends));
    expect(await stat(page, 'Win rate')).toContain(percent(summary.win_rate));
    expect(await stat(page, 'Trades')).toBe(String(summary.total_trades));
    // The month's trades judged, as the dashboard's cards judge theirs.
    const judged = judgement(E.trades.filter((t: any) => t.close_date.startsWith(month)));
    await page.getByText('Profit factor').waitFor();
    expect(await stat(page, 'Profit factor')).toBe(judged.profitFactor);
    expect(await stat(page, 'Expectancy')).toBe(judged.expectancy);
    expect(await stat(page, 'Max drawdown')).toBe(judged.maxDrawdown);

    const trades = page.getByRole('region', { name: `Trades closed in May 2024` });
    expect(await trades.locator('tbody tr').count()).toBe(summary.total_trades);
    const monthTrades = E.trades.filter((t: any) => t.close_date.startsWith(month));
    expect(await trades.getByText('Broker-verified').count()).toBe(monthTrades.filter((t: any) => t.source === 'broker').length);
    expect(await trades.getByText('FIFO estimate').count()).toBe(monthTrades.filter((t: any) => t.source === 'fifo').length);

    // Sorting by profit/loss: the first row is the biggest loss, then the biggest gain.
    const sortButton = trades.getByRole('button', { name: /Profit\/loss/ });
    await sortButton.click();
    const pnlColumn = () => trades.locator('tbody tr td:nth-child(8)');
    const worst = Math.min(...monthTrades.map((t: any) => t.total_profit_loss));
    const best = Math.max(...monthTrades.map((t: any) => t.total_profit_loss));
    expect(await pnlColumn().first().innerText()).toBe(signedMoney(best));
    await sortButton.click();
    expect(await pnlColumn().first().innerText()).toBe(signedMoney(worst));
    expect(await trades.locator('th[aria-sort="ascending"]').innerText()).toContain('Profit/loss');

    // A short reads as one: its side, the sale that opened it, the buy that covered (closed) it; the
    // Closed column sorts by the close date it shows.
    const short = monthTrades.find((t: any) => t.side === 'short');
    const shortRow = trades.locator('tbody tr').filter({ hasText: 'Short' }).filter({ hasText: signedMoney(short.total_profit_loss) });
    const shortCells = await shortRow.locator('td').allInnerTexts();
    expect(shortCells.slice(0, 4)).toEqual([short.symbol, 'Short', longDate(short.sell_date), longDate(short.close_date)]);
    await trades.getByRole('button', { name: /^Closed/ }).click();
    const closed = await trades.locator('tbody tr td:nth-child(4)').allInnerTexts();
    expect(closed).toEqual([...monthTrades].sort((a: any, b: any) => (a.close_date < b.close_date ? -1 : a.close_date > b.close_date ? 1 : 0)).map((t: any) => longDate(t.close_date)));

    // One number of decimals per price column (4 here: $44.273 is shown as $44.2730 beside $73.7200).
    for (const column of [6, 7]) {
      const prices = await trades.locator(`tbody tr td:nth-child(${column})`).allInnerTexts();
      expect(new Set(prices.map((price) => price.split('.')[1]?.length)).size).toBe(1);
    }
    expect(await trades.getByText('$44.2730').count()).toBe(1);

    await assertNoSeriousViolations(page, 'the month page');
    await screenshotBothSizes(page, 'month');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export May 2024 as Excel' }).click();
    expect((await download).suggestedFilename()).toBe(`trading-${month}.xlsx`);

    // The month's statistics are one click away: the same trades, judged.
    await page.getByRole('link', { name: 'Statistics of this month' }).click();
    await page.waitForURL(/\/statistics\?start=2024-05-01&end=2024-05-31$/);
    expect(await onceItReads(() => stat(page, 'Net P&L'), signedMoney(summary.trading_profit_loss))).toBe(signedMoney(summary.trading_profit_loss));
    expect(await stat(page, 'Trades')).toBe(String(summary.total_trades));
  });

  it('the symbols table (searchable) and a symbol page with its cumulative chart', async () => {
    await visit('/symbols', () => page.getByRole('region', { name: 'Results by symbol' }).waitFor());
    const table = page.getByRole('region', { name: 'Results by symbol' });
    expect(await table.locator('tbody tr').count()).toBe(E.symbols_summary.length);
    for (const symbol of E.symbols_summary) {
      const row = table.locator('tbody tr').filter({ has: page.getByRole('link', { name: symbol.symbol, exact: true }) });
      expect(await row.locator('td').nth(1).innerText()).toBe(signedMoney(symbol.total_return));
    }
    await page.getByLabel('Search').fill('nvidia');
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Results by symbol"] tbody tr').length === 1);
    await assertNoSeriousViolations(page, 'the symbols page');
    await page.getByLabel('Search').fill('');
    await screenshotBothSizes(page, 'symbols');

    const nvda = E.symbols_summary.find((s: any) => s.symbol === 'NVDA');
    await table.getByRole('link', { name: 'NVDA', exact: true }).click();
    await page.waitForURL(url('/symbols/NVDA'));
    await page.getByRole('heading', { name: 'Cumulative profit and loss' }).waitFor();
    await page.locator('dd').first().waitFor();
    expect(await stat(page, 'Total return')).toBe(signedMoney(nvda.total_return));
    expect(await stat(page, 'Trading P&L')).toBe(signedMoney(nvda.trading_profit_loss));
    expect(await stat(page, 'Dividends')).toBe(signedMoney(nvda.total_dividends));
    expect(await page.getByRole('region', { name: 'Trades of NVDA' }).locator('tbody tr').count()).toBe(nvda.total_trades);
    await page.locator('canvas[role="img"]').waitFor();
    expect(await page.locator('canvas[role="img"]').getAttribute('aria-label')).toContain(`ending at ${signedMoney(nvda.total_return)}`);
    await assertNoSeriousViolations(page, 'a symbol page');
    await screenshotBothSizes(page, 'symbol');

    // Its statistics and its trades (to tag them) are one click away.
    await page.locator('main').getByRole('link', { name: 'Statistics', exact: true }).click();
    await page.waitForURL(url('/statistics?preset=all&symbols=NVDA'));
    expect(await onceItReads(() => stat(page, 'Net P&L'), signedMoney(nvda.trading_profit_loss))).toBe(signedMoney(nvda.trading_profit_loss));
    expect(await stat(page, 'Trades')).toBe(String(nvda.total_trades));
    await page.goBack();
    await page.getByRole('link', { name: 'Tag or annotate these trades' }).click();
    await page.getByRole('heading', { name: `${nvda.total_trades} trades` }).waitFor();
    expect(new URL(page.url()).searchParams.get('symbols')).toBe('NVDA');
  });

  it('the timeframe page: presets, a symbol filter, weekly and monthly tables, open positions', async () => {
    const allTime = E.timeframes.find((t: any) => t.name === 'all_time').data;
    await visit('/timeframe?preset=all', () => page.getByRole('heading', { name: 'By week' }).waitFor());
    expect(await stat(page, 'Trading P&L')).toBe(signedMoney(allTime.summary.trading_profit_loss));
    expect(await stat(page, 'Dividends')).toBe(signedMoney(allTime.summary.total_dividends));
    expect(await stat(page, 'Trades')).toBe(String(allTime.summary.total_trades));
    expect(await stat(page, 'Win rate')).toContain(percent(allTime.summary.win_rate_percentage));
    expect(await page.getByRole('region', { name: 'Totals by week' }).locator('tbody tr').count()).toBe(allTime.weekly_summary.length);
    expect(await page.getByRole('region', { name: 'Totals by month' }).locator('tbody tr').count()).toBe(allTime.monthly_summary.length);
    // The weekly chart has a bar for every week from the first to the last, the empty ones at zero.
    const starts = (allTime.weekly_summary as any[]).map((week) => Date.parse(`${week.week_start}T00:00:00Z`));
    const everyWeek = (Math.max(...starts) - Math.min(...starts)) / (7 * 86_400_000) + 1;
    expect(everyWeek).toBeGreaterThan(allTime.weekly_summary.length);
    expect(await page.getByRole('region', { name: 'By week' }).locator('canvas[role="img"]').getAttribute('aria-label')).toContain(`${everyWeek} weeks`);
    const positions = page.getByRole('region', { name: /^Positions held at/ });
    expect(await positions.locator('tbody tr').count()).toBe(allTime.open_positions.length);
    // Each position's cost basis as the API gives it; no provider key here, so no price and no value.
    const held = ((await (await page.request.get(url('/api/timeframe-data?all=true'))).json()) as any).data.open_positions;
    const money = (value: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value).replace('-', '−');
    for (const position of held) {
      const row = positions.locator('tbody tr').filter({ has: page.getByRole('link', { name: position.symbol, exact: true }) });
      expect(await row.locator('td[data-label="Cost basis"]').innerText()).toBe(money(position.cost_basis));
      expect(await row.locator('td[data-label="Last price"]').innerText()).toBe('no price yet');
    }
    await assertNoSeriousViolations(page, 'the timeframe page');
    await screenshotBothSizes(page, 'timeframe');

    // Each other named range of expected.json, through the custom range or the symbol filter.
    for (const timeframe of E.timeframes.filter((t: any) => t.name !== 'all_time')) {
      const query = new URLSearchParams(timeframe.params as Record<string, string>);
      const search = new URLSearchParams();
      if (query.get('all') === 'true') search.set('preset', 'all');
      if (query.get('start')) search.set('start', query.get('start')!);
      if (query.get('end')) search.set('end', query.get('end')!);
      if (query.get('symbols')) search.set('symbols', query.get('symbols')!);
      await visit(`/timeframe?${search}`, () => page.getByRole('heading', { name: 'Summary' }).waitFor());
      await page.locator('dd').first().waitFor();
      expect(`${timeframe.name}: ${await stat(page, 'Trading P&L')}`).toBe(`${timeframe.name}: ${signedMoney(timeframe.data.summary.trading_profit_loss)}`);
      expect(`${timeframe.name}: ${await stat(page, 'Trades')}`).toBe(`${timeframe.name}: ${timeframe.data.summary.total_trades}`);
    }

    // The presets are buttons that change the range (YTD of today: the example data is from 2024).
    await visit('/timeframe?preset=all', () => page.getByRole('heading', { name: 'By week' }).waitFor());
    await page.getByRole('button', { name: 'Last year' }).click();
    expect(page.url()).toContain('preset=last-year');
    expect(await page.getByRole('button', { name: 'Last year' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'All time' }).click();
    await page.getByText(/^Symbols: all$/).click();
    await page.getByRole('checkbox', { name: /^NVDA/ }).check();
    await page.waitForURL(/symbols=NVDA/);
    await page.getByText('Results for all time, NVDA only').waitFor();
    await settle(page);
    const nvda = E.symbols_summary.find((s: any) => s.symbol === 'NVDA');
    expect(await onceItReads(() => stat(page, 'Trading P&L'), signedMoney(nvda.trading_profit_loss))).toBe(signedMoney(nvda.trading_profit_loss));
  });

  it('the statistics page: the figures of expected.json, the equity curve, breakdowns, and filters in the address', async () => {
    const trades = E.trades as any[];
    const cents = (value: number) => Math.round(value * 100);
    const sum = (list: any[]) => list.reduce((total, trade) => total + cents(trade.total_profit_loss), 0) / 100;
    const winners = trades.filter((trade) => trade.total_profit_loss > 0);
    const losers = trades.filter((trade) => trade.total_profit_loss < 0);
    await visit('/statistics?preset=all', () => page.getByRole('heading', { name: 'Equity curve' }).waitFor());
    await page.locator('dd').first().waitFor();
    expect(await stat(page, 'Net P&L')).toBe(signedMoney(sum(trades)));
    expect(await stat(page, 'Gross profit')).toBe(signedMoney(sum(winners)));
    expect(await stat(page, 'Gross loss')).toBe(signedMoney(sum(losers)));
    expect(await stat(page, 'Profit factor')).toBe((Math.round((sum(winners) / Math.abs(sum(losers))) * 100) / 100).toFixed(2));
    expect(await stat(page, 'Trades')).toBe(String(trades.length));
    expect(await stat(page, 'Win rate')).toBe(percent(Math.round((winners.length / trades.length) * 10000) / 100));
    await page.getByRole('region', { name: 'Equity curve' }).locator('canvas[role="img"]').waitFor();
    expect(await page.getByRole('region', { name: 'Equity curve' }).locator('canvas[role="img"]').getAttribute('aria-label')).toContain(`ending at ${signedMoney(sum(trades))}`);
    const weekdays = page.getByRole('region', { name: 'Net P&L by weekday' });
    expect(await weekdays.locator('tbody tr').count()).toBeGreaterThanOrEqual(5);
    await assertNoSeriousViolations(page, 'the statistics page');
    await screenshotBothSizes(page, 'statistics');

    // Shorts only, chosen on the page: the address keeps the filter and the figures follow.
    await page.getByLabel('Side', { exact: true }).selectOption('short');
    await page.waitForURL(/side=short/);
    await page.getByText(/short trades$/).waitFor();
    await settle(page);
    const shorts = trades.filter((trade) => trade.side === 'short');
    expect(await onceItReads(() => stat(page, 'Trades'), String(shorts.length))).toBe(String(shorts.length));
    expect(await stat(page, 'Net P&L')).toBe(signedMoney(sum(shorts)));
  });

  it('the trades page: every trade page by page, linked to its symbol and day, filtered, downloaded', async () => {
    const trades = E.trades as any[];
    await visit('/trades?preset=all', () => page.getByRole('heading', { name: `${trades.length} trades` }).waitFor());
    const list = page.getByRole('region', { name: 'The filtered trades, in the chosen order' });
    expect(await list.locator('tbody tr').count()).toBe(trades.length);
    const first = list.locator('tbody tr').first();
    const newest = [...trades].sort((a, b) => (a.close_date < b.close_date ? 1 : -1))[0];
    expect(await first.getByRole('link').first().getAttribute('href')).toBe(`/calendar?month=${newest.close_date.slice(0, 7)}&date=${newest.close_date}`);
    await assertNoSeriousViolations(page, 'the trades page');
    await screenshotBothSizes(page, 'trades');
    // On a phone each trade is a card with its key fields; the wide layout has every column.
    const keyFields = ['Closed', 'Symbol', 'Side', 'Opened', 'Shares', 'Profit/loss', 'Return', 'Tags & note'];
    expect(await firstRowFields(page, 'The filtered trades, in the chosen order')).toEqual({
      card: false,
      fields: ['Closed', 'Symbol', 'Side', 'Opened', 'Shares', 'Profit/loss', 'Return', 'Days held', 'Source', 'Tags & note'],
    });
    await page.setViewportSize(NARROW_PHONE);
    expect(await firstRowFields(page, 'The filtered trades, in the chosen order')).toEqual({ card: true, fields: keyFields });
    await page.setViewportSize(DESKTOP);

    await page.getByLabel('Sort by').selectOption('profit_loss');
    await page.waitForURL(/sort=profit_loss/);
    await settle(page);
    const best = Math.max(...trades.map((trade) => trade.total_profit_loss));
    expect(await onceItReads(() => list.locator('tbody tr').first().locator('td').nth(5).innerText(), signedMoney(best))).toBe(signedMoney(best));

    await page.getByLabel('Result').selectOption('Loss');
    await page.waitForURL(/result=Loss/);
    const losses = trades.filter((trade) => trade.trade_result === 'Loss');
    await page.getByRole('heading', { name: `${losses.length} trades` }).waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('trades-all.csv');
    expect(await readFile((await file.path())!, 'utf8')).toContain(`Trades (${losses.length})`);

    await list.getByRole('link', { name: losses[0].symbol, exact: true }).first().click();
    await page.waitForURL(url(`/symbols/${losses[0].symbol}`));
  });

  it('the portfolio lists the imported positions with their cost, and explains that prices need the provider key', async () => {
    await visit('/portfolio', () => page.getByRole('heading', { name: 'Holdings' }).waitFor());
    await page.getByText(/Nothing kept by hand/).waitFor();
    const open = E.timeframes.find((t: any) => t.name === 'all_time').data.open_positions as { symbol: string }[];
    await page.getByRole('heading', { name: `From your imports (${open.length})` }).waitFor();
    const positions = page.getByRole('region', { name: 'Open positions from your imports' });
    const listed = ((await (await page.request.get(url('/api/positions'))).json()) as any).positions;
    expect(listed.map((p: any) => p.symbol)).toEqual(open.map((p) => p.symbol));
    for (const position of listed) {
      const row = positions.locator('tbody tr').filter({ has: page.getByRole('link', { name: position.symbol, exact: true }) });
      expect(await row.locator('td[data-label="Cost basis"]').innerText()).toBe(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(position.cost_basis));
      expect(await row.locator('td[data-label="Price"]').innerText()).toBe('no price');
    }
    expect(await stat(page, 'Holdings')).toBe(String(open.length));
    await page.getByLabel('Symbol', { exact: true }).fill('VTI');
    await page.getByLabel('Shares', { exact: true }).fill('10');
    await page.getByLabel('Average cost per share ($)').fill('200');
    await page.getByRole('button', { name: 'Add holding' }).click();
    await page.getByRole('region', { name: 'Your holdings' }).getByText('VTI').waitFor();
    await page.getByRole('button', { name: 'Refresh prices' }).click();
    const message = page.locator('.notice-error');
    await message.waitFor();
    expect(await message.innerText()).toContain('FINNHUB_API_KEY');
    await assertNoSeriousViolations(page, 'the portfolio without prices');
    await screenshotBothSizes(page, 'portfolio-no-prices');
  });

  it('keyboard: the skip link and the navigation reach the pages; unknown pages say so', async () => {
    await visit('/', () => page.getByRole('heading', { name: 'Months' }).waitFor());
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Calendar' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/calendar'));
    expect(await nav.getByRole('link', { name: 'Calendar' }).getAttribute('aria-current')).toBe('page');
    // Focus moves to the new page's heading, as after a page load.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

    const missing = await page.goto(url('/no-such-page'));
    expect(missing?.status()).toBe(404);
  });

  it('signs out', async () => {
    await visit('/', () => page.getByRole('heading', { name: 'Months' }).waitFor());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(url('/auth/login'));
    await page.getByText('You are signed out.').waitFor();
    await assertNoSeriousViolations(page, 'the signed-out page');
    await screenshotBothSizes(page, 'signed-out');
    await page.goto(url('/calendar'));
    expect(new URL(page.url()).pathname).toBe('/auth/login');
  });

  it('a refused address gets a page that names it and offers another sign-in, not JSON', async () => {
    // Signed out of the service, still signed in at the built-in provider as EMAIL: another address
    // ends that provider session on the way (which once lost the sign-in's interaction).
    await page.goto(url('/auth/login'));
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.locator('input[name="email"]').fill('stranger@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The address stranger@example.com is not allowed to use this service.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/callback');
    await assertNoSeriousViolations(page, 'the refused-address page');
    await screenshotBothSizes(page, 'address-not-allowed');
    await page.getByRole('link', { name: 'Sign in with another address' }).click();
    await page.locator('input[name="email"]').waitFor();
  });

  it('logged no errors in the browser console, and met no failure but the expected ones', () => {
    expect(browser.consoleErrors.filter((text) => !text.startsWith('Failed to load resource'))).toEqual([]);
    expect([...new Set(browser.failedResponses)].sort()).toEqual([
      // The empty file of the failed import; refreshing prices with no provider key; the unknown page.
      '400 POST /api/upload-csv',
      '403 GET /auth/callback',
      '404 GET /no-such-page',
      '503 POST /api/portfolio/refresh-prices',
    ]);
  });
});
