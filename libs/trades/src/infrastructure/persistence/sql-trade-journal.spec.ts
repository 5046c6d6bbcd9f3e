import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Database, MIGRATIONS } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { Decimal } from '@app/shared/domain';
import { migrateAgain } from '../../../../../test/support/migrations.js';
import { waitUntil } from '../../../../../test/support/service.js';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../../../test/support/test-database.js';
import type { AccountLedger, LedgerTrade } from '../../application/trade-ledger.port.js';
import { JournalService } from '../../application/journal.service.js';
import { tagNameOf } from '../../domain/journal.js';
import { tradeIds } from '../../domain/trade-list.js';
import { aTrade } from '../../testing/in-memory-trade-reports.js';
import { ReportDataChanges } from './report-data-changes.js';
import { InProcessReportVersions } from './report-versions.adapters.js';
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

  const ledgerOf = (trades: LedgerTrade[]): AccountLedger => ({ trades, dividends: [], positions: [], companyNames: new Map(), openLots: [] });
  const store = async (trades: LedgerTrade[]) => {
    await database.inTransaction(() => ledger.replaceAccount(userId, accountId, ledgerOf(trades)));
    return tradeIds(accountId, trades);
  };
  const tags = (...names: string[]) => names.map((name) => tagNameOf(name));
  const orphanedJournal = async () => (await ledger.openBooks(userId, accountId, ['NVDA'])).orphanedJournal;
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

  // Whatever a test did, the kept sums equal the tags' trades summed afresh (live trades only).
  afterEach(async () => {
    const kept = await database.manager.query(
      `SELECT g.user_id, g.tag_key, COALESCE(s.total_trades, 0) AS trades, COALESCE(s.winning_trades, 0) AS winning,
              COALESCE(s.losing_trades, 0) AS losing, COALESCE(s.gross_profit, 0)::text AS profit, COALESCE(s.gross_loss, 0)::text AS loss
         FROM journal_tags g LEFT JOIN tag_totals s USING (user_id, tag_key) ORDER BY 1, 2`,
    );
    const fresh = await database.manager.query(
      `SELECT g.user_id, g.tag_key, count(c.trade_id)::int AS trades, (count(*) FILTER (WHERE c.profit_loss > 0))::int AS winning,
              (count(*) FILTER (WHERE c.profit_loss < 0))::int AS losing,
              COALESCE(SUM(c.profit_loss) FILTER (WHERE c.profit_loss > 0), 0)::text AS profit,
              COALESCE(SUM(c.profit_loss) FILTER (WHERE c.profit_loss < 0), 0)::text AS loss
         FROM journal_tags g LEFT JOIN trade_tags t USING (user_id, tag_key)
         LEFT JOIN closed_trades c ON c.user_id = t.user_id AND c.trade_id = t.trade_id
        GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const normal = (rows: Record<string, unknown>[]) => rows.map((row) => ({ ...row, profit: d(String(row.profit)).toString(), loss: d(String(row.loss)).toString() }));
    expect(normal(kept)).toEqual(normal(fresh));
  });

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
    expect(earlier.map((orphan) => orphan.tags.join(', ')).sort()).toEqual(['Breakout, late exit, scaled out', 'Breakout, late exit, size']);
    for (const orphan of earlier) expect(await journal.discardOrphan(userId, orphan.tradeId)).toBe(true);
    await journal.setTags(userId, kept, tags('earnings'));
    await journal.setNote(userId, kept, 'Gone soon.');
    const [other] = await store(sale('fill-c', [51], 'fifo'));
    expect(await journalOf([other])).toEqual([[[], null]]);
    const orphans = await journal.orphans(userId);
    expect(orphans.map((orphan) => [orphan.tradeId, orphan.symbol, orphan.closeDate, orphan.tags, orphan.note])).toEqual([
      [kept, 'NVDA', '2025-03-10', ['earnings'], 'Gone soon.'],
    ]);
    // An upload that only adds later days asks whether the account has orphans (then it matches everything again).
    expect(await orphanedJournal()).toBe(true);
    // The migration that marks orphans gives the rows stored before it the marks the journal keeps.
    const marks = () => database.manager.query(`SELECT trade_id, orphaned FROM journal_trades WHERE user_id = $1 ORDER BY trade_id`, [userId]);
    const marked = await marks();
    expect(marked).toContainEqual({ trade_id: kept, orphaned: true });
    await migrateAgain(database, 'JournalOrphansMarked1763980000000');
    expect(await marks()).toEqual(marked);
    // Its note can still be read by id, and the trade's tags still count nowhere.
    expect((await journal.note(userId, kept))?.note).toBe('Gone soon.');
    expect((await journal.tags(userId)).find((tag) => tag.key === 'earnings')).toMatchObject({ totalTrades: 0 });
    // The trade coming back (the same id) finds its journal again.
    await store(sale('fill-b', [50], 'fifo'));
    expect(await journal.orphans(userId)).toEqual([]);
    expect(await orphanedJournal()).toBe(false);
    expect(await journalOf([kept])).toEqual([[['earnings'], 'Gone soon.']]);
    expect((await journal.tags(userId)).find((tag) => tag.key === 'earnings')).toMatchObject({ totalTrades: 1, winningTrades: 1 });
    await store(sale('fill-c', [51], 'fifo'));
    expect(await journal.discardOrphan(otherId, kept)).toBe(false);
    expect(await orphanedJournal()).toBe(true);
    expect(await journal.discardOrphan(userId, kept)).toBe(true);
    expect(await journal.orphans(userId)).toEqual([]);
    expect(await orphanedJournal()).toBe(false);
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

  it("refreshes the journal tables' statistics after a tag file adds thousands of rows (the embedded engine never does)", async () => {
    const trades = Array.from({ length: 2_500 }, (_, index) =>
      aTrade({ symbol: `S${index % 50}`, closeDate: '2025-04-01', openDate: '2025-03-03', totalProfitLoss: d(String(index - 1_000)), volume: d(String(index + 1)) }),
    );
    const ids = await store(trades);
    const measured = async () => {
      await database.statisticsRefreshed();
      const counted = (await database.manager.query(
        `SELECT relname, reltuples::int AS rows FROM pg_class WHERE relname IN ('journal_trades', 'trade_tags') AND relkind = 'r' AND pg_table_is_visible(oid) ORDER BY relname`,
      )) as { relname: string; rows: number }[];
      const columns = (await database.manager.query(
        `SELECT tablename, attname FROM pg_stats WHERE tablename IN ('journal_trades', 'trade_tags') AND attname IN ('trade_id', 'tag_key') ORDER BY 1, 2`,
      )) as { tablename: string; attname: string }[];
      return { counted: counted.map((row) => [row.relname, row.rows]), columns: columns.map((row) => `${row.tablename}.${row.attname}`) };
    };
    await journal.addTags(userId, [{ tradeIds: ids, tags: tags('bulk') }]);
    expect(await measured()).toEqual({
      counted: [
        ['journal_trades', expect.any(Number)],
        ['trade_tags', expect.any(Number)],
      ],
      columns: ['journal_trades.trade_id', 'trade_tags.tag_key', 'trade_tags.trade_id'],
    });
    const [[, journalRows], [, tagRows]] = (await measured()).counted as [string, number][];
    expect(journalRows).toBeGreaterThanOrEqual(2_500);
    expect(tagRows).toBeGreaterThanOrEqual(2_500);
    await database.inTransaction(() => ledger.replaceAccount(userId, accountId, ledgerOf([])));
    await database.manager.query(`DELETE FROM journal_trades WHERE user_id = $1`, [userId]);
    await database.manager.query(`DELETE FROM journal_tags WHERE user_id = $1`, [userId]);
  });

  it("raises only the user's report version when their journal changes (their cached reports, no one else's, are recomputed)", async () => {
    const changes = new ReportDataChanges();
    const versions = new InProcessReportVersions(changes);
    const counted = new SqlTradeJournal(database, changes);
    const [id] = await store(sale('fill-h', [9], 'fifo'));
    const version = async (user: number) => Number((await database.manager.query(`SELECT version FROM report_versions WHERE user_id = $1`, [user]))[0]?.version ?? 0);
    const [mine, theirs] = [await version(userId), await version(otherId)];
    await counted.setTags(userId, id, tags('versioned'));
    await counted.setNote(userId, id, 'v');
    expect([await version(userId), await version(otherId)]).toEqual([mine + 2, theirs]);
    expect([await versions.current(userId), await versions.current(otherId)]).toEqual([2, 0]);
    versions.onModuleDestroy();
  });

  it('the migration that puts the P&L on tag rows (TagFiguresWithoutJoins1763840000000) fills rows stored before it as the journal does', async () => {
    const ids = await store([...sale('fill-i', [3, 4], 'fifo'), ...sale('fill-j', [5], 'fifo').map((trade) => ({ ...trade, symbol: 'AMD' }))]);
    await journal.setTags(userId, ids[0], tags('migrated', 'other'));
    await journal.setTags(userId, ids[2], tags('migrated'));
    await store(sale('fill-i', [3, 4], 'fifo'));
    const rows = () => database.manager.query(`SELECT trade_id, tag_key, profit_loss::text, orphaned FROM trade_tags ORDER BY trade_id, tag_key`);
    const written = await rows();
    expect(written.filter((row: { orphaned: boolean; tag_key: string }) => row.orphaned && row.tag_key === 'migrated')).toHaveLength(1);
    await migrateAgain(database, 'TagFiguresWithoutJoins1763840000000');
    expect(await rows()).toEqual(written);
  });

  it('keeps each tag\'s sums through renames, merges, removals and deletions', async () => {
    const ids = await store([...sale('fill-k', [3, 4], 'fifo'), ...sale('fill-l', [5], 'fifo').map((trade) => ({ ...trade, symbol: 'AMD', totalProfitLoss: d('-5') }))]);
    await journal.setTags(userId, ids[0], tags('alpha', 'beta'));
    await journal.setTags(userId, ids[1], tags('beta'));
    await journal.setTags(userId, ids[2], tags('Gamma', 'alpha'));
    const figures = async () =>
      Object.fromEntries((await journal.tags(userId)).map((tag) => [tag.name, [tag.totalTrades, tag.winningTrades, tag.losingTrades, tag.grossProfit.toString(), tag.grossLoss.toString()]]));
    expect(await figures()).toMatchObject({ alpha: [2, 1, 1, '3', '-5'], beta: [2, 2, 0, '7', '0'], Gamma: [1, 0, 1, '0', '-5'] });
    await journal.renameTag(userId, 'gamma', tagNameOf('Delta'));
    expect(await journal.renameTag(userId, 'beta', tagNameOf('ALPHA'))).toEqual({ merged: true, name: 'alpha' });
    expect(await figures()).toMatchObject({ alpha: [3, 2, 1, '7', '-5'], Delta: [1, 0, 1, '0', '-5'] });
    await journal.setTags(userId, ids[2], tags('delta'));
    expect(await figures()).toMatchObject({ alpha: [2, 2, 0, '7', '0'], Delta: [1, 0, 1, '0', '-5'] });
    await journal.deleteTag(userId, 'alpha');
    expect(Object.keys(await figures())).not.toContain('alpha');
  });

  it("removes the tags another request put on the trade while a PUT of its tags waited for it (the later PUT wins)", async () => {
    const [id] = await store(sale('fill-m', [4], 'fifo'));
    // Another request's write, not committed yet: the trade's journal row (locked until it commits) and a tag.
    const meanwhile = database.dataSource.createQueryRunner();
    await meanwhile.connect();
    let setting: Promise<string[] | null> | undefined;
    try {
      await meanwhile.startTransaction();
      await meanwhile.query(
        `INSERT INTO journal_trades (user_id, trade_id, account_id, close_fill, symbol, side, open_date, close_date, volume, profit_loss)
         SELECT user_id, trade_id, account_id, close_fill, symbol, side, open_date, close_date, volume, profit_loss FROM closed_trades WHERE user_id = $1 AND trade_id = $2`,
        [userId, id],
      );
      await meanwhile.query(`INSERT INTO journal_tags (user_id, tag_key, name) VALUES ($1, 'earlier', 'earlier')`, [userId]);
      await meanwhile.query(`INSERT INTO trade_tags (user_id, trade_id, tag_key, profit_loss) VALUES ($1, $2, 'earlier', 4)`, [userId, id]);
      setting = journal.setTags(userId, id, tags('later'));
      // On a server the PUT's statements are under way on another connection, waiting for the row;
      // the embedded engine's one connection is the other request's until it commits.
      if (database.kind === 'server') await waitUntil(async () => (await database.manager.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length > 0, 10_000);
      await meanwhile.commitTransaction();
    } finally {
      await meanwhile.release();
    }
    expect(await setting).toEqual(['later']);
    expect((await journal.annotations(userId, [id])).get(id)?.tags).toEqual(['later']);
  });

  it("changes a selection's tags in one transaction, keeping each tag's sums, or changes nothing", async () => {
    const ids = await store([...sale('fill-s', [2, 3], 'fifo'), ...sale('fill-t', [6], 'fifo').map((trade) => ({ ...trade, totalProfitLoss: d('-6') }))]);
    await journal.setTags(userId, ids[0], tags('keep', 'drop'));
    const change = (add: string[], remove: string[], on: readonly string[] = ids) => journal.changeTags(userId, on, { add: tags(...add), remove: tags(...remove) });
    const journalRows = async () => Number((await database.manager.query(`SELECT count(*) AS n FROM journal_trades WHERE user_id = $1 AND trade_id = ANY($2)`, [userId, ids]))[0].n);
    expect(await change(['Sel'], ['DROP'])).toEqual({ kind: 'changed', added: [{ name: 'Sel', trades: 3 }], removed: [{ name: 'drop', trades: 1 }] });
    const changed = [[['keep', 'Sel'], null], [['Sel'], null], [['Sel'], null]];
    expect(await journalOf(ids)).toEqual(changed);
    expect((await journal.tags(userId)).find((tag) => tag.name === 'Sel')).toMatchObject({ totalTrades: 3, winningTrades: 2, losingTrades: 1 });

    // Refused, rolled back: a trade that would carry 51 tags, an id that is no trade of the user's.
    const crowd = Array.from({ length: 49 }, (_, index) => `crowd ${index}`);
    expect(await change(crowd, [])).toEqual({ kind: 'crowded', trade: { symbol: 'NVDA', closeDate: '2025-03-10', tags: 51 } });
    expect(await change(['x'], ['sel'], [...ids, 'f'.repeat(20)])).toEqual({ kind: 'unknown', tradeIds: ['f'.repeat(20)] });
    expect(await journal.changeTags(otherId, ids, { add: tags('theirs'), remove: [] })).toEqual({ kind: 'unknown', tradeIds: ids });
    expect(await journalOf(ids)).toEqual(changed);
    expect((await journal.tags(userId)).map((tag) => tag.name)).not.toContain('crowd 0');

    // Taking every tag off leaves no journal row behind (the trades are untagged again).
    expect(await change([], ['sel', 'keep'])).toEqual({ kind: 'changed', added: [], removed: [{ name: 'Sel', trades: 3 }, { name: 'keep', trades: 1 }] });
    expect([await journalOf(ids), await journalRows()]).toEqual([ids.map(() => [[], null]), 0]);
  });

  it("clears a trade's tags and its note, dropping its journal row once nothing is left on it", async () => {
    const [id] = await store(sale('fill-n', [5], 'fifo'));
    const journalRows = async () => Number((await database.manager.query(`SELECT count(*) AS n FROM journal_trades WHERE user_id = $1 AND trade_id = $2`, [userId, id]))[0].n);
    await journal.setTags(userId, id, tags('cleared'));
    await journal.setNote(userId, id, 'kept a while');
    expect(await journal.setTags(otherId, id, [])).toBeNull();
    expect(await journal.setNote(otherId, id, '')).toBe(false);
    expect(await journal.setTags(userId, id, [])).toEqual([]);
    expect([await journalOf([id]), await journalRows()]).toEqual([[[[], 'kept a while']], 1]);
    expect(await journal.setNote(userId, id, '')).toBeNull();
    expect([await journalOf([id]), await journalRows()]).toEqual([[[[], null]], 0]);
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
