import { Injectable } from '@nestjs/common';
import { Database, decimalFrom, decimalOrNullFrom, eachInTurns, filledRows, mapInTurns, textAhead, type CopyJob, type CopyRows, type CopyTarget, type CopyTextJob, type CopyValue, type SqlRow } from '@app/persistence/sql';
import { turnIfDue } from '@app/shared';
import { Decimal, monthOf, type IsoDate } from '@app/shared/domain';
import { TradeLedger, type AccountLedger, type LedgerAppend, type LedgerChange, type LedgerInMaking, type LedgerOpenLot, type LedgerRest, type LedgerTrade, type OpenBooks, type StoredOpenLots, type WantedBook } from '../../application/trade-ledger.port.js';
import type { ClosedTrade, DividendPayment, TradeSide, TradeSource } from '../../domain/closed-trade.js';
import { TradeIdSequence } from '../../domain/trade-list.js';
import { ReportDataChanges } from './report-data-changes.js';
import { hasJournal, journalBeforeRewrite, reattachJournal } from './sql-trade-journal.js';
import { LedgerRollup, ROLLUP_TABLES, rollupJobs } from './ledger-rollups.js';
import { appendTradeReports, otherAccountsHoldLedgers, raiseReportVersion, refreshTradeReports } from './report-rollups.js';

/**
 * The ledger in PostgreSQL (a server or the embedded engine): the account's rows are deleted and
 * written again with `COPY`, numbers as exact decimal strings into NUMERIC; then the user's rollups are
 * rebuilt in the same transaction, and the news of a new report version goes out after its commit.
 */
@Injectable()
export class SqlTradeLedger extends TradeLedger {
  constructor(
    private readonly database: Database,
    private readonly changes: ReportDataChanges,
  ) {
    super();
  }

  async replaceAccount(userId: number, accountId: number, given: AccountLedger | LedgerInMaking): Promise<LedgerChange> {
    const manager = this.database.manager;
    // A ledger in making has its trades written as matching makes them: the database takes them in
    // meanwhile instead of waiting for the matching's end, and they are let go of once written. Unless
    // the journal has trades to carry over, which needs every new trade's id before the old trades go:
    // the whole ledger is gathered then. Otherwise the trades' ids first: CPU work, done while the
    // database may still be taking in what the import wrote before (the statements wait for that).
    const writing: LedgerInMaking | LedgerWithIds =
      'rest' in given && !(await hasJournal(manager, accountId)) ? given : await withIds(accountId, 'rest' in given ? await gathered(given) : given);
    const before = await this.monthSignatures(accountId);
    const journal = 'ids' in writing ? await journalBeforeRewrite(manager, accountId, writing.ids) : null;
    // When the account is all the user holds, its ledger in memory gives the user's rollups: written
    // behind the ledger's rows, in the same call (on the embedded database, computed while the engine
    // takes in the trades), instead of the statements over the tables at the end (docs/imports.md).
    const fromMemory = !(await otherAccountsHoldLedgers(manager, userId, accountId));
    for (const table of ['closed_trades', 'dividends', 'position_history', 'securities', 'open_lots']) {
      await manager.query(`DELETE FROM ${table} WHERE account_id = $1`, [accountId]);
    }
    if (fromMemory) for (const table of ROLLUP_TABLES) await manager.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
    let rest: LedgerRest;
    /** The days the trades closed on (only asked for when the account held nothing before). */
    let closeDays: () => Promise<ReadonlySet<IsoDate>>;
    if ('ids' in writing) {
      const { ledger, ids } = writing;
      await this.copyLedger(userId, accountId, ledger, { target: CLOSED_TRADES, rows: tradeRows(userId, accountId, ledger, ids, 0) }, ledger.trades.length, { dividends: 0, openLots: 0 }, fromMemory ? rollupJobs(userId, accountId, ledger) : []);
      rest = ledger;
      closeDays = () => daysOf(ledger.trades);
      // Only an account with a journal has one to carry over (a million trades' pairs took 0.2 s to make for nothing).
      if (journal !== null) {
        await reattachJournal(
          manager,
          userId,
          journal,
          ledger.trades.map((trade, seq) => ({ id: ids[seq], closeFill: trade.txFingerprint ?? null })),
        );
      }
    } else {
      // Each trade, as its row is made, is added up for the rollups (when they come from memory) and its day kept.
      const rollup = fromMemory ? new LedgerRollup() : undefined;
      const days = new Set<IsoDate>();
      const made = tradeRowsAsMade(userId, accountId, writing.trades, (trade) => {
        days.add(trade.closeDate);
        rollup?.addTrade(trade);
      });
      const jobs: CopyJob[] = [];
      if (rollup !== undefined) {
        const tradesAdded = made.all.then(() => rollup);
        tradesAdded.catch(() => undefined); // met by the write, which fails first
        jobs.push(...rollupJobs(userId, accountId, { tradesAdded, rest: writing.rest }));
      }
      // Matching may make trades faster than the database takes them in: from here on they wait for
      // the write as text, not as objects (`textAhead`).
      const trades = textAhead({ target: CLOSED_TRADES, rows: made.rows }, turnIfDue);
      await this.copyLedger(userId, accountId, writing.rest, trades, made.all, { dividends: 0, openLots: 0 }, jobs);
      rest = await writing.rest;
      closeDays = async () => days;
    }
    await this.writeCompanyNames(userId, accountId, rest.companyNames);
    // An account that held nothing before changes in every month it holds now: no digest is needed.
    const after = before.size === 0 ? null : await this.monthSignatures(accountId);
    if (fromMemory) await raiseReportVersion(manager, userId);
    else await refreshTradeReports(this.database, userId);
    this.database.afterCommit(() => this.changes.changed(userId));
    if (after === null) return { monthsChanged: await activeMonths(await closeDays(), rest.dividends) };
    const months = new Set([...before.keys(), ...after.keys()]);
    return { monthsChanged: [...months].filter((month) => before.get(month) !== after.get(month)).sort() };
  }

