import Papa from 'papaparse';
import { startFakeFinnhub, type FakeFinnhub } from './support/fake-finnhub.js';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { exampleFiles, expected, fixture, ndjson, uploadForm } from './support/uploads.js';

const E = expected();
const cents = (value: number): number => Math.round(value * 100);
const PRICES: Record<string, number> = { NVDA: 123.4567, NVO: 143.21, PEP: 164.93, SCHD: 77.12, SNOW: 126.05 };

/** Σ |Amount| (or quantity × price + fees) of the rows that open a long position, per symbol, in cents. */
function boughtCents(transactions: string): Map<string, number> {
  const rows = Papa.parse<string[]>(transactions.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data.slice(2);
  // "$1,234.50", "-$1,234.50" and "($1234.50)" all mean an amount of 1234.50 here (its sign is the action's).
  const money = (cell: string) => Number(cell.replace(/[$,()]/g, '')) || 0;
  const bought = new Map<string, number>();
  for (const [, action, symbol, , quantity, price, fees, amount] of rows) {
    if (!['Buy', 'Reinvest Shares'].includes(action?.trim())) continue;
    const paid = amount ? Math.abs(cents(money(amount))) : cents(money(quantity) * money(price) + money(fees));
    bought.set(symbol, (bought.get(symbol) ?? 0) + paid);
  }
  return bought;
}

/**
 * Positions from the imports (docs/api.md "Positions") on the example files and the local market-data
 * server: shares as expected.json's open positions, cost as bought minus the cost basis sold (computed
 * here from the file and expected.json, not by the matcher), values to the cent at given prices.
 */
describe('positions from the imports', () => {
  let finnhub: FakeFinnhub;
  let service: RunningService;
  let trader: SignedIn;
  let other: SignedIn;
  const get = async (session: SignedIn, path: string) => {
    const response = await session.fetch(path);
    return { status: response.status, body: (await response.json()) as any };
  };
  const upload = async (transactions?: string) => {
    const files = { ...exampleFiles(), ...(transactions === undefined ? {} : { transaction_history_file: { name: 'transactions.csv', content: transactions } }) };
    const lines = ndjson(await (await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(files) })).text());
    expect(lines.at(-1).type).toBe('success');
  };

  beforeAll(async () => {
    finnhub = await startFakeFinnhub({
      quotes: Object.fromEntries(Object.entries(PRICES).map(([symbol, c]) => [symbol, { c, d: 1.25, dp: 0.5, pc: c - 1.25 }])),
    });
    service = await startService({
      env: { AUTHORIZED_USERS: 'trader@example.com,other@example.com', FINNHUB_API_KEY: finnhub.token, FINNHUB_BASE_URL: finnhub.url, MARKET_DATA_REQUESTS_PER_MINUTE: '600' },
    });
    trader = await signIn(service, 'trader@example.com');
    other = await signIn(service, 'other@example.com');
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
    await upload();
  });

  afterAll(async () => {
    await service?.stop();
    await finnhub?.close();
  });

  it("lists expected.json's open positions, their cost from the lots left, and their value at the provider's prices", async () => {
    const { status, body } = await get(trader, '/api/positions');
    expect(status).toBe(200);
    const open = E.timeframes.find((t: any) => t.name === 'all_time').data.open_positions as { symbol: string; shares: number }[];
    expect(body.positions.map((p: any) => ({ symbol: p.symbol, shares: p.shares }))).toEqual(open);

    const bought = boughtCents(fixture('schwab-example', 'transactions.csv').toString('utf8'));
    let value = 0;
    let cost = 0;
    for (const position of body.positions) {
      const soldCost = (E.trades as any[]).filter((t) => t.symbol === position.symbol && t.side === 'long').reduce((sum, t) => sum + cents(t.cost_basis), 0);
      expect({ symbol: position.symbol, cost: cents(position.cost_basis) }).toEqual({ symbol: position.symbol, cost: (bought.get(position.symbol) ?? 0) - soldCost });
      expect(position).toMatchObject({ side: 'long', source: 'import', also_manual: false });
      const price = PRICES[position.symbol];
      if (price === undefined) {
        // The provider does not know the money-market fund: listed, counted, valued nowhere.
        expect(position).toMatchObject({ last_price: null, market_value: null, unrealized_profit_loss: null, weight: null, price_status: 'unavailable' });
        continue;
      }
      const marketValue = Math.round(position.shares * price * 100);
      expect(cents(position.market_value)).toBe(marketValue);
      expect(cents(position.unrealized_profit_loss)).toBe(marketValue - cents(position.cost_basis));
      expect(cents(position.day_change)).toBe(Math.round(position.shares * 125));
      expect(position).toMatchObject({ last_price: price, price_status: 'current' });
      value += marketValue;
      cost += cents(position.cost_basis);
    }
    expect(body.unpriced_count).toBe(1);
    expect(body.pending_prices).toBe(0);
    expect(cents(body.totals.market_value)).toBe(value);
    expect(cents(body.totals.cost_basis)).toBe(cost);
    expect(cents(body.totals.unrealized_profit_loss)).toBe(value - cost);
    const weights = body.positions.filter((p: any) => p.weight !== null).map((p: any) => cents(p.weight));
    expect(Math.abs(weights.reduce((a: number, b: number) => a + b, 0) - 10000)).toBeLessThanOrEqual(weights.length);
  });

  it('a position shows its lots, whose shares and costs add up to it; another user has none', async () => {
    const { body: list } = await get(trader, '/api/positions');
    for (const position of list.positions) {
      const { status, body } = await get(trader, `/api/positions/${position.symbol.toLowerCase()}`);
      expect(status).toBe(200);
      expect(body.positions).toEqual([position]);
      expect(body.lots.length).toBe(position.lots);
      expect(body.lots.every((lot: any) => lot.account === 'XXXX-1234' && lot.side === 'long')).toBe(true);
      const shares = body.lots.reduce((sum: number, lot: any) => sum + Math.round(lot.shares * 1e6), 0);
      expect(shares).toBe(Math.round(position.shares * 1e6));
      expect(Math.abs(body.lots.reduce((sum: number, lot: any) => sum + cents(lot.cost_basis), 0) - cents(position.cost_basis))).toBeLessThanOrEqual(body.lots.length);
    }
    expect(await get(other, '/api/positions/NVDA')).toEqual({ status: 404, body: { success: false, error: 'No open position in NVDA' } });
    expect((await get(other, '/api/positions')).body.positions).toEqual([]);
    expect((await get(trader, '/api/positions?account=OTHER-1')).body.positions).toEqual([]);
    expect((await get(trader, '/api/positions?account=XXXX-1234')).body.positions).toEqual(list.positions);
    expect((await get(trader, '/api/positions/NO%20SUCH')).status).toBe(400);
  });

  it('a re-import changes nothing; a later sale of an open lot removes it', async () => {
    const before = (await get(trader, '/api/positions')).body;
    await upload();
    expect((await get(trader, '/api/positions')).body).toEqual(before);

    const lines = fixture('schwab-example', 'transactions.csv').toString('utf8').split('\n');
    const sale = `"07/01/2024","Sell","SNOW","SNOWFLAKE INC CLASS A","33","$130.00","$0.05","$4,289.95"`;
    await upload([lines[0], lines[1], sale, ...lines.slice(2)].join('\n'));
    const after = (await get(trader, '/api/positions')).body;
    expect(after.positions.map((p: any) => p.symbol)).toEqual(before.positions.map((p: any) => p.symbol).filter((s: string) => s !== 'SNOW'));
    expect((await get(trader, '/api/positions/SNOW')).status).toBe(404);
  });

  it('the summary, the snapshot and the allocation value manual holdings and imported positions together, apart, flagged', async () => {
    const headers = { origin: service.url, 'content-type': 'application/json' };
    const created = await trader.fetch('/api/portfolio/holdings', { method: 'POST', headers, body: JSON.stringify({ symbol: 'NVDA', holding_type: 'stock', shares: 2, average_cost: 100 }) });
    expect(created.status).toBe(201);
    const positions = (await get(trader, '/api/positions')).body;
    expect(positions.positions.find((p: any) => p.symbol === 'NVDA').also_manual).toBe(true);
    const holdings = (await get(trader, '/api/portfolio/holdings')).body;
    expect(holdings.holdings).toEqual([expect.objectContaining({ symbol: 'NVDA', source: 'manual', also_imported: true })]);

    const { body: summary } = await get(trader, '/api/portfolio/summary');
    const manualValue = Math.round(2 * PRICES.NVDA * 100);
    expect(cents(summary.manual.total_value)).toBe(manualValue);
    expect(cents(summary.imported.total_value)).toBe(cents(positions.totals.market_value));
    expect(cents(summary.totals.total_value)).toBe(manualValue + cents(positions.totals.market_value));
    expect(summary.totals.unpriced_count).toBe(1);
    expect(summary.held_twice).toEqual(['NVDA']);

    const snapshot = await trader.fetch('/api/portfolio/snapshot', { method: 'POST', headers, body: JSON.stringify({ snapshot_type: 'MANUAL' }) });
    expect(cents(((await snapshot.json()) as any).snapshot.total_value)).toBe(cents(summary.totals.total_value));

    const { body: allocation } = await get(trader, '/api/portfolio/allocation');
    expect(cents(allocation.total_value)).toBe(cents(summary.totals.total_value));
    const nvda = allocation.by_symbol.find((s: any) => s.symbol === 'NVDA');
    expect(cents(nvda.value)).toBe(manualValue + cents(positions.positions.find((p: any) => p.symbol === 'NVDA').market_value));
    expect(allocation.by_type).toEqual([{ type: 'stock', value: allocation.total_value, weight: 100 }]);
  });

  it('value history: realized P&L and dividends per day as the reports give them; bad ranges are refused', async () => {
    const { status, body } = await get(trader, '/api/portfolio/value-history?start_date=2024-05-01&end_date=2024-05-31');
    expect(status).toBe(200);
    const may = E.month_summaries['2024-05'];
    const last = body.days.at(-1);
    expect(cents(last.cumulative_realized_profit_loss)).toBe(cents(may.trading_profit_loss));
    expect(cents(last.cumulative_dividends)).toBe(cents(may.total_dividends));
    expect(body.days.every((d: any) => d.date >= '2024-05-01' && d.date <= '2024-05-31' && d.value === null)).toBe(true);
    expect((await get(trader, '/api/portfolio/value-history?start_date=2024-06-01&end_date=2024-05-01')).body).toEqual({
      success: false,
      error: 'start_date must not be after end_date',
    });
    expect((await get(trader, '/api/portfolio/value-history?start_date=2024-02-30')).status).toBe(400);
  });
});

