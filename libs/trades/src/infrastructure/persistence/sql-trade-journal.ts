import { Injectable } from '@nestjs/common';
import { Database, decimalFrom } from '@app/persistence/sql';
import type { IsoDate } from '@app/shared/domain';
import {
  TradeJournal,
  type ClosingFills,
  type ClosingKey,
  type CrowdedTrade,
  type StoredNote,
  type TagAssignment,
  type TagChangeOutcome,
  type TagCount,
} from '../../application/trade-journal.port.js';
import type { TradeSide } from '../../domain/closed-trade.js';
import { MAX_TAGS_PER_TRADE, mergedNotes, type OrphanedTrade, type TagChange, type TagFigures, type TagName, type TradeAnnotation } from '../../domain/journal.js';
import { ReportDataChanges } from './report-data-changes.js';
import { raiseReportVersion, reportVersionRaise } from './report-rollups.js';

type Manager = Database['manager'];
type Row = Record<string, unknown>;

/** The names of the tags of the journal's trade `j`, by key (as the answers list them). */
const TAG_NAMES = `ARRAY(SELECT g.name FROM trade_tags t JOIN journal_tags g ON g.user_id = t.user_id AND g.tag_key = t.tag_key
                         WHERE t.user_id = j.user_id AND t.trade_id = j.trade_id ORDER BY t.tag_key)`;

/** The columns the journal's queries filter and join its tables on (`Database.refreshStatisticsAfterCommit`). */
const JOURNAL_STATISTICS = { journal_trades: ['user_id', 'trade_id', 'account_id'], trade_tags: ['user_id', 'trade_id', 'tag_key'] };

/** The columns of `journal_trades` taken from a trade in `closed_trades`. */
const JOURNAL_TRADE_COLUMNS = 'trade_id, account_id, close_fill, symbol, side, open_date, close_date, volume, profit_loss';

/** The journal's row of the user's ($1) trade ($2) made from `closed_trades`, or kept: no row if the user has no such trade. */
const JOURNAL_TRADE_UPSERT = `INSERT INTO journal_trades (user_id, ${JOURNAL_TRADE_COLUMNS})
     SELECT user_id, ${JOURNAL_TRADE_COLUMNS} FROM closed_trades WHERE user_id = $1 AND trade_id = $2 LIMIT 1
     ON CONFLICT (user_id, trade_id) DO UPDATE SET close_fill = COALESCE(EXCLUDED.close_fill, journal_trades.close_fill)`;

/**
 * The journal in PostgreSQL (docs/api.md "Journal"). Tags and notes hang off `journal_trades`, one row
 * per annotated trade that records what the trade was, so they outlive it: an import that derives the
 * trade again (the same id) finds them; one that splits or merges the trades of its closing fill moves
 * them (`reattachJournal`); otherwise they are orphans until the user discards them.
 */
@Injectable()
export class SqlTradeJournal extends TradeJournal {
  constructor(
    private readonly database: Database,
    private readonly changes: ReportDataChanges,
  ) {
    super();
  }

  async annotations(userId: number, tradeIds: readonly string[]): Promise<Map<string, TradeAnnotation>> {
    const found = new Map<string, TradeAnnotation>();
    if (tradeIds.length === 0) return found;
    const rows = (await this.database.manager.query(
      `SELECT j.trade_id,
              ${TAG_NAMES} AS tags,
              EXISTS (SELECT 1 FROM trade_notes n WHERE n.user_id = j.user_id AND n.trade_id = j.trade_id) AS has_note
         FROM journal_trades j WHERE j.user_id = $1 AND j.trade_id = ANY($2::text[])`,
      [userId, [...new Set(tradeIds)]],
    )) as { trade_id: string; tags: string[]; has_note: boolean }[];
    for (const row of rows) found.set(row.trade_id, { tags: row.tags, hasNote: row.has_note });
    return found;
  }