  async openBooks(userId: number, accountId: number, symbols: readonly string[]): Promise<OpenBooks> {
    const manager = this.database.manager;
    // The symbols' totals say which sides FIFO took from, and the account's how many trades came from broker lots.
    const fifo: SqlRow[] = await manager.query(
      `SELECT symbol, side FROM symbol_totals, unnest(ARRAY['long', 'short'], ARRAY[fifo_long, fifo_short]) AS sides (side, fifo)
        WHERE user_id = $1 AND account_id = $2 AND symbol = ANY($3::text[]) AND fifo`,
      [userId, accountId, symbols],
    );
    const [{ broker_trades, orphaned }]: SqlRow[] = await manager.query(
      `SELECT (SELECT COALESCE(SUM(broker_trades), 0) FROM symbol_totals WHERE user_id = $1 AND account_id = $2)::int AS broker_trades,
              EXISTS (SELECT 1 FROM journal_trades WHERE user_id = $1 AND account_id = $2 AND orphaned) AS orphaned`,
      [userId, accountId],
    );
    return {
      fifoSides: fifo.map((row) => ({ symbol: String(row.symbol), side: row.side as TradeSide })),
      brokerTrades: Number(broker_trades),
      orphanedJournal: Boolean(orphaned),
    };
  }

  /**
   * The wanted lots, each book's by open date then as stored (`open_lots_book_idx`): its oldest up to
   * the first open date at which they hold more than `oldestShares`, all of that date's, and all of
   * each of `openDates`; and what the other lots of each book not wanted whole hold. A book is read
   * by whole open dates, and an append stores a lot it changes under the same date: read in this order
   * the books hold the lots in the order matching left them, however few of them a match read.
   */
  async openLots(accountId: number, wanted: readonly WantedBook[]): Promise<StoredOpenLots> {
    if (wanted.length === 0) return { openLots: [], openLotKeys: [], heldElsewhere: [] };
    const manager = this.database.manager;
    const books = [
      accountId,
      wanted.map((book) => book.symbol),
      wanted.map((book) => book.side),
      wanted.map((book) => book.whole),
      wanted.map((book) => book.oldestShares.toString()),
      wanted.map((book) => book.openDates.join(',')),
    ];
    const wantedBooks = `unnest($2::text[], $3::text[], $4::boolean[], $5::numeric[], $6::text[]) AS w (symbol, side, whole, oldest, dates)`;
    const lots: SqlRow[] = await manager.query(
      `WITH reach AS (
         SELECT w.symbol, w.side, string_to_array(w.dates, ',')::date[] AS dates,
                CASE WHEN w.whole THEN 'infinity'::date
                     WHEN w.oldest > 0 THEN COALESCE(
                       (SELECT r.open_date FROM (SELECT l.open_date, sum(l.shares) OVER (ORDER BY l.open_date, l.seq) AS held
                                                   FROM open_lots l WHERE l.account_id = $1 AND l.symbol = w.symbol AND l.side = w.side) AS r
                         WHERE r.held > w.oldest LIMIT 1),
                       'infinity'::date)
                END AS oldest_until
           FROM ${wantedBooks})
       SELECT l.seq, l.symbol, l.side, to_char(l.open_date, 'YYYY-MM-DD') AS open_date, l.shares::text, l.cost::text, l.price::text, l.source
         FROM reach w JOIN open_lots l ON l.account_id = $1 AND l.symbol = w.symbol AND l.side = w.side AND l.open_date <= w.oldest_until
       UNION ALL
       SELECT l.seq, l.symbol, l.side, to_char(l.open_date, 'YYYY-MM-DD'), l.shares::text, l.cost::text, l.price::text, l.source
         FROM reach w JOIN open_lots l ON l.account_id = $1 AND l.symbol = w.symbol AND l.side = w.side AND l.open_date = ANY (w.dates)
        WHERE l.open_date > COALESCE(w.oldest_until, '-infinity'::date)
       ORDER BY symbol, side, open_date, seq`,
      books,
    );
    const held: SqlRow[] = await manager.query(
      `SELECT w.symbol, w.side, (SELECT COALESCE(sum(l.shares), 0) FROM open_lots l WHERE l.account_id = $1 AND l.symbol = w.symbol AND l.side = w.side)::text AS shares
         FROM ${wantedBooks} WHERE NOT w.whole`,
      books,
    );
    const openLots = lots.map((row) => ({
      symbol: String(row.symbol),
      side: row.side as TradeSide,
      openDate: String(row.open_date),
      shares: decimalFrom(row.shares),
      cost: decimalFrom(row.cost),
      price: decimalOrNullFrom(row.price),
      source: row.source as TradeSource,
    }));
    const read = new Map<string, Decimal>();
    for (const lot of openLots) {
      const book = `${lot.symbol}|${lot.side}`;
      read.set(book, (read.get(book) ?? Decimal.ZERO).add(lot.shares));
    }
    return {
      openLots,
      openLotKeys: lots.map((row) => Number(row.seq)),
      heldElsewhere: held.map((row) => ({
        symbol: String(row.symbol),
        side: row.side as TradeSide,
        shares: decimalFrom(row.shares).sub(read.get(`${row.symbol}|${row.side}`) ?? Decimal.ZERO),
      })),
    };
  }

