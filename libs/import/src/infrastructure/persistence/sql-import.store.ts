import { Injectable } from '@nestjs/common';
import { Database, decimalFrom, decimalOrNullFrom, eachInTurns, filledRows, mapInTurns, textOrNullFrom, type CopyRows, type CopyTarget, type CopyValue, type SqlRow } from '@app/persistence/sql';
import { ConflictError } from '@app/shared';
import { ExactUnits, type IsoDate } from '@app/shared/domain';
import { classifyAction, packedTransaction, TransactionFigure, transactionFigureToWrite, type BrokerTransaction } from '../../domain/broker-transaction.js';
import { naturalKeyOf } from '../../domain/fingerprint.js';
import type { SeenDays } from '../../domain/parsers/file-days.js';
import { LotFigure, lotFigureToWrite, packedLot, type RealizedLot } from '../../domain/realized-lot.js';
import { ImportStore, type RemovedRows, type RowDays, type RowsComing, type RowsToAdd, type StoredRows } from '../../application/import-store.port.js';

/** Advisory-lock namespace for imports (the second key is the account id). */
const IMPORT_LOCK_NAMESPACE = 4711;

/**
 * PostgreSQL adapter of the import store: the account's raw rows (`broker_transactions`,
 * `realized_lots`). Many rows go in with `COPY` (streamed to a server, straight into the embedded
 * engine); numbers travel as exact decimal strings into NUMERIC. What they come to is the trade
 * ledger's (libs/trades `TradeLedger`).
 */
@Injectable()
export class SqlImportStore extends ImportStore {
  constructor(private readonly database: Database) {
    super();
  }