  async setTags(userId: number, tradeId: string, tags: readonly TagName[]): Promise<string[] | null> {
    if (tags.length === 0) return (await this.cleared(userId, tradeId, 'trade_tags')) ? [] : null;
    // One statement: the journal's row of the trade is made (or kept), new tags created, the trade's
    // other tags removed and the missing ones added (the two sets are disjoint), and the report version
    // raised, all only if the user has the trade (else no row comes back). The names answered are
    // those stored before this statement, else the ones given (a new tag). The rows added refer to the
    // journal's row and the new tags made by the same statement: their foreign keys are checked at its
    // end.
    const ordered = inKeyOrder(tags);
    const write = async (): Promise<{ names: string[] }[]> =>
      (await this.database.manager.query(
        `WITH journal AS (${JOURNAL_TRADE_UPSERT} RETURNING profit_loss),
              created AS (INSERT INTO journal_tags (user_id, tag_key, name) SELECT $1, t.* FROM unnest($3::text[], $4::text[]) AS t
                           WHERE EXISTS (SELECT 1 FROM journal)
                          ON CONFLICT (user_id, tag_key) DO NOTHING),
              removed AS (DELETE FROM trade_tags WHERE user_id = $1 AND trade_id = $2 AND tag_key <> ALL($3::text[]) AND EXISTS (SELECT 1 FROM journal)),
              added AS (INSERT INTO trade_tags (user_id, trade_id, tag_key, profit_loss)
                        SELECT $1, $2, key, j.profit_loss FROM unnest($3::text[]) AS key CROSS JOIN journal j
                        ON CONFLICT DO NOTHING),
              raised AS (${reportVersionRaise('journal')})
         SELECT ARRAY(SELECT COALESCE(g.name, t.name)
                        FROM unnest($3::text[], $4::text[]) AS t(key, name)
                        LEFT JOIN journal_tags g ON g.user_id = $1 AND g.tag_key = t.key
                       ORDER BY t.key) AS names
           FROM journal`,
        [userId, tradeId, ordered.map((tag) => tag.key), ordered.map((tag) => tag.name)],
      )) as { names: string[] }[];
    // The embedded engine runs one statement at a time, so there the statement is all a PUT takes: a
    // transaction would hold the engine's one connection for five round trips, and tabs tagging at
    // once waited for each other's. On a server, a PUT on the same trade may commit between this
    // statement's snapshot and its lock of the journal's row, and the tags it added would not be seen,
    // so not removed: there the row is locked first, in a transaction, and the statement sees them.
    const rows =
      this.database.kind === 'embedded'
        ? await write()
        : await this.database.inTransaction(async () => ((await journalTrade(this.database.manager, userId, tradeId)) ? write() : []));
    if (rows.length === 0) return null;
    this.database.afterCommit(() => this.changes.changed(userId));
    return rows[0].names;
  }

  async addTags(userId: number, assignments: readonly TagAssignment[]): Promise<CrowdedTrade | null> {
    const wanted = assignments.filter((assignment) => assignment.tradeIds.length > 0 && assignment.tags.length > 0);
    if (wanted.length === 0) return null;
    const tradeIds = [...new Set(wanted.flatMap((assignment) => assignment.tradeIds))];
    return refusedOr(
      this.changing(userId, async (manager) => {
        await manager.query(
          `INSERT INTO journal_trades (user_id, ${JOURNAL_TRADE_COLUMNS})
           SELECT user_id, ${JOURNAL_TRADE_COLUMNS} FROM closed_trades WHERE user_id = $1 AND trade_id = ANY($2::text[])
           ON CONFLICT (user_id, trade_id) DO NOTHING`,
          [userId, tradeIds],
        );
        // Two statements for the whole file: every (trade, tag) pair at once.
        const pairs = wanted.flatMap((assignment) => assignment.tradeIds.flatMap((tradeId) => assignment.tags.map((tag) => ({ tradeId, tag }))));
        await insertTagPairs(manager, userId, pairs);
        await refuseCrowded(manager, userId, tradeIds);
        // A tag file can add tens of thousands of rows: their tables' statistics are refreshed once it has
        // committed, as an import's are (the embedded engine never refreshes them by itself).
        this.database.refreshStatisticsAfterCommit(JOURNAL_STATISTICS, pairs.length);
        return null;
      }),
      (outcome) => (outcome.kind === 'crowded' ? outcome.trade : null),
    );
  }