  async appendToAccount(userId: number, accountId: number, append: LedgerAppend): Promise<LedgerChange> {
    const manager = this.database.manager;
    const [next]: SqlRow[] = await manager.query(
      `SELECT (SELECT COALESCE(max(seq) + 1, 0) FROM closed_trades WHERE account_id = $1) AS trades,
              (SELECT COALESCE(max(seq) + 1, 0) FROM dividends WHERE account_id = $1) AS dividends,
              (SELECT COALESCE(max(seq) + 1, 0) FROM open_lots WHERE account_id = $1) AS open_lots`,
      [accountId],
    );
    // The new trades close after every stored one, so none is identical to a stored trade: their ids
    // count their own occurrences only, as a full rewrite would.
    const ids = await tradeIdsInTurns(accountId, append.trades);
    // The open lots the match went on from: only those that changed are written.
    const changes = openLotChanges(append.from, append.openLots);
    await reviseOpenLots(manager, accountId, changes);
    await this.copyLedger(userId, accountId, { ...append, openLots: changes.added }, { target: CLOSED_TRADES, rows: tradeRows(userId, accountId, append, ids, Number(next.trades)) }, append.trades.length, {
      dividends: Number(next.dividends),
      openLots: Number(next.open_lots),
    });
    await this.writeCompanyNames(userId, accountId, append.companyNames);
    await appendTradeReports(this.database, userId, accountId, append.after, append.symbols);
    this.database.afterCommit(() => this.changes.changed(userId));
    return { monthsChanged: await activeMonths(await daysOf(append.trades), append.dividends) };
  }

