import { Injectable } from '@nestjs/common';
import { Database } from '@app/persistence';
import { Decimal } from '@app/shared/domain';
import { refreshTradeReports } from '@app/trades';
import { classifyAction, type BrokerTransaction } from '../../domain/broker-transaction.js';
import type { MatchResult } from '../../domain/hybrid-matcher.js';
import type { RealizedLot } from '../../domain/realized-lot.js';
import { ImportStore, type StoredRows } from '../../application/import-store.port.js';

/** Advisory-lock namespace for imports (the second key is the account id). */
const IMPORT_LOCK_NAMESPACE = 4711;

type Row = Record<string, string | number | boolean | null>;

/**
 * PostgreSQL adapter of the import store. Rows go in as one `INSERT … SELECT FROM unnest(…)` per
 * table (one round trip whatever the size); numbers travel as exact decimal strings into NUMERIC.
 */
@Injectable()
export class TypeOrmImportStore extends ImportStore {
  constructor(private readonly database: Database) {
    super();
  }

  async lockAccount(accountId: number): Promise<void> {
    await this.database.manager.query('SELECT pg_advisory_xact_lock($1, $2)', [IMPORT_LOCK_NAMESPACE, accountId]);
  }

  async loadRows(accountId: number): Promise<StoredRows> {
    const manager = this.database.manager;
    const transactions: Row[] = await manager.query(
      `SELECT line, to_char(trade_date, 'YYYY-MM-DD') AS date, to_char(as_of_date, 'YYYY-MM-DD') AS as_of_date, action, symbol,
              description, quantity::text, price::text, fees::text, amount::text, cells, fingerprint
         FROM broker_transactions WHERE account_id = $1 ORDER BY trade_date, upload_id, line DESC`,
      [accountId],
    );
    const lots: Row[] = await manager.query(
      `SELECT line, symbol, name, to_char(closed_date, 'YYYY-MM-DD') AS closed_date, to_char(opened_date, 'YYYY-MM-DD') AS opened_date,
              quantity::text, proceeds_per_share::text, cost_per_share::text, proceeds::text, cost_basis::text, gain_loss::text,
              gain_loss_percent::text, term, wash_sale, disallowed_loss::text, cells, fingerprint
         FROM realized_lots WHERE account_id = $1 ORDER BY closed_date, upload_id, line`,
      [accountId],
    );
    return { transactions: transactions.map(toTransaction), lots: lots.map(toLot) };
  }

  async addTransactions(accountId: number, uploadId: number, rows: readonly BrokerTransaction[]): Promise<number> {
    if (rows.length === 0) return 0;
    // JSON documents of a few thousand rows: far cheaper to build and to parse than a dozen escaped
    // arrays, and small enough for the embedded database's socket, which slows down on huge messages.
    const records = rows.map((row) => ({
      line: row.line,
      fingerprint: required(row.fingerprint),
      trade_date: row.date,
      as_of_date: row.asOfDate,
      action: row.action,
      symbol: row.symbol,
      description: row.description,
      quantity: text(row.quantity),
      price: text(row.price),
      fees: text(row.fees),
      amount: text(row.amount),
      cells: row.cells,
    }));
    let inserted = 0;
    for (const batch of batches(records)) {
      const [result]: { inserted: number }[] = await this.database.manager.query(
        `WITH added AS (
           INSERT INTO broker_transactions
             (account_id, upload_id, line, fingerprint, trade_date, as_of_date, action, symbol, description, quantity, price, fees, amount, cells)
           SELECT $1, $2, t.line, t.fingerprint, t.trade_date, t.as_of_date, t.action, t.symbol, t.description,
                  t.quantity, t.price, t.fees, t.amount, t.cells
             FROM json_to_recordset($3::json) AS t(line int, fingerprint text, trade_date date, as_of_date date, action text, symbol text,
                                                    description text, quantity numeric, price numeric, fees numeric, amount numeric, cells jsonb)
           ON CONFLICT ON CONSTRAINT broker_transactions_natural_key DO NOTHING
           RETURNING 1)
         SELECT count(*)::int AS inserted FROM added`,
        [accountId, uploadId, JSON.stringify(batch)],
      );
      inserted += result.inserted;
    }
    return inserted;
  }