  async changeTags(userId: number, tradeIds: readonly string[], change: TagChange): Promise<TagChangeOutcome> {
    const added = change.add.map((tag) => tag.key);
    const removed = change.remove.map((tag) => tag.key);
    return refusedOr(
      this.changing(userId, async (manager): Promise<TagChangeOutcome> => {
        // The journal's rows of the trades, made or kept, and locked for this transaction (as `setTags`
        // locks its trade's): a PUT of one of them waits for this change, or this change for it.
        const found = (await manager.query(
          `INSERT INTO journal_trades (user_id, ${JOURNAL_TRADE_COLUMNS})
           SELECT DISTINCT ON (trade_id) user_id, ${JOURNAL_TRADE_COLUMNS} FROM closed_trades WHERE user_id = $1 AND trade_id = ANY($2::text[]) ORDER BY trade_id
           ON CONFLICT (user_id, trade_id) DO UPDATE SET close_fill = COALESCE(EXCLUDED.close_fill, journal_trades.close_fill)
           RETURNING trade_id`,
          [userId, tradeIds],
        )) as { trade_id: string }[];
        if (found.length < tradeIds.length) {
          const known = new Set(found.map((row) => row.trade_id));
          throw new Refused({ kind: 'unknown', tradeIds: tradeIds.filter((id) => !known.has(id)) });
        }
        // A SELECT around the DELETE: the driver's answer to a bare DELETE is its row count, not its rows.
        const gone =
          removed.length === 0
            ? []
            : ((await manager.query(
                `WITH gone AS (DELETE FROM trade_tags WHERE user_id = $1 AND trade_id = ANY($2::text[]) AND tag_key = ANY($3::text[]) RETURNING tag_key)
                 SELECT tag_key FROM gone`,
                [userId, tradeIds, removed],
              )) as { tag_key: string }[]);
        const made = added.length === 0 ? [] : await addTagsToTrades(manager, userId, tradeIds, change.add);
        // Only removing: the trades left with nothing lose their journal rows (made above, or kept).
        if (added.length === 0) await forgetUnannotated(manager, userId, tradeIds);
        else await refuseCrowded(manager, userId, tradeIds);
        this.database.refreshStatisticsAfterCommit(JOURNAL_STATISTICS, gone.length + made.length);
        const names = await storedNames(manager, userId, [...change.add, ...change.remove]);
        const counted = (tags: readonly TagName[], rows: readonly { tag_key: string }[]): TagCount[] =>
          tags.map((tag) => ({ name: names.get(tag.key) ?? tag.name, trades: rows.filter((row) => row.tag_key === tag.key).length }));
        return { kind: 'changed', added: counted(change.add, made), removed: counted(change.remove, gone) };
      }),
      (outcome) => outcome,
    );
  }

  async note(userId: number, tradeId: string): Promise<StoredNote | null | undefined> {
    const rows = (await this.database.manager.query(
      `SELECT n.note, n.updated_at,
              EXISTS (SELECT 1 FROM closed_trades c WHERE c.user_id = $1 AND c.trade_id = $2)
              OR EXISTS (SELECT 1 FROM journal_trades j WHERE j.user_id = $1 AND j.trade_id = $2) AS known
         FROM (SELECT 1) AS one LEFT JOIN trade_notes n ON n.user_id = $1 AND n.trade_id = $2`,
      [userId, tradeId],
    )) as { note: string | null; updated_at: Date | null; known: boolean }[];
    const [row] = rows;
    if (!row.known) return undefined;
    return row.note === null ? null : { note: row.note, updatedAt: new Date(row.updated_at as Date) };
  }

  async setNote(userId: number, tradeId: string, note: string): Promise<StoredNote | null | false> {
    if (note === '') return (await this.cleared(userId, tradeId, 'trade_notes')) ? null : false;
    // One statement, as `setTags` writes tags, on a server too: a note written meanwhile by another
    // request is met by the statement's upserts, which wait for its rows and write over them (the last
    // note wins), where tags it had added would need a fresh snapshot to be removed.
    const rows = (await this.database.manager.query(
      `WITH journal AS (${JOURNAL_TRADE_UPSERT} RETURNING trade_id),
            written AS (${noteUpsert('trade_notes', 'trade_id', 'SELECT $1, $2, $3 FROM journal')}),
            raised AS (${reportVersionRaise('journal')})
       SELECT updated_at FROM written`,
      [userId, tradeId, note],
    )) as { updated_at: Date }[];
    if (rows.length === 0) return false;
    this.database.afterCommit(() => this.changes.changed(userId));
    return { note, updatedAt: new Date(rows[0].updated_at) };
  }