  /**
   * Writes the ledger's rows with `COPY`: its trades (`tradeRows`, or `tradeRowsAsMade` while the
   * ledger is worked out; `tradeCount` of them), then the rest of it once it is whole, each table's
   * `seq` from `first` on, then the `after` jobs. Once the import has committed, the tables' statistics
   * (what the report queries plan on) are refreshed where the write has made them stale.
   */
  private async copyLedger(
    userId: number,
    accountId: number,
    ledger: LedgerRest | Promise<LedgerRest>,
    trades: CopyJob | CopyTextJob,
    tradeCount: number | Promise<number>,
    first: { dividends: number; openLots: number },
    after: readonly CopyJob[] = [],
  ): Promise<void> {
    await this.database.copyRows(
      trades,
      // Each table's rows in one array filled anew (`filledRows`): the positions are as many as the trades.
      {
        target: DIVIDENDS,
        rows: async () =>
          filledRows((await ledger).dividends, DIVIDENDS.columns.length, (d, row, index) => {
            row[0] = userId;
            row[1] = accountId;
            row[2] = d.transactionDate;
            row[3] = d.symbol;
            row[4] = d.action;
            row[5] = d.amount;
            row[6] = first.dividends + index;
          }),
      },
      {
        target: POSITION_HISTORY,
        rows: async () =>
          filledRows((await ledger).positions, POSITION_HISTORY.columns.length, (p, row) => {
            row[0] = userId;
            row[1] = accountId;
            row[2] = p.symbol;
            row[3] = p.date;
            row[4] = p.shares;
          }),
      },
      {
        target: OPEN_LOTS,
        rows: async () =>
          filledRows((await ledger).openLots, OPEN_LOTS.columns.length, (lot, row, index) => {
            row[0] = userId;
            row[1] = accountId;
            row[2] = first.openLots + index;
            row[3] = lot.symbol;
            row[4] = lot.side;
            row[5] = lot.openDate;
            row[6] = lot.shares;
            row[7] = lot.cost;
            row[8] = lot.price;
            row[9] = lot.source;
          }),
      },
      ...after,
    );
    // One count for all the tables: the rows of the ledger, which the rollups' rows grow with.
    const { positions, dividends } = await ledger;
    this.database.refreshStatisticsAfterCommit(LEDGER_STATISTICS, (await tradeCount) + positions.length + dividends.length);
  }

  /** Sets the account's company names (symbol → name; the empty symbol has none). */
  private async writeCompanyNames(userId: number, accountId: number, companyNames: ReadonlyMap<string, string>): Promise<void> {
    const names = [...companyNames].filter(([symbol]) => symbol !== '');
    if (names.length === 0) return;
    await this.database.manager.query(
      `INSERT INTO securities (user_id, account_id, symbol, company_name)
       SELECT $1, $2, t.* FROM unnest($3::text[], $4::text[]) AS t
       ON CONFLICT (account_id, symbol) DO UPDATE SET company_name = EXCLUDED.company_name`,
      [userId, accountId, names.map(([symbol]) => symbol), names.map(([, name]) => name)],
    );
  }

  /**
   * A digest per month of the account's trades (by close date) and dividends, over what they show
   * (not their order or bookkeeping): two months with the same digest hold the same trades and dividends.
   */
  private async monthSignatures(accountId: number): Promise<Map<string, string>> {
    const rows: { month: string; signature: string }[] = await this.database.manager.query(
      `SELECT month, md5(string_agg(line, E'\\n' ORDER BY line)) AS signature
         FROM (SELECT to_char(close_date, 'YYYY-MM') AS month,
                      concat_ws('|', 'trade', symbol, side, source, buy_date, sell_date, volume, cost_basis, proceeds, profit_loss,
                                buy_price, sell_price, coalesce(wash_sale::text, '-'), coalesce(disallowed_loss::text, '-'),
                                coalesce(term, '-')) AS line
                 FROM closed_trades WHERE account_id = $1
               UNION ALL
               SELECT to_char(transaction_date, 'YYYY-MM'), concat_ws('|', 'dividend', symbol, transaction_date, action, amount)
                 FROM dividends WHERE account_id = $1) AS activity
        GROUP BY month`,
      [accountId],
    );
    return new Map(rows.map((row) => [row.month, row.signature]));
  }
}

