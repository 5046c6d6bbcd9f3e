import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startService, type RunningService } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { exampleFiles, expected, fixture, ndjson, uploadForm, type UploadPart } from './support/uploads.js';

type Session = Awaited<ReturnType<typeof signIn>>;

const PROGRESS = [
  { type: 'progress', percentage: 25, message: 'Starting data processing...' },
  { type: 'progress', percentage: 40, message: 'Processing transaction history and realized gains...' },
  { type: 'progress', percentage: 60, message: 'Synchronizing with database...' },
  { type: 'progress', percentage: 80, message: 'Finalizing data import...' },
];

/**
 * Every case twice: imported on the main thread (an upload under IMPORT_THREAD_MIN_BYTES, the default
 * for these files) and on a worker thread of its own (IMPORT_THREAD_MIN_BYTES=0: every upload).
 */
describe.each([
  { where: 'on the main thread', env: { LOG_LEVEL: 'info' }, threaded: false },
  { where: 'on a thread of its own', env: { LOG_LEVEL: 'info', IMPORT_THREAD_MIN_BYTES: '0' }, threaded: true },
])('POST /api/upload-csv and GET /api/upload-history, imported $where', ({ env, threaded }) => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService({ env: { ...env, AUTHORIZED_USERS: 'trader@example.com,other@example.com,fresh@example.com,noaccount@example.com,robinhood@example.com,fidelity@example.com,anybroker@example.com,schwabany@example.com,ibkr@example.com,ibkrflex@example.com,fidelitypair@example.com,accounts@example.com,preview@example.com,vanguard@example.com,schwabtwice@example.com,ghostfolio@example.com' } });
  });
  afterAll(async () => {
    await service?.stop();
  });

  async function traderWithAccount(email: string, account = 'XXXX-1234'): Promise<Session> {
    const session = await signIn(service, email);
    expect((await session.json('PUT', '/auth/profile', { brokerage_account: account })).status).toBe(200);
    return session;
  }

  const upload = (session: Session, parts: Parameters<typeof uploadForm>[0]) =>
    session.fetch('/api/upload-csv', { method: 'POST', body: uploadForm(parts) });

  const history = async (session: Session) => ((await (await session.fetch('/api/upload-history')).json()) as any).history as any[];

  describe('the example files', () => {
    let trader: Session;
    beforeAll(async () => {
      trader = await traderWithAccount('trader@example.com');
    });

    it('streams the four progress lines and the statistics, as NDJSON', async () => {
      const response = await upload(trader, exampleFiles());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = ndjson(await response.text());
      expect(lines.slice(0, 4)).toEqual(PROGRESS);
      expect(lines[4]).toEqual({
        type: 'success',
        message: 'Successfully processed files',
        stats: expected().stats,
        // expected.json words it "line 23: 1 broker lot(s) for PEP 2024-05-28 sum to 102.5, not 119.0; FIFO used".
        warnings: [expect.stringMatching(/^line 23: 1 broker lot\(s\) for PEP 2024-05-28 sum to 102\.5, not 119; FIFO used$/)],
      });
      expect(lines).toHaveLength(5);
    });

    it('records the upload in the history, newest first, with the contract fields', async () => {
      const [entry] = await history(trader);
      expect(entry).toMatchObject({
        transaction_filename: 'transactions.csv',
        gains_filename: 'realized_gains.csv',
        transaction_file_size: fixture('schwab-example', 'transactions.csv').length,
        gains_file_size: fixture('schwab-example', 'realized_gains.csv').length,
        status: 'success',
        user_email: 'trader@example.com',
        account_id: expect.any(Number),
        brokerage_account: 'XXXX-1234',
        transactions_processed: expected().upload.transactions_processed,
        months_updated: expected().upload.months_updated,
      });
      expect(new Date(entry.timestamp).toISOString()).toBe(entry.timestamp);
    });

    it('re-importing the same files adds nothing and updates no month', async () => {
      const lines = ndjson(await (await upload(trader, exampleFiles())).text());
      expect(lines.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
      const [latest, first] = await history(trader);
      expect(latest).toMatchObject({ status: 'success', months_updated: 0, transactions_processed: 75 });
      expect(first.months_updated).toBe(4);
    });

    it('accepts the plain layout (no BOM, title or footer; LF line ends) as the same data', async () => {
      const plain = (buffer: Buffer) =>
        buffer
          .toString('utf8')
          .replace(/^\uFEFF/, '')
          .split(/\r\n/)
          .filter((line, index) => !(index === 0 && line.startsWith('"Transactions  for')) && !line.startsWith('"Transactions Total"'))
          .join('\n');
      const files = exampleFiles();
      const lines = ndjson(
        await (
          await upload(trader, {
            transaction_history_file: { name: 'plain.csv', content: plain(files.transaction_history_file.content as Buffer) },
            realized_gains_file: files.realized_gains_file,
          })
        ).text(),
      );
      expect(lines.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
    });
  });

  describe('refusals before the stream starts (plain 400 with {type, message})', () => {
    let trader: Session;
    beforeAll(async () => {
      trader = await traderWithAccount('other@example.com', 'YYYY-9999');
    });

    const expect400 = async (response: Response, message: RegExp | string) => {
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await response.json()) as any;
      expect(body.type).toBe('error');
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
    };

    it('without a brokerage account number in the profile', async () => {
      const session = await signIn(service, 'noaccount@example.com');
      await expect400(await upload(session, exampleFiles()), 'Brokerage account number not set. Please update your profile.');
    });

    it('when a file part is missing, or the body is not multipart', async () => {
      const { transaction_history_file } = exampleFiles();
      await expect400(await upload(trader, { transaction_history_file }), 'Both transaction history and realized gains files are required');
      const notMultipart = await trader.fetch('/api/upload-csv', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await expect400(notMultipart, 'Both transaction history and realized gains files are required');
    });

    it.each([
      ['statement.xlsx', Buffer.from('PK\u0003\u0004 not a csv'), 'statement.xlsx: not a .csv file'],
      ['empty.csv', fixture('bad', 'empty.csv'), 'empty.csv, line 1: file is empty'],
      ['binary.csv', fixture('bad', 'binary.csv'), 'binary.csv, line 1: binary content, not a CSV text file'],
    ])("a file that is not CSV (%s): the contract's exact message, the file and reason as `detail`", async (name, content, detail) => {
      const response = await upload(trader, { ...exampleFiles(), transaction_history_file: { name, content } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ type: 'error', message: 'Both files must be CSV files', detail });
    });
  });

  describe('broken files end the stream with an error naming file and line, and import nothing', () => {
    let fresh: Session;
    beforeAll(async () => {
      fresh = await traderWithAccount('fresh@example.com', 'ZZZZ-0001');
    });

    const cases: [string, keyof ReturnType<typeof exampleFiles>, UploadPart, RegExp][] = [
      ['bad_number.csv', 'transaction_history_file', { name: 'bad_number.csv', content: fixture('bad', 'bad_number.csv') }, /^bad_number\.csv, line 11: column 'Amount': cannot read '-\$12\.3\.4' as a number$/],
      ['truncated.csv', 'transaction_history_file', { name: 'truncated.csv', content: fixture('bad', 'truncated.csv') }, /^truncated\.csv, line 48: /],
      ['gains_bad_date.csv', 'realized_gains_file', { name: 'gains_bad_date.csv', content: fixture('bad', 'gains_bad_date.csv') }, /^gains_bad_date\.csv, line 5: column 'Closed Date': '13\/45\/2024' is not a valid date$/],
      ['wrong_header.csv', 'transaction_history_file', { name: 'wrong_header.csv', content: fixture('bad', 'wrong_header.csv') }, /^wrong_header\.csv, line 1: .*header/i],
      ['swapped files', 'transaction_history_file', { name: 'realized_gains.csv', content: fixture('schwab-example', 'realized_gains.csv') }, /^realized_gains\.csv, line 2: .*swapped/],
    ];

    it.each(cases)('%s', async (_label, part, file, message) => {
      const response = await upload(fresh, { ...exampleFiles(), [part]: file });
      expect(response.status).toBe(200);
      const lines = ndjson(await response.text());
      const last = lines.at(-1);
      expect(last.type).toBe('error');
      expect(last.message).toMatch(message);
      expect(lines.filter((line) => line.type === 'success')).toHaveLength(0);
      const [entry] = await history(fresh);
      expect(entry).toMatchObject({ status: 'failed', transaction_filename: expect.any(String), months_updated: 0 });
    });

    it('after all those failures the account is still empty: the good files insert every row', async () => {
      const lines = ndjson(await (await upload(fresh, exampleFiles())).text());
      expect(lines.at(-1)).toMatchObject({ type: 'success', message: 'Successfully processed files', stats: expected().stats });
    });
  });

  describe('more bad input', () => {
    let trader: Session;
    const HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
    beforeAll(async () => {
      trader = await traderWithAccount('other@example.com', 'YYYY-9999');
    });
    const withTransactions = (name: string, content: string | Buffer) =>
      upload(trader, { ...exampleFiles(), transaction_history_file: { name, content } });
    const lastLine = async (response: Response) => ndjson(await response.text()).at(-1);

    it('a header with no rows', async () => {
      expect(await lastLine(await withTransactions('header_only.csv', `${HEADER}\r\n`))).toMatchObject({
        type: 'error',
        message: expect.stringMatching(/^header_only\.csv, line \d+: /),
      });
    });

    it('the header repeated inside the file', async () => {
      const text = `${HEADER}\n"06/03/2024","Buy","NVDA","NVIDIA CORP","1","$100.00","","-$100.00"\n${HEADER}\n`;
      expect(await lastLine(await withTransactions('twice.csv', text))).toMatchObject({
        type: 'error',
        message: expect.stringMatching(/^twice\.csv, line 3: /),
      });
    });

    it('a negative quantity', async () => {
      const text = `${HEADER}\n"06/03/2024","Buy","NVDA","NVIDIA CORP","-5","$100.00","","-$500.00"\n`;
      expect(await lastLine(await withTransactions('negative.csv', text))).toMatchObject({
        type: 'error',
        message: expect.stringMatching(/^negative\.csv, line 2: column 'Quantity'/),
      });
    });

    it('a date like 13/45/2024', async () => {
      const text = `${HEADER}\n"13/45/2024","Buy","NVDA","NVIDIA CORP","5","$100.00","","-$500.00"\n`;
      expect(await lastLine(await withTransactions('date.csv', text))).toMatchObject({
        type: 'error',
        message: "date.csv, line 2: column 'Date': '13/45/2024' is not a valid date",
      });
    });

    it('a sale with no prior purchase is imported and reported, not a crash', async () => {
      const text = `${HEADER}\n"01/05/2021","Sell","ZZZZ","ZZZZ CORP","5","$10.00","","$50.00"\n`;
      const last = await lastLine(await withTransactions('orphan_sell.csv', text));
      expect(last.type).toBe('success');
      expect(last.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^line 2: .*ZZZZ/)]));
    });

    it('an Excel re-save with semicolons and Windows line ends is the same data', async () => {
      const resaved = fixture('schwab-example', 'transactions.csv')
        .toString('utf8')
        .split('\r\n')
        .map((line) => line.replace(/","/g, '";"'))
        .join('\r\n');
      const last = await lastLine(await withTransactions('resaved.csv', resaved));
      expect(last).toMatchObject({ type: 'success', stats: { transactions_inserted: 75 } });
    });

    it('a 60 MB file is refused with 413 before anything is imported', async () => {
      const big = Buffer.alloc(60 * 1024 * 1024, '"06/03/2024","Buy","NVDA","NVIDIA CORP","1","$1.00","","-$1.00"\n');
      const response = await withTransactions('huge.csv', big);
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ type: 'error', message: 'huge.csv is larger than the limit of 50 MB per file' });
    });
  });

  it('a file over UPLOAD_MAX_BYTES is refused with 413 and a clear message', async () => {
    const small = await startService({ env: { AUTHORIZED_USERS: 'trader@example.com', UPLOAD_MAX_BYTES: '4096' } });
    try {
      const session = await signIn(small, 'trader@example.com');
      expect((await session.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
      const response = await session.fetch('/api/upload-csv', { method: 'POST', body: uploadForm(exampleFiles()) });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ type: 'error', message: 'transactions.csv is larger than the limit of 4096 bytes per file' });
    } finally {
      await small.stop();
    }
  });

  it('requires a session', async () => {
    const response = await fetch(`${service.url}/api/upload-history`);
    expect(response.status).toBe(401);
    expect((await fetch(`${service.url}/api/import/formats`)).status).toBe(401);
  });

  it("the contract's endpoint imports a file that names its account into the profile's account (the default)", async () => {
    const session = await traderWithAccount('vanguard@example.com');
    const noLots = fixture('schwab-example', 'realized_gains.csv').toString('utf8').split('\n').slice(0, 2).join('\n');
    const lines = ndjson(
      await (
        await upload(session, {
          transaction_history_file: { name: 'vanguard.csv', content: readFileSync(path.resolve(process.cwd(), 'test/fixtures/vanguard/transactions.csv')) },
          realized_gains_file: { name: 'realized_gains.csv', content: noLots },
        })
      ).text(),
    );
    expect(lines.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 9 } });
    const accounts = ((await (await session.fetch('/api/accounts')).json()) as any).accounts as any[];
    expect(accounts.map((a) => a.account_number)).toEqual(['XXXX-1234']);
    const [entry] = await history(session);
    expect(entry).toMatchObject({ transaction_filename: 'vanguard.csv', brokerage_account: 'XXXX-1234', status: 'success' });
  });

  it.each([
    ['Robinhood activity report', 'robinhood', 'activity.csv'],
    ['Fidelity accounts history', 'fidelity', 'history.csv'],
  ])('imports a %s as the transaction history: FIFO trades, the dividend, the open lot, and what it did not count', async (_, broker, file) => {
    const session = await traderWithAccount(`${broker}@example.com`);
    const activity = readFileSync(path.resolve(process.cwd(), 'test/fixtures', broker, file));
    // A Lot Details export of a period without sales: its title and header only.
    const noLots = fixture('schwab-example', 'realized_gains.csv').toString('utf8').split('\n').slice(0, 2).join('\n');
    const lines = ndjson(
      await (
        await upload(session, {
          transaction_history_file: { name: file, content: activity },
          realized_gains_file: { name: 'realized_gains.csv', content: noLots },
        })
      ).text(),
    );
    const done = lines.at(-1);
    expect(done).toMatchObject({ type: 'success', stats: { transactions_inserted: 11, realized_gains_lots: 0, broker_verified_trades: 0 } });
    // The transfer, the interest and the option rows, reported by kind.
    expect(done.warnings).toHaveLength(4);
    const trades = (((await (await session.fetch('/api/trades?all=true&limit=100')).json()) as any).trades as any[]).sort(
      (a, b) => a.close_date.localeCompare(b.close_date) || b.volume - a.volume,
    );
    expect(trades.map((t) => [t.symbol, t.volume, t.source, t.total_profit_loss])).toEqual([
      ['AAPL', 10, 'fifo', expect.any(Number)],
      ['AAPL', 2, 'fifo', expect.any(Number)],
      ['NVDA', 20, 'fifo', 700],
    ]);
    expect(Math.round((trades[0].total_profit_loss + trades[1].total_profit_loss) * 100)).toBe(-16025);
    const positions = ((await (await session.fetch('/api/positions')).json()) as any).positions as any[];
    expect(positions.map((p) => [p.symbol, p.shares, p.cost_basis, p.lot_source])).toEqual([['AAPL', 3, 525.3, 'fifo']]);
    const february = (await (await session.fetch('/api/month/2024-02')).json()) as any;
    expect(february.summary.total_dividends).toBe(2.4);
  });

  describe('POST /api/import: any broker, detected from the content', () => {
    const importFiles = (session: Session, files: UploadPart[], fields: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      for (const file of files) form.append('files', new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)]), file.name);
      return session.fetch('/api/import', { method: 'POST', body: form });
    };
    const robinhood = (name = 'activity.csv'): UploadPart => ({ name, content: readFileSync(path.resolve(process.cwd(), 'test/fixtures/robinhood/activity.csv')) });

    it("the Schwab pair, in either order and under any names, gives expected.json's figures and says what it detected", async () => {
      const session = await traderWithAccount('schwabany@example.com');
      const files = exampleFiles();
      const response = await importFiles(session, [
        { name: 'b.csv', content: files.realized_gains_file.content },
        { name: 'a.csv', content: files.transaction_history_file.content },
      ]);
      const lines = ndjson(await response.text());
      expect(lines.slice(0, 4)).toEqual(PROGRESS);
      expect(lines[4]).toMatchObject({
        type: 'success',
        stats: expected().stats,
        detected: [
          { file: 'a.csv', broker: 'Charles Schwab', kind: 'transactions', rows: expected().upload.transactions_processed },
          { file: 'b.csv', broker: 'Charles Schwab', kind: 'realized-lots', rows: expected().stats.realized_gains_lots },
        ],
      });
      const months = ((await (await session.fetch('/api/months')).json()) as any).months as any[];
      for (const month of months) {
        const wanted = expected().month_summaries[month.month];
        expect([month.month, month.trading_profit_loss, month.total_dividends]).toEqual([month.month, wanted.trading_profit_loss, wanted.total_dividends]);
      }
      expect(months).toHaveLength(Object.keys(expected().month_summaries).length);
    });

    it('the same Schwab pair into a second account is read there in full: the days one account holds are its own', async () => {
      const session = await traderWithAccount('schwabtwice@example.com');
      const files = () => [
        { name: 'transactions.csv', content: exampleFiles().transaction_history_file.content },
        { name: 'realized_gains.csv', content: exampleFiles().realized_gains_file.content },
      ];
      const first = ndjson(await (await importFiles(session, files())).text()).at(-1);
      expect(first).toMatchObject({ type: 'success', stats: expected().stats });
      // Every day of the second upload is one the user's imports read before, in the other account.
      const second = ndjson(await (await importFiles(session, files(), { account: 'OTHER-1' })).text()).at(-1);
      expect(second).toMatchObject({ type: 'success', stats: expected().stats, detected: [{ account: 'OTHER-1' }, { account: 'OTHER-1' }] });
      const again = ndjson(await (await importFiles(session, files(), { account: 'OTHER-1' })).text()).at(-1);
      expect(again).toMatchObject({ type: 'success', stats: { ...expected().stats, transactions_inserted: 0 } });
    });

    it('a Robinhood report alone: every trade FIFO, the history records no lots file', async () => {
      const session = await traderWithAccount('anybroker@example.com');
      const lines = ndjson(await (await importFiles(session, [robinhood()])).text());
      expect(lines.at(-1)).toMatchObject({
        type: 'success',
        stats: { transactions_inserted: 11, realized_gains_lots: 0, broker_verified_trades: 0 },
        detected: [{ file: 'activity.csv', broker: 'Robinhood', kind: 'transactions', rows: 11 }],
      });
      const [entry] = await history(session);
      expect(entry).toMatchObject({ transaction_filename: 'activity.csv', gains_filename: '', status: 'success' });
      // The same file again: nothing new.
      const again = ndjson(await (await importFiles(session, [robinhood()])).text());
      expect(again.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
    });

    it("Ghostfolio's export, a JSON file, beside a CSV file of another account: read as the CSV of its activities", async () => {
      const session = await traderWithAccount('ghostfolio@example.com');
      const exported = { name: 'ghostfolio.json', content: readFileSync(path.resolve(process.cwd(), 'test/fixtures/ghostfolio/export.json')) };
      const lines = ndjson(await (await importFiles(session, [exported, robinhood()], { account: 'GF-1' })).text());
      expect(lines.at(-1)).toMatchObject({
        type: 'success',
        stats: { transactions_inserted: 23 },
        detected: [
          { file: 'ghostfolio.json', broker: 'Ghostfolio', kind: 'transactions', rows: 12, account: 'GF-1' },
          { file: 'activity.csv', broker: 'Robinhood', kind: 'transactions', rows: 11, account: 'GF-1' },
        ],
      });
      expect((await history(session)).map((entry) => entry.transaction_filename).sort()).toEqual(['activity.csv', 'ghostfolio.json']);
      // The Schwab endpoint takes CSV files only, as the contract says.
      const schwab = await upload(session, { transaction_history_file: exported, realized_gains_file: exampleFiles().realized_gains_file });
      expect(schwab.status).toBe(400);
      expect(await schwab.json()).toEqual({ type: 'error', message: 'Both files must be CSV files', detail: 'ghostfolio.json: not a .csv file' });
    });

    it("Fidelity's history and its realized gain/loss, paired by content: the broker's lots decide the sales", async () => {
      const session = await traderWithAccount('fidelitypair@example.com');
      const fidelity = (file: string, name: string): UploadPart => ({ name, content: readFileSync(path.resolve(process.cwd(), 'test/fixtures/fidelity', file)) });
      const lines = ndjson(await (await importFiles(session, [fidelity('realized-gain-loss.csv', 'gains.csv'), fidelity('history.csv', 'history.csv')])).text());
      expect(lines.at(-1)).toMatchObject({
        type: 'success',
        stats: { transactions_inserted: 11, realized_gains_lots: 3, broker_verified_trades: 3 },
        detected: [
          { file: 'history.csv', broker: 'Fidelity', kind: 'transactions', rows: 11 },
          { file: 'gains.csv', broker: 'Fidelity', kind: 'realized-lots', rows: 3 },
        ],
      });
      const positions = ((await (await session.fetch('/api/positions')).json()) as any).positions as any[];
      expect(positions.map((p) => [p.symbol, p.shares, p.cost_basis, p.lot_source])).toEqual([['AAPL', 3, 555, 'broker']]);
    });

    it('Interactive Brokers: closed lots decide the sales; a day listed oldest first stays in time order when matched again from the stored rows', async () => {
      const ibkr = (file: string): UploadPart => ({ name: file, content: readFileSync(path.resolve(process.cwd(), 'test/fixtures/interactive-brokers', file)) });
      const tradesOf = async (session: Session) =>
        (((await (await session.fetch('/api/trades?limit=100')).json()) as any).trades as any[]).map((t) => [t.symbol, t.source, t.total_profit_loss]).sort();
      const statement = await traderWithAccount('ibkr@example.com');
      const lines = ndjson(await (await importFiles(statement, [ibkr('activity-statement.csv')])).text());
      expect(lines.at(-1)).toMatchObject({
        type: 'success',
        stats: { transactions_inserted: 11, realized_gains_lots: 4, broker_verified_trades: 4 },
        detected: [{ file: 'activity-statement.csv', broker: 'Interactive Brokers', kind: 'transactions', rows: 15 }],
      });
      expect(await tradesOf(statement)).toEqual([['AAPL', 'broker', -106.28], ['AAPL', 'broker', -26.92], ['NVDA', 'broker', 698], ['TSLA', 'broker', 18]]);
      const positions = ((await (await statement.fetch('/api/positions')).json()) as any).positions as any[];
      expect(positions.map((p) => [p.symbol, p.shares, p.cost_basis])).toEqual([['AAPL', 3, 555.3]]);

      // The Flex file's TSLA day trade is matched FIFO: read in the wrong order it would be a short.
      const flex = await traderWithAccount('ibkrflex@example.com');
      const first = ndjson(await (await importFiles(flex, [ibkr('flex-trades.csv')])).text());
      expect(first.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 9, realized_gains_lots: 2, broker_verified_trades: 2 }, warnings: expect.any(Array) });
      const trades = await tradesOf(flex);
      expect(trades).toEqual([['AAPL', 'broker', -106.28], ['AAPL', 'broker', -26.92], ['NVDA', 'fifo', 698], ['TSLA', 'fifo', 18]]);
      const again = ndjson(await (await importFiles(flex, [ibkr('flex-trades.csv')])).text());
      expect(again.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
      expect(await tradesOf(flex)).toEqual(trades);
    });

    it('several accounts in one upload: each history goes to the account it carries, else the account field; reports show all or one', async () => {
      const session = await traderWithAccount('accounts@example.com');
      const part = (file: string, name = file.split('/')[1]): UploadPart => ({ name, content: readFileSync(path.resolve(process.cwd(), 'test/fixtures', file)) });
      const lines = ndjson(await (await importFiles(session, [part('vanguard/transactions.csv'), part('etrade/transactions.csv', 'etrade.csv'), part('robinhood/activity.csv')], { account: 'RH-1' })).text());
      expect(lines.at(-1)).toMatchObject({
        type: 'success',
        detected: [
          { file: 'transactions.csv', broker: 'Vanguard', kind: 'transactions', account: '12345678' },
          { file: 'etrade.csv', broker: 'E*TRADE', kind: 'transactions', account: 'XXXX5678' },
          { file: 'activity.csv', broker: 'Robinhood', kind: 'transactions', account: 'RH-1' },
        ],
      });
      const accounts = ((await (await session.fetch('/api/accounts')).json()) as any).accounts as any[];
      expect(accounts.map((a) => [a.account_number, a.default])).toEqual([['XXXX-1234', true], ['12345678', false], ['RH-1', false], ['XXXX5678', false]]);
      // The default account cannot take the number of another of the trader's accounts.
      const rename = await session.json('PUT', '/auth/profile', { brokerage_account: 'RH-1' });
      expect(rename.status).toBe(409);
      expect(rename.body.error).toBe('You already have an account numbered RH-1 (from an import); choose another number for the default account');
      const aprilOf = async (query: string) => {
        const response = await session.fetch(`/api/month/2024-04${query}`);
        return { status: response.status, body: (await response.json()) as any };
      };
      // Each account sold 12 AAPL in April: -160.25 in each (three accounts), all of them together by default.
      expect((await aprilOf('')).body.summary.trading_profit_loss).toBe(-480.75);
      expect((await aprilOf('?account=RH-1')).body.summary.trading_profit_loss).toBe(-160.25);
      expect((await aprilOf('?account=RH-1')).body.trades).toHaveLength(2);
      expect(await aprilOf('?account=NOPE')).toMatchObject({ status: 404, body: { error: 'You have no brokerage account numbered "NOPE"' } });
      const history = (await (await session.fetch('/api/upload-history')).json()) as any;
      expect(history.history.map((entry: any) => [entry.transaction_filename, entry.brokerage_account, entry.status])).toEqual(
        expect.arrayContaining([['transactions.csv', '12345678', 'success'], ['etrade.csv', 'XXXX5678', 'success'], ['activity.csv', 'RH-1', 'success']]),
      );

      // All or nothing: a broken second history fails the upload; the first's account is not created either.
      const broken: UploadPart = { name: 'broken.csv', content: 'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time\nX,AAPL,Hold,Filled,1,1,@1,1,DAY,01/03/2024 09:35:00 EST,01/03/2024 09:35:00 EST\n' };
      const failed = ndjson(await (await importFiles(session, [part('tastytrade/transactions.csv'), broken], { account: 'NEW-1' })).text());
      expect(failed.at(-1)).toMatchObject({ type: 'error', message: expect.stringMatching(/^broken\.csv, line 2: column 'Side'/) });
      expect((((await (await session.fetch('/api/accounts')).json()) as any).accounts as any[]).map((a) => a.account_number)).not.toContain('NEW-1');
      expect((await aprilOf('')).body.summary.trading_profit_loss).toBe(-480.75);
    });

    it('previews an upload without importing it: each file\'s broker, kind, rows and account, or why it would be refused', async () => {
      const session = await traderWithAccount('preview@example.com');
      const part = (file: string, name = file.split('/')[1]): UploadPart => ({ name, content: readFileSync(path.resolve(process.cwd(), 'test/fixtures', file)) });
      const preview = async (files: UploadPart[]) => {
        const form = new FormData();
        for (const file of files) form.append('files', new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)]), file.name);
        const response = await session.fetch('/api/import/preview', { method: 'POST', body: form });
        return { status: response.status, body: (await response.json()) as any };
      };
      const first = await preview([part('interactive-brokers/flex-trades.csv'), part('robinhood/activity.csv'), { name: 'notes.csv', content: 'a,b,c\n1,2,3\n' }]);
      expect(first).toMatchObject({
        status: 200,
        body: {
          success: true,
          files: [
            { file: 'flex-trades.csv', broker: 'Interactive Brokers', label: 'Interactive Brokers Flex Query Trades', kind: 'transactions', rows: 9, account: 'U1234567', error: null },
            { file: 'activity.csv', broker: 'Robinhood', label: 'Robinhood Account Activity', kind: 'transactions', rows: 11, account: null, error: null },
            { file: 'notes.csv', broker: null, label: null, kind: null, rows: null, account: null, error: expect.stringMatching(/^notes\.csv, line 1: header not recognised/) },
          ],
          problem: null,
        },
      });
      const lotsAlone = await preview([part('fidelity/realized-gain-loss.csv')]);
      expect(lotsAlone.body).toMatchObject({ files: [{ broker: 'Fidelity', kind: 'realized-lots', rows: 3, error: null }], problem: 'A transaction history is required beside realized-gain-loss.csv' });
      expect((await preview([])).status).toBe(400);
      // Nothing was imported.
      expect(((await (await session.fetch('/api/months')).json()) as any).months).toEqual([]);
      expect(await history(session)).toEqual([]);
    });

    it('refuses, before anything is written: no file, an unknown layout, lots of another broker or of two histories, lots alone, not CSV, a bad account', async () => {
      const session = await traderWithAccount('anybroker@example.com');
      const refusal = async (files: UploadPart[], fields: Record<string, string> = {}) => {
        const response = await importFiles(session, files, fields);
        return { status: response.status, body: (await response.json()) as any };
      };
      const lots = exampleFiles().realized_gains_file;
      expect(await refusal([])).toEqual({ status: 400, body: { type: 'error', message: "Send the broker's transaction history in the files field (and its realized lots, where the broker gives them)" } });
      expect(await refusal([{ name: 'notes.csv', content: 'a,b,c\n1,2,3\n' }])).toEqual({
        status: 400,
        body: { type: 'error', message: 'notes.csv: not a layout the import knows (supported: Charles Schwab, Fidelity, Interactive Brokers, Robinhood, E*TRADE, Webull, Tastytrade, Vanguard, TD Ameritrade, Firstrade, thinkorswim, Merrill Edge, Lightspeed, Ghostfolio, Tradervue, moomoo, Executions template; GET /api/import/formats lists their columns)' },
      });
      const schwab = exampleFiles().transaction_history_file;
      expect((await refusal([{ ...schwab, name: 'one.csv' }, { ...schwab, name: 'two.csv' }, lots])).body.message).toBe(
        'realized_gains.csv: which Charles Schwab history do these lots go with (one.csv, two.csv)? Send a broker\'s lots with only one of its histories',
      );
      expect((await refusal([robinhood()], { account: '<b>' })).body.message).toBe(
        "The account field is not an account number: it may contain only letters, digits, spaces, '.', '-' and '_'",
      );
      expect((await refusal([robinhood(), lots])).body.message).toBe(
        "realized_gains.csv (Charles Schwab realized lots) does not go with activity.csv (Robinhood transactions): send a broker's lots with its own history",
      );
      expect((await refusal([lots])).body.message).toBe('A transaction history is required beside realized_gains.csv');
      expect(await refusal([{ name: 'activity.txt', content: 'x' }])).toMatchObject({ status: 400, body: { message: 'Every file must be a CSV file' } });
      const seven = Array.from({ length: 7 }, (_, index) => robinhood(`${index}.csv`));
      expect((await refusal(seven)).body.message).toBe('Too many parts: this upload takes up to 6 files named files (and account)');
      // Only the one successful import of the test before is in the history.
      expect((await history(session)).filter((entry: any) => entry.status === 'success')).toHaveLength(2);
    });
  });

  it('lists the layouts it detects, with the columns each expects (docs/formats.md)', async () => {
    const session = await signIn(service, 'fresh@example.com');
    const body = (await (await session.fetch('/api/import/formats')).json()) as any;
    expect(body.formats.map((f: any) => [f.id, f.broker, f.kind])).toEqual([
      ['schwab-transactions', 'Charles Schwab', 'transactions'],
      ['schwab-realized-lot-details', 'Charles Schwab', 'realized-lots'],
      ['fidelity-history', 'Fidelity', 'transactions'],
      ['fidelity-realized-lots', 'Fidelity', 'realized-lots'],
      ['ibkr-flex-trades', 'Interactive Brokers', 'transactions'],
      ['ibkr-activity-statement', 'Interactive Brokers', 'transactions'],
      ['robinhood-activity', 'Robinhood', 'transactions'],
      ['etrade-transactions', 'E*TRADE', 'transactions'],
      ['webull-orders', 'Webull', 'transactions'],
      ['tastytrade-transactions', 'Tastytrade', 'transactions'],
      ['vanguard-transactions', 'Vanguard', 'transactions'],
      ['td-ameritrade-transactions', 'TD Ameritrade', 'transactions'],
      ['firstrade-history', 'Firstrade', 'transactions'],
      ['thinkorswim-statement', 'thinkorswim', 'transactions'],
      ['merrill-edge-activity', 'Merrill Edge', 'transactions'],
      ['lightspeed-blotter', 'Lightspeed', 'transactions'],
      ['ghostfolio-activities', 'Ghostfolio', 'transactions'],
      ['tradervue-trades', 'Tradervue', 'transactions'],
      ['moomoo-history', 'moomoo', 'transactions'],
      ['executions-template', 'Executions template', 'transactions'],
    ]);
    const robinhood = body.formats.find((f: any) => f.id === 'robinhood-activity');
    expect(robinhood.columns.map((c: any) => c.name)).toEqual(['Activity Date', 'Process Date', 'Settle Date', 'Instrument', 'Description', 'Trans Code', 'Quantity', 'Price', 'Amount']);
  });

  it('ran the imports above where this variant says (ThreadedImports logs each one it hands to a thread)', () => {
    expect(service.output().includes('import on a thread of its own')).toBe(threaded);
  });
});