  async tags(userId: number): Promise<TagFigures[]> {
    // The sums `tag_totals` keeps as tag rows change (see its migration): one row per tag.
    const rows = (await this.database.manager.query(
      `SELECT g.tag_key, g.name, COALESCE(s.total_trades, 0) AS total_trades, COALESCE(s.winning_trades, 0) AS winning_trades,
              COALESCE(s.losing_trades, 0) AS losing_trades, COALESCE(s.gross_profit, 0)::text AS gross_profit,
              COALESCE(s.gross_loss, 0)::text AS gross_loss
         FROM journal_tags g LEFT JOIN tag_totals s ON s.user_id = g.user_id AND s.tag_key = g.tag_key
        WHERE g.user_id = $1
        ORDER BY g.tag_key`,
      [userId],
    )) as Row[];
    return rows.map((row) => ({
      key: String(row.tag_key),
      name: String(row.name),
      totalTrades: Number(row.total_trades),
      winningTrades: Number(row.winning_trades),
      losingTrades: Number(row.losing_trades),
      grossProfit: decimalFrom(row.gross_profit as string),
      grossLoss: decimalFrom(row.gross_loss as string),
    }));
  }

  async renameTag(userId: number, key: string, to: TagName): Promise<{ merged: boolean; name: string } | null> {
    return this.changing(userId, async (manager) => {
      const [tag] = (await manager.query(`SELECT name FROM journal_tags WHERE user_id = $1 AND tag_key = $2 FOR UPDATE`, [userId, key])) as { name: string }[];
      if (tag === undefined) return null;
      if (to.key === key) {
        await manager.query(`UPDATE journal_tags SET name = $3 WHERE user_id = $1 AND tag_key = $2`, [userId, key, to.name]);
        return { merged: false, name: to.name };
      }
      const [target] = (await manager.query(`SELECT name FROM journal_tags WHERE user_id = $1 AND tag_key = $2 FOR UPDATE`, [userId, to.key])) as {
        name: string;
      }[];
      if (target === undefined) {
        // The key changes too: the trades' tags follow it (ON UPDATE CASCADE).
        await manager.query(`UPDATE journal_tags SET tag_key = $3, name = $4 WHERE user_id = $1 AND tag_key = $2`, [userId, key, to.key, to.name]);
        return { merged: false, name: to.name };
      }
      await manager.query(
        `INSERT INTO trade_tags (user_id, trade_id, tag_key, profit_loss, orphaned)
         SELECT user_id, trade_id, $3, profit_loss, orphaned FROM trade_tags WHERE user_id = $1 AND tag_key = $2
         ON CONFLICT DO NOTHING`,
        [userId, key, to.key],
      );
      await manager.query(`DELETE FROM journal_tags WHERE user_id = $1 AND tag_key = $2`, [userId, key]);
      return { merged: true, name: target.name };
    });
  }

  async deleteTag(userId: number, key: string): Promise<{ name: string; trades: number } | null> {
    return this.changing(userId, async (manager) => {
      const [tag] = (await manager.query(`SELECT name FROM journal_tags WHERE user_id = $1 AND tag_key = $2 FOR UPDATE`, [userId, key])) as { name: string }[];
      if (tag === undefined) return null;
      const carriers = ((await manager.query(`SELECT trade_id FROM trade_tags WHERE user_id = $1 AND tag_key = $2`, [userId, key])) as { trade_id: string }[]).map(
        (row) => row.trade_id,
      );
      await manager.query(`DELETE FROM journal_tags WHERE user_id = $1 AND tag_key = $2`, [userId, key]);
      await forgetUnannotated(manager, userId, carriers);
      return { name: tag.name, trades: carriers.length };
    });
  }

  async dayNote(userId: number, day: IsoDate): Promise<StoredNote | null> {
    const [row] = (await this.database.manager.query(`SELECT note, updated_at FROM day_notes WHERE user_id = $1 AND day = $2`, [userId, day])) as {
      note: string;
      updated_at: Date;
    }[];
    return row === undefined ? null : { note: row.note, updatedAt: new Date(row.updated_at) };
  }

  async setDayNote(userId: number, day: IsoDate, note: string): Promise<StoredNote | null> {
    if (note === '') {
      await this.database.manager.query(`DELETE FROM day_notes WHERE user_id = $1 AND day = $2`, [userId, day]);
      return null;
    }
    const [row] = (await this.database.manager.query(noteUpsert('day_notes', 'day', 'VALUES ($1, $2, $3)'), [userId, day, note])) as { updated_at: Date }[];
    return { note, updatedAt: new Date(row.updated_at) };
  }