  async addLots(accountId: number, uploadId: number, lots: readonly RealizedLot[]): Promise<number> {
    if (lots.length === 0) return 0;
    const inserted: Row[] = await this.database.manager.query(
      `INSERT INTO realized_lots
         (account_id, upload_id, line, fingerprint, symbol, name, closed_date, opened_date, quantity, proceeds_per_share,
          cost_per_share, proceeds, cost_basis, gain_loss, gain_loss_percent, term, wash_sale, disallowed_loss, cells)
       SELECT $1, $2, t.* FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::date[], $8::date[], $9::numeric[],
                                      $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[],
                                      $15::numeric[], $16::text[], $17::boolean[], $18::numeric[], $19::jsonb[]) AS t
       ON CONFLICT ON CONSTRAINT realized_lots_natural_key DO NOTHING
       RETURNING 1`,
      [
        accountId,
        uploadId,
        lots.map((lot) => lot.line),
        lots.map((lot) => required(lot.fingerprint)),
        lots.map((lot) => lot.symbol),
        lots.map((lot) => lot.name),
        lots.map((lot) => lot.closedDate),
        lots.map((lot) => lot.openedDate),
        lots.map((lot) => lot.quantity.toString()),
        lots.map((lot) => text(lot.proceedsPerShare)),
        lots.map((lot) => text(lot.costPerShare)),
        lots.map((lot) => lot.proceeds.toString()),
        lots.map((lot) => lot.costBasis.toString()),
        lots.map((lot) => lot.gainLoss.toString()),
        lots.map((lot) => text(lot.gainLossPercent)),
        lots.map((lot) => lot.term),
        lots.map((lot) => lot.washSale),
        lots.map((lot) => text(lot.disallowedLoss)),
        lots.map((lot) => JSON.stringify(lot.cells)),
      ],
    );
    return inserted.length;
  }

  async replaceDerived(userId: number, accountId: number, result: MatchResult): Promise<void> {
    const manager = this.database.manager;
    for (const table of ['closed_trades', 'dividends', 'position_history', 'securities']) {
      await manager.query(`DELETE FROM ${table} WHERE account_id = $1`, [accountId]);
    }
    const trades = result.trades;
    if (trades.length > 0) {
      const records = trades.map((t, seq) => ({
        symbol: t.symbol,
        side: t.side,
        source: t.source,
        buy_date: t.buyDate,
        sell_date: t.sellDate,
        close_date: t.closeDate,
        open_date: t.openDate,
        volume: t.volume.toString(),
        buy_price: t.buyPrice.toString(),
        sell_price: t.sellPrice.toString(),
        cost_basis: t.costBasis.toString(),
        proceeds: t.proceeds.toString(),
        profit_loss: t.totalProfitLoss.toString(),
        profit_per_share: t.profitPerShare.toString(),
        return_pct: t.returnPercentage.toString(),
        holding_days: t.holdingDays,
        trade_result: t.tradeResult,
        wash_sale: t.washSale,
        disallowed_loss: text(t.disallowedLoss),
        term: t.term,
        buy_tx_price: text(t.buyTxPrice),
        sell_tx_price: text(t.sellTxPrice),
        seq,
      }));
      for (const batch of batches(records)) {
        await manager.query(
          `INSERT INTO closed_trades
             (user_id, account_id, symbol, side, source, buy_date, sell_date, close_date, open_date, volume, buy_price, sell_price,
              cost_basis, proceeds, profit_loss, profit_per_share, return_pct, holding_days, trade_result, wash_sale,
              disallowed_loss, term, buy_tx_price, sell_tx_price, seq)
           SELECT $1, $2, t.* FROM json_to_recordset($3::json) AS t(
             symbol text, side text, source text, buy_date date, sell_date date, close_date date, open_date date, volume numeric,
             buy_price numeric, sell_price numeric, cost_basis numeric, proceeds numeric, profit_loss numeric, profit_per_share numeric,
             return_pct numeric, holding_days int, trade_result text, wash_sale boolean, disallowed_loss numeric, term text,
             buy_tx_price numeric, sell_tx_price numeric, seq int)`,
          [userId, accountId, JSON.stringify(batch)],
        );
      }
    }
    const dividends = result.dividends;
    if (dividends.length > 0) {
      await manager.query(
        `INSERT INTO dividends (user_id, account_id, transaction_date, symbol, action, amount, seq)
         SELECT $1, $2, t.* FROM unnest($3::date[], $4::text[], $5::text[], $6::numeric[], $7::int[]) AS t`,
        [
          userId,
          accountId,
          dividends.map((d) => d.transactionDate),
          dividends.map((d) => d.symbol),
          dividends.map((d) => d.action),
          dividends.map((d) => d.amount.toString()),
          dividends.map((_, index) => index),
        ],
      );
    }
    const positions = result.positions.entries();
    if (positions.length > 0) {
      await manager.query(
        `INSERT INTO position_history (user_id, account_id, symbol, as_of, shares)
         SELECT $1, $2, t.* FROM unnest($3::text[], $4::date[], $5::numeric[]) AS t`,
        [userId, accountId, positions.map((p) => p.symbol), positions.map((p) => p.date), positions.map((p) => p.shares.toString())],
      );
    }
    const names = [...result.companyNames].filter(([symbol]) => symbol !== '');
    if (names.length > 0) {
      await manager.query(
        `INSERT INTO securities (user_id, account_id, symbol, company_name)
         SELECT $1, $2, t.* FROM unnest($3::text[], $4::text[]) AS t`,
        [userId, accountId, names.map(([symbol]) => symbol), names.map(([, name]) => name)],
      );
    }
    // The trading reports' rollups and report version (libs/trades), rebuilt in this same transaction.
    await refreshTradeReports(this.database, userId);
  }
}

