import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Database, MIGRATIONS } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { Decimal } from '@app/shared/domain';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../../../test/support/test-database.js';
import type { AccountLedger, LedgerTrade } from '../../application/trade-ledger.port.js';
import { JournalService } from '../../application/journal.service.js';
import { tagNameOf } from '../../domain/journal.js';
import { tradeIds } from '../../domain/trade-list.js';
import { aTrade } from '../../testing/in-memory-trade-reports.js';
import { ReportDataChanges } from './report-data-changes.js';
import { SqlTradeJournal } from './sql-trade-journal.js';
import { SqlTradeLedger } from './sql-trade-ledger.js';

const d = (text: string) => Decimal.parse(text);

/** A sale of `shares` closing fill `fill` on 2025-03-10, as one trade per lot of `lots` shares. */
function sale(fill: string, lots: readonly number[], source: 'fifo' | 'broker'): LedgerTrade[] {
  return lots.map((shares, index) => ({
    ...aTrade({ symbol: 'NVDA', closeDate: '2025-03-10', openDate: `2025-01-0${index + 1}`, source, totalProfitLoss: d(String(shares)) }),
    volume: d(String(shares)),
    txFingerprint: fill,
  }));
}

/**
 * The journal against a real database (embedded, or the server when DATABASE_URL is set): where tags
 * and notes go when an import splits, merges or drops the trades of a closing fill (docs/api.md "Journal").
 */