  async orphans(userId: number): Promise<OrphanedTrade[]> {
    const rows = (await this.database.manager.query(
      `SELECT j.trade_id, j.symbol, j.side, to_char(j.open_date, 'YYYY-MM-DD') AS open_date, to_char(j.close_date, 'YYYY-MM-DD') AS close_date,
              j.volume::text AS volume, j.profit_loss::text AS profit_loss, n.note,
              ${TAG_NAMES} AS tags
         FROM journal_trades j LEFT JOIN trade_notes n ON n.user_id = j.user_id AND n.trade_id = j.trade_id
        WHERE j.user_id = $1 AND j.orphaned
        ORDER BY j.close_date, j.symbol, j.trade_id`,
      [userId],
    )) as Row[];
    return rows.map((row) => ({
      tradeId: String(row.trade_id),
      symbol: String(row.symbol),
      side: row.side as TradeSide,
      openDate: String(row.open_date),
      closeDate: String(row.close_date),
      volume: decimalFrom(row.volume as string),
      profitLoss: decimalFrom(row.profit_loss as string),
      tags: row.tags as string[],
      note: row.note === null ? null : String(row.note),
    }));
  }

  async discardOrphan(userId: number, tradeId: string): Promise<boolean> {
    return this.changing(userId, async (manager) => {
      // A SELECT around the DELETE: the driver's answer to a bare DELETE is its row count, not its rows.
      const [{ deleted }] = (await manager.query(
        `WITH gone AS (DELETE FROM journal_trades WHERE user_id = $1 AND trade_id = $2 AND orphaned RETURNING trade_id)
         SELECT count(*)::int AS deleted FROM gone`,
        [userId, tradeId],
      )) as { deleted: number }[];
      return deleted > 0;
    });
  }

  async closingFills(userId: number, keys: readonly ClosingKey[]): Promise<ClosingFills[]> {
    if (keys.length === 0) return [];
    const rows = (await this.database.manager.query(
      `SELECT k.i::int AS i, array_agg(c.trade_id ORDER BY c.account_id, c.seq) AS trade_ids,
              count(DISTINCT COALESCE(c.close_fill, c.trade_id))::int AS fills
         FROM unnest($2::text[], $3::text[], $4::date[]) WITH ORDINALITY AS k(symbol, side, day, i)
         JOIN closed_trades c ON c.user_id = $1 AND c.symbol = k.symbol AND c.close_date = k.day AND c.side = k.side
        GROUP BY k.i`,
      [userId, keys.map((key) => key.symbol), keys.map((key) => key.side), keys.map((key) => key.closeDate)],
    )) as { i: number; trade_ids: string[]; fills: number }[];
    const byIndex = new Map(rows.map((row) => [row.i, row]));
    return keys.map((_, index) => {
      const row = byIndex.get(index + 1);
      return row === undefined ? { fills: 0, tradeIds: [] } : { fills: row.fills, tradeIds: row.trade_ids };
    });
  }

  /**
   * Removes the trade's tags or its note, in a transaction, and its journal row if nothing is left on
   * it; false when the user has no such trade.
   */
  private async cleared(userId: number, tradeId: string, table: 'trade_tags' | 'trade_notes'): Promise<boolean> {
    return this.changing(userId, async (manager) => {
      if (!(await journalTrade(manager, userId, tradeId))) return false;
      await manager.query(`DELETE FROM ${table} WHERE user_id = $1 AND trade_id = $2`, [userId, tradeId]);
      await forgetUnannotated(manager, userId, [tradeId]);
      return true;
    });
  }

  /** Runs a change in one transaction that also raises the user's report version (tags show in the cached reports). */
  private async changing<T>(userId: number, work: (manager: Manager) => Promise<T>): Promise<T> {
    return this.database.inTransaction(async () => {
      const result = await work(this.database.manager);
      await raiseReportVersion(this.database.manager, userId);
      this.database.afterCommit(() => this.changes.changed(userId));
      return result;
    });
  }
}

/** The statement that writes a trade's or a day's note (the user, the key and the note as `values` gives them), keeping when it was last written. */
function noteUpsert(table: 'trade_notes' | 'day_notes', key: 'trade_id' | 'day', values: string): string {
  return `INSERT INTO ${table} (user_id, ${key}, note) ${values}
     ON CONFLICT (user_id, ${key}) DO UPDATE SET note = EXCLUDED.note, updated_at = now()
     RETURNING updated_at`;
}

