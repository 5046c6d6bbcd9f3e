import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startService, type RunningService } from './support/service.js';
import { signIn, type SignedIn } from './support/sign-in.js';
import { ndjson } from './support/uploads.js';

interface Expected {
  transactions_inserted: number;
  months: Record<string, { total_trades: number; trading_profit_loss: number; total_dividends: number }>;
  positions: [string, number, number][];
  overlap_drops_line: number;
}

const FIXTURES = path.resolve(process.cwd(), 'test/fixtures');
const EXPECTED = JSON.parse(readFileSync(path.join(FIXTURES, 'broker-examples.expected.json'), 'utf8')) as { files: Record<string, Expected> };
const CASES = Object.entries(EXPECTED.files);

/**
 * Every broker example (docs/formats.md) through `POST /api/import` into a new account: the months and
 * the open positions come out as test/fixtures/broker-examples.expected.json says; the same file again
 * and an overlapping export (one data line left out) add nothing and change nothing.
 */
describe('each broker layout through POST /api/import', () => {
  let service: RunningService;
  const emails = CASES.map((_, index) => `broker${index}@example.com`);

  beforeAll(async () => {
    service = await startService({ env: { AUTHORIZED_USERS: [...emails, 'ghostfolio-json@example.com'].join(',') } });
  });
  afterAll(async () => {
    await service?.stop();
  });

  const importFile = async (session: SignedIn, name: string, content: string) => {
    const form = new FormData();
    form.append('files', new Blob([content]), name);
    return ndjson(await (await session.fetch('/api/import', { method: 'POST', body: form })).text());
  };
  const figures = async (session: SignedIn) => {
    const months = ((await (await session.fetch('/api/months')).json()) as any).months as any[];
    const positions = ((await (await session.fetch('/api/positions')).json()) as any).positions as any[];
    return {
      months: Object.fromEntries(
        months.map((month) => [month.month, { total_trades: month.total_trades, trading_profit_loss: month.trading_profit_loss, total_dividends: month.total_dividends }]),
      ),
      positions: positions.map((position) => [position.symbol, position.shares, position.cost_basis]),
    };
  };

  it.each(CASES.map(([file, expected], index) => ({ file, expected, email: emails[index] })))('$file', async ({ file, expected, email }) => {
    const session = await signIn(service, email);
    expect((await session.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
    const content = readFileSync(path.join(FIXTURES, file), 'utf8');
    const name = path.basename(file);
    const first = await importFile(session, name, content);
    expect(first.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: expected.transactions_inserted } });
    expect(await figures(session)).toEqual({ months: expected.months, positions: expected.positions });

    const again = await importFile(session, name, content);
    expect(again.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
    const lines = content.split('\n');
    const overlapping = [...lines.slice(0, expected.overlap_drops_line - 1), ...lines.slice(expected.overlap_drops_line)].join('\n');
    const later = await importFile(session, `overlap-${name}`, overlapping);
    expect(later.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
    expect(await figures(session)).toEqual({ months: expected.months, positions: expected.positions });
  });

  // Ghostfolio's export (its JSON) is read as the CSV of its activities: the same account gives the same figures.
  it('ghostfolio/export.json', async () => {
    const session = await signIn(service, 'ghostfolio-json@example.com');
    expect((await session.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1234' })).status).toBe(200);
    const content = readFileSync(path.join(FIXTURES, 'ghostfolio/export.json'), 'utf8');
    const form = new FormData();
    form.append('files', new Blob([content]), 'export.json');
    const preview = (await (await session.fetch('/api/import/preview', { method: 'POST', body: form })).json()) as any;
    expect(preview.files).toEqual([{ file: 'export.json', broker: 'Ghostfolio', label: 'Ghostfolio activities', kind: 'transactions', rows: 12, account: null, error: null }]);
    expect(preview.problem).toBeNull();
    const first = await importFile(session, 'export.json', content);
    expect(first.at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 12 }, detected: [{ file: 'export.json', broker: 'Ghostfolio', rows: 12 }] });
    const csv = EXPECTED.files['ghostfolio/activities.csv'];
    expect(await figures(session)).toEqual({ months: csv.months, positions: csv.positions });
    expect((await importFile(session, 'export.json', content)).at(-1)).toMatchObject({ type: 'success', stats: { transactions_inserted: 0 } });
    // A JSON file that is not such an export is refused before anything is read, in its own words.
    const refused = await session.fetch('/api/import', { method: 'POST', body: (() => {
      const bad = new FormData();
      bad.append('files', new Blob(['{"trades": []}']), 'trades.json');
      return bad;
    })() });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ type: 'error', message: expect.stringMatching(/^trades\.json: not a Ghostfolio export: /) });
    expect(await figures(session)).toEqual({ months: csv.months, positions: csv.positions });
  });
});
