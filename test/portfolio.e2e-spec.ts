import { startFakeFinnhub, type FakeFinnhub } from './support/fake-finnhub.js';
import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';

type Session = Awaited<ReturnType<typeof signIn>>;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CENTS = (n: number) => Math.round(n * 100);

describe('portfolio (holdings, prices, CSV import, snapshots) over HTTP', () => {
  let finnhub: FakeFinnhub;
  let service: RunningService;
  let demo: Session;
  let other: Session;

  const upload = async (session: Session, path: string, filename: string, content: string | Buffer, field = 'csv_file') => {
    const form = new FormData();
    form.append(field, new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), filename);
    const response = await session.fetch(path, { method: 'POST', headers: { origin: service.url }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    finnhub = await startFakeFinnhub({
      quotes: {
        AAPL: { c: 175.5, d: 2.5, dp: 1.4451, h: 176.25, l: 172.1, o: 173, pc: 173 },
        MSFT: { c: 410.1234 },
        VTI: { c: 250.01 },
      },
      profiles: { AAPL: { name: 'Apple Inc' } },
    });
    service = await startService({
      env: {
        AUTHORIZED_USERS: 'demo@example.com,other@example.com',
        FINNHUB_API_KEY: finnhub.token,
        FINNHUB_BASE_URL: finnhub.url,
        MARKET_DATA_REQUESTS_PER_MINUTE: '600',
        UPLOAD_MAX_BYTES: '4096',
      },
    });
    demo = await signIn(service, 'demo@example.com');
    other = await signIn(service, 'other@example.com');
  });

  afterAll(async () => {
    await service?.stop();
    await finnhub?.close();
  });

  it('requires a session', async () => {
    const response = await fetch(`${service.url}/api/portfolio/holdings`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: 'Authentication required', redirect_to_login: true });
  });

  describe('holdings', () => {
    let aaplId: number;

    it('POST creates a holding (201) with the listing’s fields', async () => {
      const { status, body } = await demo.json('POST', '/api/portfolio/holdings', {
        symbol: ' aapl ',
        holding_type: 'stock',
        shares: 10,
        average_cost: 150.25,
        notes: 'long term',
      });
      expect(status).toBe(201);
      expect(body.success).toBe(true);
      expect(body.holding).toMatchObject({ symbol: 'AAPL', holding_type: 'stock', shares: 10, average_cost: 150.25, total_cost: 1502.5, notes: 'long term' });
      aaplId = body.holding.id;
      expect(Number.isInteger(aaplId)).toBe(true);
    });

    it('a second holding for the same symbol is a 409', async () => {
      const { status, body } = await demo.json('POST', '/api/portfolio/holdings', { symbol: 'AAPL', holding_type: 'stock', shares: 1, average_cost: 1 });
      expect(status).toBe(409);
      expect(body).toEqual({ success: false, error: expect.stringContaining('AAPL') });
    });

    it.each([
      [{ holding_type: 'stock', shares: 1, average_cost: 1 }, /symbol/],
      [{ symbol: 'MSFT', holding_type: 'bond', shares: 1, average_cost: 1 }, /holding_type must be one of stock, etf, mutual_fund/],
      [{ symbol: 'MSFT', holding_type: 'stock', shares: -1, average_cost: 1 }, /shares must be greater than 0/],
      [{ symbol: 'MSFT', holding_type: 'stock', shares: '5', average_cost: 1 }, /shares must be a number/],
      [{ symbol: 'MSFT', holding_type: 'stock', shares: 1 }, /average_cost/],
      [{ symbol: 'MSFT', holding_type: 'stock', shares: 1, average_cost: 1, colour: 'red' }, /colour/],
      [{ symbol: 'not a ticker', holding_type: 'stock', shares: 1, average_cost: 1 }, /symbol must be a ticker/],
    ])('400 naming the field for %j', async (payload, message) => {
      const { status, body } = await demo.json('POST', '/api/portfolio/holdings', payload);
      expect(status).toBe(400);
      expect(body.success).toBe(false);
      expect(body.error).toMatch(message);
    });

    it('GET lists the user’s holdings priced by the provider, with the contract’s figures', async () => {
      await demo.json('POST', '/api/portfolio/holdings', { symbol: 'MSFT', holding_type: 'stock', shares: 2.5, average_cost: 400.1 });
      const { status, body } = await demo.json('GET', '/api/portfolio/holdings');
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      const [aapl, msft] = body.holdings;
      expect(aapl).toEqual({
        id: aaplId,
        symbol: 'AAPL',
        holding_type: 'stock',
        shares: 10,
        average_cost: 150.25,
        current_price: 175.5,
        total_cost: 1502.5,
        current_value: 1755,
        gain_loss: 252.5,
        return_percentage: 16.81,
        last_updated: expect.stringMatching(ISO_INSTANT),
        price_stale: false,
        source: 'manual',
        also_imported: false,
        notes: 'long term',
        purchase_date: null,
        created_at: expect.stringMatching(ISO_INSTANT),
        updated_at: expect.stringMatching(ISO_INSTANT),
      });
      // 2.5 × 410.1234 = 1025.3085 → 1025.31; 2.5 × 400.1 = 1000.25; gain 25.06; 25.06 / 1000.25 = 2.505…%
      expect(msft).toMatchObject({ current_price: 410.1234, total_cost: 1000.25, current_value: 1025.31, gain_loss: 25.06, return_percentage: 2.51 });
      for (const h of body.holdings) {
        expect(CENTS(h.current_value) - CENTS(h.total_cost)).toBe(CENTS(h.gain_loss));
      }
      // The totals the web app shows are the server's, summed from the holdings' cents (as a snapshot's).
      expect(body.totals).toEqual({
        total_value: 2780.31,
        total_cost: 2502.75,
        total_gain_loss: 277.56,
        total_return_pct: 11.09,
        holdings_count: 2,
        unpriced_count: 0,
      });
    });

    it('another user sees none of them, and their ids are 404 for that user', async () => {
      expect((await other.json('GET', '/api/portfolio/holdings')).body.holdings).toEqual([]);
      expect(await other.json('PUT', `/api/portfolio/holdings/${aaplId}`, { shares: 1 })).toEqual({ status: 404, body: { success: false, error: 'Holding not found' } });
      expect(await other.json('DELETE', `/api/portfolio/holdings/${aaplId}`)).toEqual({ status: 404, body: { success: false, error: 'Holding not found' } });
    });

    it('PUT changes shares, cost and notes; the figures follow', async () => {
      const { status, body } = await demo.json('PUT', `/api/portfolio/holdings/${aaplId}`, { shares: 12, average_cost: 150, notes: '' });
      expect(status).toBe(200);
      expect(body.holding).toMatchObject({ id: aaplId, shares: 12, average_cost: 150, notes: '', total_cost: 1800, current_value: 2106, gain_loss: 306, return_percentage: 17 });
    });

    it.each([
      ['abc', { shares: 1 }, 400, /id must be a positive whole number/],
      ['999999', { shares: 1 }, 404, /Holding not found/],
      ['ID', {}, 400, /id/],
    ])('PUT /holdings/%s with %j', async (id, payload, status, message) => {
      const path = `/api/portfolio/holdings/${id === 'ID' ? aaplId : id}`;
      const result = await demo.json('PUT', path, payload);
      expect(result.status).toBe(id === 'ID' ? 400 : status);
      expect(result.body.error).toMatch(id === 'ID' ? /Nothing to update/ : message);
    });

    it('DELETE removes the holding once; then 404', async () => {
      const created = await demo.json('POST', '/api/portfolio/holdings', { symbol: 'TMP', holding_type: 'etf', shares: 1, average_cost: 1 });
      const first = await demo.json('DELETE', `/api/portfolio/holdings/${created.body.holding.id}`);
      expect(first).toEqual({ status: 200, body: { success: true, message: 'Holding TMP deleted' } });
      expect((await demo.json('DELETE', `/api/portfolio/holdings/${created.body.holding.id}`)).status).toBe(404);
    });
  });

  describe('prices', () => {
    it('refresh-prices: success with the updated count', async () => {
      const { status, body } = await demo.json('POST', '/api/portfolio/refresh-prices');
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, updated_count: 2, errors: [], message: 'Updated prices for 2 holdings' });
    });

    it('refresh-prices: partial success lists the symbols that failed and why', async () => {
      await demo.json('POST', '/api/portfolio/holdings', { symbol: 'ZZZZ', holding_type: 'stock', shares: 1, average_cost: 5 });
      finnhub.setQuote('AAPL', { c: 180 });
      const before = finnhub.requestsFor('/quote', 'AAPL').length;
      const { status, body } = await demo.json('POST', '/api/portfolio/refresh-prices');
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        updated_count: 2,
        errors: [{ symbol: 'ZZZZ', error: 'Symbol not found' }],
        message: 'Updated prices for 2 of 3 holdings',
      });
      // Quotes younger than a minute are reused, not asked for again.
      expect(finnhub.requestsFor('/quote', 'AAPL').length).toBe(before);
      const listed = (await demo.json('GET', '/api/portfolio/holdings')).body.holdings;
      expect(listed.find((h: any) => h.symbol === 'ZZZZ')).toMatchObject({ current_price: null, current_value: null, gain_loss: null, price_stale: true });
      await demo.json('DELETE', `/api/portfolio/holdings/${listed.find((h: any) => h.symbol === 'ZZZZ').id}`);
    });

    it('validate-symbol: valid with price and name; unknown and malformed symbols are valid:false', async () => {
      expect(await demo.json('GET', '/api/portfolio/validate-symbol/aapl')).toEqual({
        status: 200,
        body: { valid: true, symbol: 'AAPL', current_price: 175.5, company_name: 'Apple Inc', message: 'AAPL (Apple Inc) is valid; current price 175.5' },
      });
      expect(await demo.json('GET', '/api/portfolio/validate-symbol/QQQQX')).toEqual({ status: 200, body: { valid: false, symbol: 'QQQQX', error: 'Symbol QQQQX not found' } });
      const malformed = await demo.json('GET', `/api/portfolio/validate-symbol/${encodeURIComponent('no way')}`);
      expect(malformed.status).toBe(200);
      expect(malformed.body).toMatchObject({ valid: false, error: expect.stringMatching(/^Invalid symbol format/) });
    });

    it('price/<symbol> returns the price data; an unknown symbol is a 404', async () => {
      const { status, body } = await demo.json('GET', '/api/portfolio/price/VTI');
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        symbol: 'VTI',
        price_data: {
          current_price: 250.01,
          change: 0,
          percent_change: 0,
          high: 250.01,
          low: 250.01,
          open: 250.01,
          previous_close: 250.01,
          quote_time: expect.stringMatching(ISO_INSTANT),
          last_updated: expect.stringMatching(ISO_INSTANT),
        },
      });
      expect(await demo.json('GET', '/api/portfolio/price/NOPE1')).toEqual({ status: 404, body: { success: false, error: 'Symbol not found: NOPE1' } });
    });
  });

  describe('holdings CSV upload', () => {
    it('imports good rows, updates existing symbols and reports bad rows as "Row N: reason"', async () => {
      const csv = [
        'Symbol,Shares,Cost_Basis,Security_Type,Notes',
        'MSFT,3,1200.30,STOCK,', // existing: updated
        'VTI,4,"1,000.00",ETF,core', // new
        'BAD,abc,10,STOCK,',
        'FXAIX,2.5,500,Mutual Fund,',
        'XYZ,1,5,BOND,',
      ].join('\n');
      const { status, body } = await upload(demo, '/api/portfolio/upload-csv', 'positions.csv', csv);
      expect(status).toBe(200);
      expect(body).toEqual({
        success: true,
        imported: 2,
        updated: 1,
        errors: ["Row 4: invalid shares value 'abc'", "Row 6: unknown security type 'BOND' (use STOCK, EQUITY, ETF, MUTUAL FUND or MF)"],
        message: 'Imported 2 new holdings, updated 1, 2 rows skipped',
      });
      const holdings = (await demo.json('GET', '/api/portfolio/holdings')).body.holdings;
      expect(holdings.map((h: any) => [h.symbol, h.holding_type, h.shares, h.average_cost, h.total_cost])).toEqual([
        ['AAPL', 'stock', 12, 150, 1800],
        ['FXAIX', 'mutual_fund', 2.5, 200, 500],
        ['MSFT', 'stock', 3, 400.1, 1200.3],
        ['VTI', 'etf', 4, 250, 1000],
      ]);
    });

    it('/api/portfolio/upload is the same operation', async () => {
      const { status, body } = await upload(other, '/api/portfolio/upload', 'HOLDINGS.CSV', 'symbol,shares,average_cost\nQQQ,1,400\n');
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, imported: 1, updated: 0, errors: [] });
    });

    it.each([
      ['positions.xlsx', 'symbol,shares\nA,1\n', 400, /csv_file must be a CSV file/],
      ['binary.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08]), 400, /binary/],
      ['columns.csv', 'ticker,qty\nA,1\n', 400, /needs the columns symbol and shares/],
      ['big.csv', `symbol,shares,average_cost\n${'AAPL,1,1\n'.repeat(600)}`, 413, /big\.csv is larger than the limit of 4096 bytes per file/],
    ])('%s → %s', async (name, content, status, message) => {
      const { status: actual, body } = await upload(demo, '/api/portfolio/upload-csv', name, content);
      expect(actual).toBe(status);
      expect(body.success).toBe(false);
      expect(body.error).toMatch(message);
    });

    it('a request with another part instead of csv_file, or not multipart at all, is a 400', async () => {
      expect((await upload(demo, '/api/portfolio/upload-csv', 'a.csv', 'symbol,shares\nA,1\n', 'file')).body.error).toBe(
        "Unexpected part 'file': this upload takes one file named csv_file",
      );
      const notMultipart = await demo.json('POST', '/api/portfolio/upload-csv', { csv: 'symbol,shares' });
      expect(notMultipart.status).toBe(400);
      expect(notMultipart.body.error).toMatch(/multipart\/form-data/);
    });
  });

  describe('snapshots', () => {
    let manualId: number;

    it('POST records the holdings’ totals (MANUAL by default)', async () => {
      const holdings = (await demo.json('GET', '/api/portfolio/holdings')).body.holdings as any[];
      const { status, body } = await demo.json('POST', '/api/portfolio/snapshot', { notes: 'month end' });
      expect(status).toBe(201);
      // The priced holdings only: an unpriced one is left out of value, cost and gain, and counted.
      const priced = holdings.filter((h) => h.current_price !== null);
      const sum = (field: string) => priced.reduce((total, h) => total + CENTS(h[field]), 0) / 100;
      expect(body).toEqual({
        success: true,
        snapshot: {
          id: expect.any(Number),
          snapshot_time: expect.stringMatching(ISO_INSTANT),
          total_value: sum('current_value'),
          total_cost: sum('total_cost'),
          total_gain_loss: (CENTS(sum('current_value')) - CENTS(sum('total_cost'))) / 100,
          total_return_pct: expect.any(Number),
          holdings_count: holdings.length,
          unpriced_count: holdings.filter((h) => h.current_price === null).length,
        },
      });
      manualId = body.snapshot.id;
    });

    it('rejects an unknown snapshot_type', async () => {
      const { status, body } = await demo.json('POST', '/api/portfolio/snapshot', { snapshot_type: 'WEEKLY' });
      expect(status).toBe(400);
      expect(body.error).toBe('snapshot_type must be one of MANUAL, AUTOMATIC, EOD');
    });

    it('history lists snapshots newest first with type and notes; filters by type; validates days', async () => {
      await demo.json('POST', '/api/portfolio/snapshot', { snapshot_type: 'AUTOMATIC' });
      const all = (await demo.json('GET', '/api/portfolio/history')).body;
      expect(all.success).toBe(true);
      const mine = all.history.filter((s: any) => s.snapshot_type !== 'EOD');
      expect(mine.map((s: any) => [s.snapshot_type, s.notes])).toEqual([
        ['AUTOMATIC', ''],
        ['MANUAL', 'month end'],
      ]);
      const manual = (await demo.json('GET', '/api/portfolio/history?type=manual&days=0')).body.history;
      expect(manual.map((s: any) => s.id)).toEqual([manualId]);
      expect((await demo.json('GET', '/api/portfolio/history?days=abc')).status).toBe(400);
      expect((await other.json('GET', '/api/portfolio/history?days=0')).body.history.filter((s: any) => s.snapshot_type !== 'EOD')).toEqual([]);
    });

    it('DELETE names the snapshot’s type and time; another user’s id is a 404', async () => {
      expect(await other.json('DELETE', `/api/portfolio/snapshot/${manualId}`)).toEqual({ status: 404, body: { success: false, error: 'Snapshot not found' } });
      const history = (await demo.json('GET', '/api/portfolio/history?type=MANUAL')).body.history;
      const { status, body } = await demo.json('DELETE', `/api/portfolio/snapshot/${manualId}`);
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, message: `Deleted MANUAL snapshot taken at ${history[0].snapshot_time}` });
      expect((await demo.json('DELETE', `/api/portfolio/snapshot/${manualId}`)).status).toBe(404);
    });
  });

  describe('without a market-data provider key', () => {
    let bare: RunningService;
    let user: Session;

    beforeAll(async () => {
      bare = await startService({ env: { AUTHORIZED_USERS: 'demo@example.com', FINNHUB_API_KEY: undefined } });
      user = await signIn(bare, 'demo@example.com');
    });
    afterAll(async () => {
      await bare?.stop();
    });

    it('refresh-prices, validate-symbol and price say the provider key is not configured', async () => {
      const notConfigured = { success: false, error: 'Market-data provider API key not configured' };
      expect(await user.json('POST', '/api/portfolio/refresh-prices')).toEqual({ status: 503, body: notConfigured });
      expect(await user.json('GET', '/api/portfolio/validate-symbol/AAPL')).toEqual({ status: 503, body: notConfigured });
      expect(await user.json('GET', '/api/portfolio/price/AAPL')).toEqual({ status: 503, body: notConfigured });
    });

    it('holdings still work, unpriced', async () => {
      expect((await user.json('POST', '/api/portfolio/holdings', { symbol: 'AAPL', holding_type: 'stock', shares: 1, average_cost: 100 })).status).toBe(201);
      const { body } = await user.json('GET', '/api/portfolio/holdings');
      expect(body.holdings[0]).toMatchObject({ symbol: 'AAPL', current_price: null, current_value: null, total_cost: 100, price_stale: true, last_updated: null });
    });
  });
});