/** Makes sure the journal has a row for the user's trade (locked for this transaction); false when the user has no such trade. */
async function journalTrade(manager: Manager, userId: number, tradeId: string): Promise<boolean> {
  const rows = (await manager.query(`${JOURNAL_TRADE_UPSERT} RETURNING trade_id`, [userId, tradeId])) as unknown[];
  return rows.length > 0;
}

/** Adds each pair's tag to its trade, creating tags as first written (the first spelling of a new key wins). */
async function insertTagPairs(manager: Manager, userId: number, pairs: readonly { tradeId: string; tag: TagName }[]): Promise<void> {
  if (pairs.length === 0) return;
  const tags = new Map<string, TagName>();
  for (const { tag } of pairs) if (!tags.has(tag.key)) tags.set(tag.key, tag);
  await createTags(manager, userId, [...tags.values()]);
  // Each row carries its trade's P&L (from the journal's record of the trade, written first).
  await manager.query(
    `INSERT INTO trade_tags (user_id, trade_id, tag_key, profit_loss)
     SELECT $1, t.trade_id, t.tag_key, j.profit_loss FROM unnest($2::text[], $3::text[]) AS t(trade_id, tag_key)
       JOIN journal_trades j ON j.user_id = $1 AND j.trade_id = t.trade_id
     ON CONFLICT DO NOTHING`,
    [userId, pairs.map((pair) => pair.tradeId), pairs.map((pair) => pair.tag.key)],
  );
}

/**
 * Tags in the order of their keys, the order in which every writer creates new tags: two requests
 * creating the same new tags (on different trades) wait for each other in one order, and cannot
 * deadlock over them.
 */
function inKeyOrder(tags: readonly TagName[]): TagName[] {
  return [...tags].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Creates those of the tags (distinct keys) the user has not, as written here, in key order. */
async function createTags(manager: Manager, userId: number, tags: readonly TagName[]): Promise<void> {
  const created = inKeyOrder(tags);
  await manager.query(
    `INSERT INTO journal_tags (user_id, tag_key, name) SELECT $1, t.* FROM unnest($2::text[], $3::text[]) AS t
     ON CONFLICT (user_id, tag_key) DO NOTHING`,
    [userId, created.map((tag) => tag.key), created.map((tag) => tag.name)],
  );
}

/** Adds the tags to each of the trades (their journal rows written first) that lacks them; a row per tag added to a trade. */
async function addTagsToTrades(manager: Manager, userId: number, tradeIds: readonly string[], tags: readonly TagName[]): Promise<{ tag_key: string }[]> {
  await createTags(manager, userId, tags);
  return (await manager.query(
    `INSERT INTO trade_tags (user_id, trade_id, tag_key, profit_loss)
     SELECT $1, j.trade_id, k.key, j.profit_loss FROM journal_trades j CROSS JOIN unnest($3::text[]) AS k(key)
      WHERE j.user_id = $1 AND j.trade_id = ANY($2::text[])
     ON CONFLICT DO NOTHING
     RETURNING tag_key`,
    [userId, tradeIds, tags.map((tag) => tag.key)],
  )) as { tag_key: string }[];
}

/** The stored names of those of the tags the user has, by key. */
async function storedNames(manager: Manager, userId: number, tags: readonly TagName[]): Promise<Map<string, string>> {
  const rows = (await manager.query(`SELECT tag_key, name FROM journal_tags WHERE user_id = $1 AND tag_key = ANY($2::text[])`, [userId, tags.map((tag) => tag.key)])) as {
    tag_key: string;
    name: string;
  }[];
  return new Map(rows.map((row) => [row.tag_key, row.name]));
}

/** Why a change of tags rolled back, carried out of its transaction. */
class Refused extends Error {
  constructor(readonly outcome: Exclude<TagChangeOutcome, { kind: 'changed' }>) {
    super(outcome.kind);
  }
}

/** What a change answers: its own result, or (`refused`) what it was refused for, rolled back. */
async function refusedOr<T>(change: Promise<T>, refused: (outcome: Refused['outcome']) => T): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof Refused) return refused(error.outcome);
    throw error;
  }
}

/**
 * Inside a change that added tags to the trades: refuses it (rolled back) when one of them now carries
 * more tags than a trade may, naming the most crowded.
 */