/** Rows per statement when writing many. */
const BATCH_ROWS = 5000;

function batches<T>(rows: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += BATCH_ROWS) result.push(rows.slice(start, start + BATCH_ROWS));
  return result;
}

function text(value: Decimal | null | undefined): string | null {
  return value === null || value === undefined ? null : value.toString();
}

function required(fingerprint: string | undefined): string {
  if (fingerprint === undefined) throw new Error('row without a fingerprint');
  return fingerprint;
}

function decimal(value: string | number | boolean | null): Decimal | null {
  return value === null ? null : Decimal.parse(String(value));
}

function toTransaction(row: Row): BrokerTransaction {
  const action = String(row.action);
  return {
    line: Number(row.line),
    date: String(row.date),
    asOfDate: row.as_of_date === null ? null : String(row.as_of_date),
    action,
    kind: classifyAction(action),
    symbol: String(row.symbol),
    description: String(row.description),
    quantity: decimal(row.quantity),
    price: decimal(row.price),
    fees: decimal(row.fees),
    amount: decimal(row.amount),
    cells: row.cells as unknown as string[],
    fingerprint: String(row.fingerprint),
  };
}

function toLot(row: Row): RealizedLot {
  return {
    line: Number(row.line),
    symbol: String(row.symbol),
    name: String(row.name),
    closedDate: String(row.closed_date),
    openedDate: String(row.opened_date),
    quantity: Decimal.parse(String(row.quantity)),
    proceedsPerShare: decimal(row.proceeds_per_share),
    costPerShare: decimal(row.cost_per_share),
    proceeds: Decimal.parse(String(row.proceeds)),
    costBasis: Decimal.parse(String(row.cost_basis)),
    gainLoss: Decimal.parse(String(row.gain_loss)),
    gainLossPercent: decimal(row.gain_loss_percent),
    term: row.term === null ? null : String(row.term),
    washSale: Boolean(row.wash_sale),
    disallowedLoss: decimal(row.disallowed_loss),
    cells: row.cells as unknown as string[],
    fingerprint: String(row.fingerprint),
  };
}