/** 200 open positions against a provider budget of 60 calls a minute: the list never waits for all of them. */
describe('positions priced within the provider budget', () => {
  let finnhub: FakeFinnhub;
  let service: RunningService;
  let trader: SignedIn;
  const SYMBOLS = Array.from({ length: 200 }, (_, i) => `S${String(i).padStart(3, '0')}`);

  beforeAll(async () => {
    finnhub = await startFakeFinnhub({ quotes: Object.fromEntries(SYMBOLS.map((symbol, i) => [symbol, { c: 10 + i }])), limit: { requests: 60, windowMs: 60_000 } });
    service = await startService({
      env: { AUTHORIZED_USERS: 'trader@example.com', FINNHUB_API_KEY: finnhub.token, FINNHUB_BASE_URL: finnhub.url, MARKET_DATA_REQUESTS_PER_MINUTE: '60' },
    });
    trader = await signIn(service, 'trader@example.com');
    expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-9999' })).status).toBe(200);
    const rows = SYMBOLS.map((symbol) => `"03/04/2024","Buy","${symbol}","${symbol} INC","10","$5.00","","-$50.00"`);
    const transactions = ['"Transactions  for account XXXX-9999 as of 06/29/2024 05:28:01 PM ET"', '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"', ...rows].join('\n');
    const gains = fixture('schwab-example', 'realized_gains.csv').toString('utf8').split('\n').slice(0, 3).join('\n');
    const files = { transaction_history_file: { name: 'transactions.csv', content: transactions }, realized_gains_file: { name: 'realized_gains.csv', content: gains } };
    const lines = ndjson(await (await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(files) })).text());
    expect(lines.at(-1)).toMatchObject({ type: 'success' });
  });

  afterAll(async () => {
    await service?.stop();
    await finnhub?.close();
  });

  it('answers at once with what it has, marks the rest pending, and prices more on each read without breaking the budget', async () => {
    const started = Date.now();
    const first = await trader.fetch('/api/positions').then((r) => r.json() as Promise<any>);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(first.count).toBe(200);
    const priced = (body: any) => body.positions.filter((p: any) => p.last_price !== null).length;
    expect(first.pending_prices).toBeGreaterThan(100);
    expect(first.pending_prices + priced(first)).toBe(200);
    expect(first.positions.filter((p: any) => p.price_status === 'pending').length).toBe(first.pending_prices);
    expect(first.totals.market_value).toBe(first.positions.reduce((sum: number, p: any) => sum + (p.market_value ?? 0), 0));

    // The background lane goes on between reads, one call at a time as the budget frees up.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const second = await trader.fetch('/api/positions').then((r) => r.json() as Promise<any>);
    expect(priced(second)).toBeGreaterThan(priced(first));
    expect(finnhub.requestsFor('/quote').length).toBeLessThan(60);
    expect(finnhub.maxInAnyWindow(60_000)).toBeLessThanOrEqual(60);
    expect(finnhub.requests.every((r) => r.status !== 429)).toBe(true);
  }, 60_000);
});