  async lockAccount(accountId: number): Promise<void> {
    const manager = this.database.manager;
    await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [IMPORT_LOCK_NAMESPACE, accountId]);
    // The bulk tables have no foreign keys (migration 1763770000000): the account, and with it its user,
    // cannot be deleted from here until this import ends, as each row's key check used to ensure.
    const held: unknown[] = await manager.query('SELECT 1 FROM brokerage_accounts WHERE id = $1 FOR KEY SHARE', [accountId]);
    if (held.length === 0) throw new ConflictError('The brokerage account was removed while the files were being imported; nothing was imported');
  }

  /**
   * The account's rows as matching reads them. Their cells (the file's row as it was, kept for the
   * record) stay in the database: nothing an import does reads them back, and parsing 170,000 of them
   * from JSON took a third of reading a large account's rows.
   */
  async loadRows(accountId: number): Promise<StoredRows> {
    const manager = this.database.manager;
    const transactions: SqlRow[] = await manager.query(
      `SELECT line, to_char(trade_date, 'YYYY-MM-DD') AS date, to_char(as_of_date, 'YYYY-MM-DD') AS as_of_date, action, symbol,
              description, quantity::text, price::text, fees::text, amount::text, day_order, translate(fingerprint::text, '-', '') AS fingerprint
         FROM broker_transactions WHERE account_id = $1 ORDER BY trade_date, upload_id, line DESC`,
      [accountId],
    );
    const lots: SqlRow[] = await manager.query(`SELECT ${LOT_COLUMNS} FROM realized_lots WHERE account_id = $1 ORDER BY ${LOT_ORDER}`, [accountId]);
    return { transactions: await mapInTurns(transactions, toTransaction), lots: await mapInTurns(lots, toLot) };
  }

  async lastTransactionDate(accountId: number): Promise<IsoDate | null> {
    const [row]: SqlRow[] = await this.database.manager.query(
      `SELECT to_char(max(trade_date), 'YYYY-MM-DD') AS last FROM broker_transactions WHERE account_id = $1`,
      [accountId],
    );
    return textOrNullFrom(row.last);
  }

  /**
   * The stored keys of the days: one range of the account's (date) index per table, which the caller
   * matches against its rows' keys; that reads far less than looking each key up when a long export
   * overlaps what is stored, and needs no key, so it runs while the rows are being keyed.
   */
  async storedKeysIn(accountId: number, days: { transactions: RowDays | null; lots: RowDays | null }): Promise<{ transactions: Set<string>; lots: Set<string> }> {
    const stored = async (table: string, column: string, range: RowDays | null): Promise<Set<string>> => {
      if (range === null) return new Set();
      const found: SqlRow[] = await this.database.manager.query(
        `SELECT translate(fingerprint::text, '-', '') AS fingerprint FROM ${table} WHERE account_id = $1 AND ${column} BETWEEN $2 AND $3`,
        [accountId, range.from, range.to],
      );
      // 100,000s of keys when a whole history is uploaded again: put in the set with turns of the event loop.
      const keys = new Set<string>();
      await eachInTurns(found, (row) => keys.add(String(row.fingerprint)));
      return keys;
    };
    return {
      transactions: await stored('broker_transactions', 'trade_date', days.transactions),
      lots: await stored('realized_lots', 'closed_date', days.lots),
    };
  }

  async seenDays(userId: number): Promise<SeenDays> {
    const rows: SqlRow[] = await this.database.manager.query(
      `SELECT DISTINCT d.layout, to_char(d.day, 'YYYY-MM-DD') AS day
         FROM imported_days d JOIN brokerage_accounts a ON a.id = d.account_id WHERE a.user_id = $1`,
      [userId],
    );
    const seen = new Map<string, Set<IsoDate>>();
    for (const row of rows) {
      const layout = String(row.layout);
      let days = seen.get(layout);
      if (days === undefined) seen.set(layout, (days = new Set()));
      days.add(String(row.day));
    }
    return seen;
  }

  async knownDays(accountId: number, layout: string, digests: ReadonlyMap<IsoDate, string>): Promise<Set<IsoDate>> {
    if (digests.size === 0) return new Set();
    const rows: SqlRow[] = await this.database.manager.query(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS day
         FROM imported_days d JOIN unnest($3::date[], $4::uuid[]) AS given (day, digest) ON (given.day, given.digest) = (d.day, d.digest)
        WHERE d.account_id = $1 AND d.layout = $2`,
      [accountId, layout, [...digests.keys()], [...digests.values()]],
    );
    return new Set(rows.map((row) => String(row.day)));
  }

  async recordDays(accountId: number, layout: string, digests: ReadonlyMap<IsoDate, string>): Promise<void> {
    if (digests.size === 0) return;
    await this.database.manager.query(
      `INSERT INTO imported_days (account_id, layout, day, digest)
       SELECT $1, $2, day, digest FROM unnest($3::date[], $4::uuid[]) AS given (day, digest)
       ON CONFLICT DO NOTHING`,
      [accountId, layout, [...digests.keys()], [...digests.values()]],
    );
  }

  async removeRows(accountId: number): Promise<RemovedRows> {
    const manager = this.database.manager;
    const removed = async (table: string): Promise<number> => {
      const [{ count }]: SqlRow[] = await manager.query(`WITH gone AS (DELETE FROM ${table} WHERE account_id = $1 RETURNING 1) SELECT count(*)::int AS count FROM gone`, [accountId]);
      return Number(count);
    };
    const transactions = await removed('broker_transactions');
    const lots = await removed('realized_lots');
    await manager.query('DELETE FROM imported_days WHERE account_id = $1', [accountId]);
    return { transactions, lots };
  }

  async lotsClosedAfter(accountId: number, date: IsoDate): Promise<RealizedLot[]> {
    const lots: SqlRow[] = await this.database.manager.query(
      `SELECT ${LOT_COLUMNS} FROM realized_lots WHERE account_id = $1 AND closed_date > $2 ORDER BY ${LOT_ORDER}`,
      [accountId, date],
    );
    return lots.map(toLot);
  }

  addRows(accountId: number, uploadId: number, { transactions, lots }: RowsToAdd): Promise<number[]> {
    // The caller passes only rows the account does not hold (under the account lock), so a plain
    // COPY is enough; the natural-key constraint still refuses a duplicate, failing the import. The
    // lots first: an import reads their file first (ImportBrokerageFiles.readFiles).
    const written = this.database.copyRows(
      {
        target: REALIZED_LOTS,
        rows: this.copyRowsOf(lots, REALIZED_LOTS, (lot, row, units) => {
          row[0] = accountId;
          row[1] = uploadId;
          row[2] = lot.line;
          row[3] = naturalKeyOf(lot);
          row[4] = lot.symbol;
          row[5] = lot.name;
          row[6] = lot.closedDate;
          row[7] = lot.openedDate;
          row[8] = lotFigureToWrite(lot, LotFigure.quantity, units[8]);
          row[9] = lotFigureToWrite(lot, LotFigure.proceedsPerShare, units[9]);
          row[10] = lotFigureToWrite(lot, LotFigure.costPerShare, units[10]);
          row[11] = lotFigureToWrite(lot, LotFigure.proceeds, units[11]);
          row[12] = lotFigureToWrite(lot, LotFigure.costBasis, units[12]);
          row[13] = lotFigureToWrite(lot, LotFigure.gainLoss, units[13]);
          row[14] = lotFigureToWrite(lot, LotFigure.gainLossPercent, units[14]);
          row[15] = lot.term;
          row[16] = lot.washSale;
          row[17] = lotFigureToWrite(lot, LotFigure.disallowedLoss, units[17]);
          row[18] = writtenCells(lot);
        }),
      },
      {
        target: BROKER_TRANSACTIONS,
        rows: this.copyRowsOf(transactions, BROKER_TRANSACTIONS, (tx, row, units) => {
          row[0] = accountId;
          row[1] = uploadId;
          row[2] = tx.line;
          row[3] = naturalKeyOf(tx);
          row[4] = tx.date;
          row[5] = tx.asOfDate;
          row[6] = tx.action;
          row[7] = tx.symbol;
          row[8] = tx.description;
          row[9] = transactionFigureToWrite(tx, TransactionFigure.quantity, units[9]);
          row[10] = transactionFigureToWrite(tx, TransactionFigure.price, units[10]);
          row[11] = transactionFigureToWrite(tx, TransactionFigure.fees, units[11]);
          row[12] = transactionFigureToWrite(tx, TransactionFigure.amount, units[12]);
          row[13] = writtenCells(tx);
          row[14] = tx.dayOrder ?? null;
        }),
      },
    );
    const counts = written.then(([lotsWritten, transactionsWritten]) => [transactionsWritten, lotsWritten]);
    counts.catch(() => undefined); // a promise the caller may leave behind, as copyRows' own
    return counts;
  }

  /**
   * The rows' COPY rows, made as they are asked for: of all of them, or of each batch as it comes (a
   * first import's rows, written as they are keyed). Their count goes to the statistics once known.
   */
  private copyRowsOf<T>(rows: RowsComing<T>, target: CopyTarget, fillRow: (item: T, row: CopyValue[], units: readonly ExactUnits[]) => void): CopyRows {
    const width = target.columns.length;
    // A figure's exact units for each column, filled anew with the row (`ExactUnits`).
    const units = Array.from({ length: width }, () => new ExactUnits());
    const fill = (item: T, row: CopyValue[]): void => fillRow(item, row, units);
    if (!(Symbol.asyncIterator in rows)) {
      this.database.refreshStatisticsAfterCommit(RAW_ROW_STATISTICS, rows.length);
      return filledRows(rows, width, fill);
    }
    const database = this.database;
    return (async function* () {
      let count = 0;
      for await (const batch of rows) {
        count += batch.length;
        yield filledRows(batch, width, fill);
      }
      database.refreshStatisticsAfterCommit(RAW_ROW_STATISTICS, count);
    })();
  }
}

/** The columns the import's lookups select the raw rows by. */
const RAW_ROW_STATISTICS = { broker_transactions: ['account_id', 'trade_date'], realized_lots: ['account_id', 'closed_date', 'symbol'] };

/** A stored lot as matching reads it (not its `cells`), and the order matching is given them in. */
const LOT_COLUMNS = `line, symbol, name, to_char(closed_date, 'YYYY-MM-DD') AS closed_date, to_char(opened_date, 'YYYY-MM-DD') AS opened_date,
  quantity::text, proceeds_per_share::text, cost_per_share::text, proceeds::text, cost_basis::text, gain_loss::text,
  gain_loss_percent::text, term, wash_sale, disallowed_loss::text, translate(fingerprint::text, '-', '') AS fingerprint`;
const LOT_ORDER = 'closed_date, upload_id, line';

const BROKER_TRANSACTIONS: CopyTarget = {
  table: 'broker_transactions',
  columns: ['account_id', 'upload_id', 'line', 'fingerprint', 'trade_date', 'as_of_date', 'action', 'symbol', 'description', 'quantity', 'price', 'fees', 'amount', 'cells', 'day_order'],
};
const REALIZED_LOTS: CopyTarget = {
  table: 'realized_lots',
  columns: [
    'account_id', 'upload_id', 'line', 'fingerprint', 'symbol', 'name', 'closed_date', 'opened_date', 'quantity', 'proceeds_per_share',
    'cost_per_share', 'proceeds', 'cost_basis', 'gain_loss', 'gain_loss_percent', 'term', 'wash_sale', 'disallowed_loss', 'cells',
  ],
};

/** A stored row's cells, which `loadRows` does not read. */
const NOT_LOADED = '[]';

/**
 * A row's cells for its COPY line, let go of from the row (set as `loadRows` gives them): matching
 * and the ledger keep the rows to the end of the import, and their cells were 15–25 MB of a
 * 100,000-row import's live memory at its peak, needed only for this line.
 */
function writtenCells(row: { cellsJson: string }): string {
  const cells = row.cellsJson;
  row.cellsJson = NOT_LOADED;
  return cells;
}

function toTransaction(row: SqlRow): BrokerTransaction {
  const action = String(row.action);
  return packedTransaction({
    line: Number(row.line),
    date: String(row.date),
    asOfDate: textOrNullFrom(row.as_of_date),
    action,
    kind: classifyAction(action),
    symbol: String(row.symbol),
    description: String(row.description),
    quantity: decimalOrNullFrom(row.quantity),
    price: decimalOrNullFrom(row.price),
    fees: decimalOrNullFrom(row.fees),
    amount: decimalOrNullFrom(row.amount),
    cellsJson: NOT_LOADED,
    fingerprint: String(row.fingerprint),
    dayOrder: row.day_order === null || row.day_order === undefined ? undefined : Number(row.day_order),
  });
}

function toLot(row: SqlRow): RealizedLot {
  return packedLot({
    line: Number(row.line),
    symbol: String(row.symbol),
    name: String(row.name),
    closedDate: String(row.closed_date),
    openedDate: String(row.opened_date),
    quantity: decimalFrom(row.quantity),
    proceedsPerShare: decimalOrNullFrom(row.proceeds_per_share),
    costPerShare: decimalOrNullFrom(row.cost_per_share),
    proceeds: decimalFrom(row.proceeds),
    costBasis: decimalFrom(row.cost_basis),
    gainLoss: decimalFrom(row.gain_loss),
    gainLossPercent: decimalOrNullFrom(row.gain_loss_percent),
    term: textOrNullFrom(row.term),
    washSale: Boolean(row.wash_sale),
    disallowedLoss: decimalOrNullFrom(row.disallowed_loss),
    cellsJson: NOT_LOADED,
    fingerprint: String(row.fingerprint),
  });
}