async function refuseCrowded(manager: Manager, userId: number, tradeIds: readonly string[]): Promise<void> {
  const [crowded] = (await manager.query(
    `SELECT j.symbol, to_char(j.close_date, 'YYYY-MM-DD') AS close_date, k.tags
       FROM (SELECT trade_id, count(*)::int AS tags FROM trade_tags WHERE user_id = $1 AND trade_id = ANY($2::text[])
              GROUP BY trade_id HAVING count(*) > $3) AS k
       JOIN journal_trades j ON j.user_id = $1 AND j.trade_id = k.trade_id
      ORDER BY k.tags DESC, j.close_date, j.symbol LIMIT 1`,
    [userId, tradeIds, MAX_TAGS_PER_TRADE],
  )) as { symbol: string; close_date: IsoDate; tags: number }[];
  if (crowded !== undefined) throw new Refused({ kind: 'crowded', trade: { symbol: crowded.symbol, closeDate: crowded.close_date, tags: crowded.tags } });
}

/** Drops the journal rows of trades left with neither tags nor a note. */
async function forgetUnannotated(manager: Manager, userId: number, tradeIds: readonly string[]): Promise<void> {
  if (tradeIds.length === 0) return;
  await manager.query(
    `DELETE FROM journal_trades j WHERE j.user_id = $1 AND j.trade_id = ANY($2::text[])
        AND NOT EXISTS (SELECT 1 FROM trade_tags t WHERE t.user_id = j.user_id AND t.trade_id = j.trade_id)
        AND NOT EXISTS (SELECT 1 FROM trade_notes n WHERE n.user_id = j.user_id AND n.trade_id = j.trade_id)`,
    [userId, [...tradeIds]],
  );
}

/** What the journal needs to know, before an import rewrites an account's trades, to follow them. */
export interface JournalRewrite {
  /** The account's annotated trades the new ledger no longer holds, in date order. */
  readonly stale: readonly { trade_id: string; close_fill: string | null }[];
  /** The ids the account held, before the rewrite, of the trades of those trades' closing fills. */
  readonly before: ReadonlySet<string>;
}

/** Whether the journal holds notes or tags of any trade of the account. */
export async function hasJournal(manager: Manager, accountId: number): Promise<boolean> {
  const [{ any }] = (await manager.query(`SELECT EXISTS (SELECT 1 FROM journal_trades WHERE account_id = $1) AS any`, [accountId])) as { any: boolean }[];
  return any;
}

/**
 * Before an import rewrites an account's trades (`newIds`: the ids of the trades it will write): the
 * annotated trades it drops, and the trades their fills held; null when the account has no annotated
 * trade. Two queries at most; the dropped ones are found by hash against the new ids, however many.
 */
export async function journalBeforeRewrite(manager: Manager, accountId: number, newIds: readonly string[]): Promise<JournalRewrite | null> {
  if (!(await hasJournal(manager, accountId))) return null;
  const stale = (await manager.query(
    `SELECT trade_id, close_fill FROM journal_trades WHERE account_id = $1 AND trade_id <> ALL($2::text[])
      ORDER BY close_date, open_date, trade_id`,
    [accountId, newIds],
  )) as { trade_id: string; close_fill: string | null }[];
  const fills = [...new Set(stale.flatMap((row) => (row.close_fill === null ? [] : [row.close_fill])))];
  const before =
    fills.length === 0
      ? []
      : ((await manager.query(`SELECT trade_id FROM closed_trades WHERE account_id = $1 AND close_fill = ANY($2::text[])`, [accountId, fills])) as { trade_id: string }[]);
  return { stale, before: new Set(before.map((row) => row.trade_id)) };
}

/**
 * After an import rewrote an account's trades (inside its transaction; `trades`: the ids and closing
 * fills it wrote): the journal of each trade it no longer derives moves to the trades of the same
 * closing fill that are new (all of that fill's trades when none is new), tags united and notes joined
 * (`mergedNotes`); a trade the import derived again as it was keeps its own journal. What finds no
 * trade of its fill stays, as an orphan: its entry and its tag rows are marked so (the orphans' list
 * and the uploads that ask whether an account has any read the mark; the tags count for no tag), and
 * unmarked when an import derives the trade again. `rewrite`: `journalBeforeRewrite`.
 */