/** How an append changes the stored lots of the books it went on from (`openLotChanges`). */
export interface OpenLotChanges {
  /** The keys of the stored lots gone. */
  readonly deleted: readonly number[];
  /** Stored lots that stay where they are with other figures (a sale took part of one, a split changed it). */
  readonly rewritten: readonly { readonly key: number; readonly lot: LedgerOpenLot }[];
  /** The lots to store after every stored one, in their order. */
  readonly added: readonly LedgerOpenLot[];
}

/** How far along a book a lot now is looked for among the stored ones (a sale takes a few lots out of a run). */
const LOT_LOOKAHEAD = 16;

/**
 * What an append that went on from `from` (the lots read of the books, whole open dates of them)
 * changes of those stored lots, given the lots they and the new rows leave open (`now`, oldest first in
 * each book). Each symbol's side is a book whose order matters (first in, first out): its lots now are
 * walked along its stored ones. A stored lot that is the next lot now stays; one followed closely by it
 * is gone (the lots a sale took, however many of the same day sit around them); one opened on the same
 * day as it is rewritten (a sale took part of it, a split changed it); any other is gone. The rest of
 * the book's lots now come after every stored lot. Read by open date, then in stored order, the books
 * then hold exactly `now`'s lots in `now`'s order, among the lots not read, whatever the changes; a
 * day's sales leave most of a book as it was.
 */
export function openLotChanges(from: StoredOpenLots, now: readonly LedgerOpenLot[]): OpenLotChanges {
  const bookOf = (lot: LedgerOpenLot) => `${lot.symbol}\u0000${lot.side}`;
  const group = <T>(items: readonly T[], lotOf: (item: T) => LedgerOpenLot) => {
    const books = new Map<string, T[]>();
    for (const item of items) {
      const book = books.get(bookOf(lotOf(item)));
      if (book === undefined) books.set(bookOf(lotOf(item)), [item]);
      else book.push(item);
    }
    return books;
  };
  const nowBooks = group(now, (lot) => lot);
  const storedBooks = group(
    from.openLots.map((lot, index) => ({ lot, key: from.openLotKeys[index] })),
    (stored) => stored.lot,
  );
  const deleted: number[] = [];
  const rewritten: { key: number; lot: LedgerOpenLot }[] = [];
  const walked = new Map<string, number>();
  for (const [book, stored] of storedBooks) {
    const lots = nowBooks.get(book) ?? [];
    let at = 0;
    for (let index = 0; index < stored.length; index++) {
      const lot = lots[at];
      if (lot !== undefined && sameOpenLot(stored[index].lot, lot)) {
        at += 1;
        continue;
      }
      const next = lot === undefined ? -1 : stored.slice(index + 1, index + 1 + LOT_LOOKAHEAD).findIndex((later) => sameOpenLot(later.lot, lot));
      if (next >= 0) {
        for (const gone of stored.slice(index, index + 1 + next)) deleted.push(gone.key);
        index += next + 1;
        at += 1;
      } else if (lot !== undefined && lot.openDate === stored[index].lot.openDate) {
        rewritten.push({ key: stored[index].key, lot });
        at += 1;
      } else deleted.push(stored[index].key);
    }
    walked.set(book, at);
  }
  const seen = new Map<string, number>();
  const added = now.filter((lot) => {
    const book = bookOf(lot);
    const at = seen.get(book) ?? 0;
    seen.set(book, at + 1);
    return at >= (walked.get(book) ?? 0);
  });
  return { deleted, rewritten, added };
}