describe('SqlTradeJournal (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;
  let journal: SqlTradeJournal;
  let ledger: SqlTradeLedger;
  let userId: number;
  let otherId: number;
  let accountId: number;

  const ledgerOf = (trades: LedgerTrade[]): AccountLedger => ({ trades, dividends: [], positions: [], companyNames: new Map() });
  const store = async (trades: LedgerTrade[]) => {
    await database.inTransaction(() => ledger.replaceAccount(userId, accountId, ledgerOf(trades)));
    return tradeIds(accountId, trades);
  };
  const tags = (...names: string[]) => names.map((name) => tagNameOf(name));
  const journalOf = async (ids: readonly string[]) => {
    const annotations = await journal.annotations(userId, ids);
    const notes = await Promise.all(ids.map(async (id) => (await journal.note(userId, id))?.note ?? null));
    return ids.map((id, index) => [annotations.get(id)?.tags ?? [], notes[index]]);
  };

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-journal-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    database = new Database(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url }), { entities: [], migrations: MIGRATIONS });
    await database.onApplicationBootstrap();
    const changes = new ReportDataChanges();
    journal = new SqlTradeJournal(database, changes);
    ledger = new SqlTradeLedger(database, changes);
    const [user] = await database.manager.query(`INSERT INTO users (email) VALUES ('journal@example.com') RETURNING id`);
    const [other] = await database.manager.query(`INSERT INTO users (email) VALUES ('other@example.com') RETURNING id`);
    const [account] = await database.manager.query(`INSERT INTO brokerage_accounts (user_id, account_number) VALUES ($1, 'J-1') RETURNING id`, [user.id]);
    userId = Number(user.id);
    otherId = Number(other.id);
    accountId = Number(account.id);
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('moves tags and notes to every trade of the same closing fill when a re-import splits or merges its trades', async () => {
    const [fifo] = await store(sale('fill-a', [100], 'fifo'));
    expect(await journal.setTags(userId, fifo, tags('Breakout', 'late exit'))).toEqual(['Breakout', 'late exit']);
    await journal.setNote(userId, fifo, 'Took the gap.');

    // Lot details arrive: one FIFO trade becomes three broker trades of the same sale.
    const split = await store(sale('fill-a', [60, 30, 10], 'broker'));
    expect(await journalOf([fifo, ...split])).toEqual([
      [[], null],
      [['Breakout', 'late exit'], 'Took the gap.'],
      [['Breakout', 'late exit'], 'Took the gap.'],
      [['Breakout', 'late exit'], 'Took the gap.'],
    ]);

    // A later file merges the first and last into one: tags united, distinct notes joined; the
    // trade it derives again as it was (the same id) keeps its own journal.
    await journal.setTags(userId, split[1], tags('Breakout', 'late exit', 'size'));
    await journal.setNote(userId, split[2], 'Should have held.');
    await journal.setTags(userId, split[2], tags('scaled out'));
    const merged = await store(sale('fill-a', [70, 30], 'broker'));
    expect(merged[1]).toBe(split[1]);
    expect(await journalOf(merged)).toEqual([
      [['Breakout', 'late exit', 'scaled out'], 'Took the gap.\n\nShould have held.'],
      [['Breakout', 'late exit', 'size'], 'Took the gap.'],
    ]);
    expect(await journal.orphans(userId)).toEqual([]);
  });

  it('keeps the journal of a trade whose closing fill no import derives any more, as an orphan, until it is discarded', async () => {
    const [kept] = await store(sale('fill-b', [50], 'fifo'));
    // The trades of the first test are gone with that import: their journal is kept, as orphans.
    const earlier = await journal.orphans(userId);
    expect(earlier.map((orphan) => orphan.tags)).toEqual([
      ['Breakout', 'late exit', 'scaled out'],
      ['Breakout', 'late exit', 'size'],
    ]);
    for (const orphan of earlier) expect(await journal.discardOrphan(userId, orphan.tradeId)).toBe(true);
    await journal.setTags(userId, kept, tags('earnings'));
    await journal.setNote(userId, kept, 'Gone soon.');
    const [other] = await store(sale('fill-c', [51], 'fifo'));
    expect(await journalOf([other])).toEqual([[[], null]]);
    const orphans = await journal.orphans(userId);
    expect(orphans.map((orphan) => [orphan.tradeId, orphan.symbol, orphan.closeDate, orphan.tags, orphan.note])).toEqual([
      [kept, 'NVDA', '2025-03-10', ['earnings'], 'Gone soon.'],
    ]);
    // Its note can still be read by id, and the trade's tags still count nowhere.
    expect((await journal.note(userId, kept))?.note).toBe('Gone soon.');
    expect((await journal.tags(userId)).find((tag) => tag.key === 'earnings')).toMatchObject({ totalTrades: 0 });
    // The trade coming back (the same id) finds its journal again.
    await store(sale('fill-b', [50], 'fifo'));
    expect(await journal.orphans(userId)).toEqual([]);
    expect(await journalOf([kept])).toEqual([[['earnings'], 'Gone soon.']]);
    await store(sale('fill-c', [51], 'fifo'));
    expect(await journal.discardOrphan(otherId, kept)).toBe(false);
    expect(await journal.discardOrphan(userId, kept)).toBe(true);
    expect(await journal.orphans(userId)).toEqual([]);
    expect(await journal.note(userId, kept)).toBeUndefined();
  });

  it('imports tags: a line naming trades of one closing fill tags them all; of two fills, it is ambiguous and tags nothing', async () => {
    const trades = [...sale('fill-e', [5, 6], 'broker'), ...sale('fill-f', [7], 'fifo').map((trade) => ({ ...trade, symbol: 'AMD' })), ...sale('fill-g', [8], 'fifo').map((trade) => ({ ...trade, symbol: 'AMD' }))];
    const ids = await store(trades);
    const service = new JournalService(journal);
    const result = await service.importTags(userId, 'symbol,close_date,side,tags\nNVDA,2025-03-10,long,pair\nAMD,2025-03-10,long,pair\nNVDA,2025-03-10,short,pair\n');
    expect(result).toEqual({
      lines: 3,
      matched: 1,
      tradesTagged: 2,
      ambiguous: [{ line: 3, reason: '2 closing fills of AMD long closed 2025-03-10 (2 trades): tag them one by one' }],
      unmatched: [{ line: 4, reason: 'no NVDA short closed 2025-03-10' }],
    });
    expect(await journalOf(ids)).toEqual([
      [['pair'], null],
      [['pair'], null],
      [[], null],
      [[], null],
    ]);
  });

  it('keeps each user to their own trades and tags', async () => {
    const [mine] = await store(sale('fill-d', [10], 'fifo'));
    expect(await journal.setTags(otherId, mine, tags('theirs'))).toBeNull();
    expect(await journal.setNote(otherId, mine, 'theirs')).toBe(false);
    expect(await journal.note(otherId, mine)).toBeUndefined();
    expect(await journal.tags(otherId)).toEqual([]);
    expect(await journal.renameTag(otherId, 'earnings', tagNameOf('x'))).toBeNull();
    expect(await journal.deleteTag(otherId, 'earnings')).toBeNull();
  });
});