export async function reattachJournal(
  manager: Manager,
  userId: number,
  rewrite: JournalRewrite | null,
  trades: readonly { id: string; closeFill: string | null }[],
): Promise<void> {
  if (rewrite === null) return;
  const { stale, before } = rewrite;
  const staleFills = new Set(stale.flatMap((row) => (row.close_fill === null ? [] : [row.close_fill])));
  const targets = trades.flatMap((trade) => (trade.closeFill !== null && staleFills.has(trade.closeFill) ? [{ trade_id: trade.id, close_fill: trade.closeFill }] : []));
  const moved = new Set(targets.length === 0 ? [] : await moveJournal(manager, userId, stale, targets, before));
  const orphans = stale.map((row) => row.trade_id).filter((id) => !moved.has(id));
  for (const table of ['journal_trades', 'trade_tags']) {
    if (orphans.length > 0) await manager.query(`UPDATE ${table} SET orphaned = true WHERE user_id = $1 AND trade_id = ANY($2::text[]) AND NOT orphaned`, [userId, orphans]);
    // Orphans whose trade this import derives again are theirs once more (few rows: a partial index).
    await manager.query(
      `UPDATE ${table} t SET orphaned = false
        WHERE t.user_id = $1 AND t.orphaned AND EXISTS (SELECT 1 FROM closed_trades c WHERE c.user_id = t.user_id AND c.trade_id = t.trade_id)`,
      [userId],
    );
  }
}

/** Moves the journal of `stale` trades to the new trades of their fill (`reattachJournal`); the ids it moved. */
async function moveJournal(
  manager: Manager,
  userId: number,
  stale: readonly { trade_id: string; close_fill: string | null }[],
  targets: readonly { trade_id: string; close_fill: string }[],
  before: ReadonlySet<string>,
): Promise<string[]> {
  const staleIds = stale.map((row) => row.trade_id);
  const tags = (await manager.query(`SELECT trade_id, tag_key FROM trade_tags WHERE user_id = $1 AND trade_id = ANY($2::text[])`, [userId, staleIds])) as {
    trade_id: string;
    tag_key: string;
  }[];
  const notes = new Map(
    ((await manager.query(`SELECT trade_id, note FROM trade_notes WHERE user_id = $1 AND trade_id = ANY($2::text[])`, [userId, staleIds])) as { trade_id: string; note: string }[]).map(
      (row) => [row.trade_id, row.note],
    ),
  );
  const moved: string[] = [];
  for (const fill of new Set(targets.map((row) => row.close_fill))) {
    const from = stale.filter((row) => row.close_fill === fill).map((row) => row.trade_id);
    const all = targets.filter((row) => row.close_fill === fill).map((row) => row.trade_id);
    const fresh = all.filter((id) => !before.has(id));
    const to = fresh.length > 0 ? fresh : all;
    await manager.query(
      `INSERT INTO journal_trades (user_id, ${JOURNAL_TRADE_COLUMNS})
       SELECT user_id, ${JOURNAL_TRADE_COLUMNS} FROM closed_trades WHERE user_id = $1 AND trade_id = ANY($2::text[])
       ON CONFLICT (user_id, trade_id) DO NOTHING`,
      [userId, to],
    );
    const tagKeys = [...new Set(tags.filter((row) => from.includes(row.trade_id)).map((row) => row.tag_key))];
    await insertTagPairs(
      manager,
      userId,
      to.flatMap((tradeId) => tagKeys.map((key) => ({ tradeId, tag: { key, name: key } }))),
    );
    const movedNotes = from.map((id) => notes.get(id) ?? null);
    if (mergedNotes(movedNotes) !== null) {
      const existing = (await manager.query(`SELECT trade_id, note FROM trade_notes WHERE user_id = $1 AND trade_id = ANY($2::text[])`, [userId, to])) as {
        trade_id: string;
        note: string;
      }[];
      for (const id of to) {
        const note = mergedNotes([existing.find((row) => row.trade_id === id)?.note ?? null, ...movedNotes]) as string;
        await manager.query(
          `INSERT INTO trade_notes (user_id, trade_id, note) VALUES ($1, $2, $3)
           ON CONFLICT (user_id, trade_id) DO UPDATE SET note = EXCLUDED.note, updated_at = now()`,
          [userId, id, note],
        );
      }
    }
    moved.push(...from);
  }
  await manager.query(`DELETE FROM journal_trades WHERE user_id = $1 AND trade_id = ANY($2::text[])`, [userId, moved]);
  return moved;
}