function sameOpenLot(a: LedgerOpenLot, b: LedgerOpenLot): boolean {
  return (
    a.openDate === b.openDate &&
    a.source === b.source &&
    a.shares.eq(b.shares) &&
    a.cost.eq(b.cost) &&
    (a.price === null ? b.price === null : b.price !== null && a.price.eq(b.price))
  );
}

/** Deletes and rewrites the stored open lots `changes` names (its added lots are copied with the rest). */
async function reviseOpenLots(manager: Database['manager'], accountId: number, changes: OpenLotChanges): Promise<void> {
  if (changes.deleted.length > 0) {
    await manager.query(`DELETE FROM open_lots WHERE account_id = $1 AND seq = ANY($2::int[])`, [accountId, changes.deleted]);
  }
  if (changes.rewritten.length > 0) {
    const lots = changes.rewritten.map(({ lot }) => lot);
    await manager.query(
      `UPDATE open_lots o SET shares = u.shares, cost = u.cost, price = u.price, source = u.source
         FROM unnest($2::int[], $3::numeric[], $4::numeric[], $5::numeric[], $6::text[]) AS u (seq, shares, cost, price, source)
        WHERE o.account_id = $1 AND o.seq = u.seq`,
      [
        accountId,
        changes.rewritten.map(({ key }) => key),
        lots.map((lot) => lot.shares.toString()),
        lots.map((lot) => lot.cost.toString()),
        lots.map((lot) => lot.price?.toString() ?? null),
        lots.map((lot) => lot.source),
      ],
    );
  }
}

/** The months (ascending) in which trades closed (on `closeDays`) or `dividends` were paid. */
async function activeMonths(closeDays: ReadonlySet<IsoDate>, dividends: readonly DividendPayment[]): Promise<string[]> {
  // Each distinct day's month once: a million trades hold a few hundred days (a quarter of a second
  // went into a month per trade), gathered with turns of the event loop.
  const days = new Set(closeDays);
  await eachInTurns(dividends, (dividend) => days.add(dividend.transactionDate));
  return [...new Set([...days].map(monthOf))].sort();
}

/** The days on which `trades` closed, gathered with turns of the event loop (a million trades' days took 75 ms). */
async function daysOf(trades: readonly LedgerTrade[]): Promise<Set<IsoDate>> {
  const days = new Set<IsoDate>();
  await eachInTurns(trades, (trade) => days.add(trade.closeDate));
  return days;
}

/** Fills `row` with a trade's row of `closed_trades` (CLOSED_TRADES' columns; `filledRows`). */
function fillTradeRow(row: CopyValue[], userId: number, accountId: number, t: LedgerTrade, seq: number, id: string): void {
  row[0] = userId;
  row[1] = accountId;
  row[2] = t.symbol;
  row[3] = t.side;
  row[4] = t.source;
  row[5] = t.buyDate;
  row[6] = t.sellDate;
  row[7] = t.closeDate;
  row[8] = t.openDate;
  row[9] = t.volume;
  row[10] = t.buyPrice;
  row[11] = t.sellPrice;
  row[12] = t.costBasis;
  row[13] = t.proceeds;
  row[14] = t.totalProfitLoss;
  row[15] = t.profitPerShare;
  row[16] = t.returnPercentage;
  row[17] = t.holdingDays;
  row[18] = t.tradeResult;
  row[19] = t.washSale;
  row[20] = t.disallowedLoss;
  row[21] = t.term;
  row[22] = t.buyTxPrice;
  row[23] = t.sellTxPrice;
  row[24] = seq;
  row[25] = id;
  row[26] = t.txFingerprint ?? null;
}

/** A whole ledger's trades' rows, `seq` from `first` on, with their ids. */
function tradeRows(userId: number, accountId: number, ledger: AccountLedger, ids: readonly string[], first: number): CopyRows {
  let index = 0;
  return filledRows(ledger.trades, CLOSED_TRADES.columns.length, (trade, row) => {
    fillTradeRow(row, userId, accountId, trade, first + index, ids[index]);
    index += 1;
  });
}

/**
 * The trades' rows as matching makes them, a batch at a time: each trade's place and id (its
 * occurrence among identical ones, `TradeIdSequence`) counted as they come, in their final order, and
 * each trade shown to `seen` as its row is made. `all` is the count of trades once every batch has
 * been made into rows (it fails if the rows stop short: the write failed).
 */
function tradeRowsAsMade(
  userId: number,
  accountId: number,
  batches: AsyncIterable<readonly LedgerTrade[]>,
  seen: (trade: LedgerTrade) => void,
): { rows: AsyncGenerator<Iterable<readonly CopyValue[]>>; all: Promise<number> } {
  let seq = 0;
  let settle: { resolve: (count: number) => void; reject: (error: Error) => void } | undefined;
  const all = new Promise<number>((resolve, reject) => (settle = { resolve, reject }));
  all.catch(() => undefined); // met where it is awaited
  async function* rows(): AsyncGenerator<Iterable<readonly CopyValue[]>> {
    const sequence = new TradeIdSequence(accountId, true);
    try {
      // A batch's rows are made as the writer takes them, before it asks for the next batch.
      for await (const batch of batches) {
        yield filledRows(batch, CLOSED_TRADES.columns.length, (trade, row) => {
          seen(trade);
          fillTradeRow(row, userId, accountId, trade, seq++, sequence.next(trade));
        });
      }
      settle?.resolve(seq);
    } finally {
      settle?.reject(new Error('the trades were not all written'));
    }
  }
  return { rows: rows(), all };
}

/** A ledger in making gathered whole: its trades, and the rest once matching has ended. */
async function gathered(ledger: LedgerInMaking): Promise<AccountLedger> {
  const trades: LedgerTrade[] = [];
  for await (const batch of ledger.trades) for (const trade of batch) trades.push(trade);
  return { ...(await ledger.rest), trades };
}

/** A whole ledger and its trades' ids (`tradeIdsInTurns`). */
interface LedgerWithIds {
  readonly ledger: AccountLedger;
  readonly ids: readonly string[];
}

async function withIds(accountId: number, ledger: AccountLedger): Promise<LedgerWithIds> {
  return { ledger, ids: await tradeIdsInTurns(accountId, ledger.trades) };
}

/**
 * `tradeIds` with turns of the event loop (`mapInTurns`): an import's hundreds of thousands of trades
 * take seconds to hash, which other requests would otherwise wait behind.
 */
function tradeIdsInTurns(accountId: number, trades: readonly ClosedTrade[]): Promise<string[]> {
  const sequence = new TradeIdSequence(accountId);
  return mapInTurns(trades, (trade) => sequence.next(trade));
}

/** The columns the reports select, join and group the ledger's tables and the rollups by. */
const LEDGER_STATISTICS = {
  closed_trades: ['user_id', 'account_id', 'symbol', 'close_date', 'open_date'],
  position_history: ['user_id', 'account_id', 'symbol', 'as_of'],
  dividends: ['user_id', 'account_id', 'symbol', 'transaction_date'],
  open_lots: ['account_id', 'symbol'],
  daily_totals: ['user_id', 'day'],
  daily_symbol_totals: ['user_id', 'symbol', 'day'],
  symbol_totals: ['user_id', 'account_id', 'symbol'],
};

const CLOSED_TRADES: CopyTarget = {
  table: 'closed_trades',
  columns: [
    'user_id', 'account_id', 'symbol', 'side', 'source', 'buy_date', 'sell_date', 'close_date', 'open_date', 'volume', 'buy_price',
    'sell_price', 'cost_basis', 'proceeds', 'profit_loss', 'profit_per_share', 'return_pct', 'holding_days', 'trade_result',
    'wash_sale', 'disallowed_loss', 'term', 'buy_tx_price', 'sell_tx_price', 'seq', 'trade_id', 'close_fill',
  ],
};
const DIVIDENDS: CopyTarget = { table: 'dividends', columns: ['user_id', 'account_id', 'transaction_date', 'symbol', 'action', 'amount', 'seq'] };
const OPEN_LOTS: CopyTarget = {
  table: 'open_lots',
  columns: ['user_id', 'account_id', 'seq', 'symbol', 'side', 'open_date', 'shares', 'cost', 'price', 'source'],
};
const POSITION_HISTORY: CopyTarget = { table: 'position_history', columns: ['user_id', 'account_id', 'symbol', 'as_of', 'shares'] };
