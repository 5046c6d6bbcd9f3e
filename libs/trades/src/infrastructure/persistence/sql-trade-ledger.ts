import { Injectable } from '@nestjs/common';
import { Database, rowsOf, textOrNull, type CopyTarget } from '@app/persistence';
import { TradeLedger, type AccountLedger, type LedgerChange } from '../../application/trade-ledger.port.js';
import { tradeIds } from '../../domain/trade-list.js';
import { ReportDataChanges } from './report-data-changes.js';
import { journalBeforeRewrite, reattachJournal } from './sql-trade-journal.js';
import { refreshTradeReports } from './report-rollups.js';

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

  async replaceAccount(userId: number, accountId: number, ledger: AccountLedger): Promise<LedgerChange> {
    const manager = this.database.manager;
    const before = await this.monthSignatures(accountId);
    const ids = tradeIds(accountId, ledger.trades);
    const journal = await journalBeforeRewrite(manager, accountId, ids);
    for (const table of ['closed_trades', 'dividends', 'position_history', 'securities', 'open_lots']) {
      await manager.query(`DELETE FROM ${table} WHERE account_id = $1`, [accountId]);
    }
    // One call: on the embedded database the engine takes in the trades while the rest is being built.
    await this.database.copyRows(
      {
        target: CLOSED_TRADES,
        rows: rowsOf(ledger.trades, (t, seq) => [
          userId,
          accountId,
          t.symbol,
          t.side,
          t.source,
          t.buyDate,
          t.sellDate,
          t.closeDate,
          t.openDate,
          t.volume.toString(),
          t.buyPrice.toString(),
          t.sellPrice.toString(),
          t.costBasis.toString(),
          t.proceeds.toString(),
          t.totalProfitLoss.toString(),
          t.profitPerShare.toString(),
          t.returnPercentage.toString(),
          t.holdingDays,
          t.tradeResult,
          t.washSale,
          textOrNull(t.disallowedLoss),
          t.term,
          textOrNull(t.buyTxPrice),
          textOrNull(t.sellTxPrice),
          seq,
          ids[seq],
          t.txFingerprint ?? null,
        ]),
      },
      {
        target: DIVIDENDS,
        rows: rowsOf(ledger.dividends, (d, seq) => [userId, accountId, d.transactionDate, d.symbol, d.action, d.amount.toString(), seq]),
      },
      { target: POSITION_HISTORY, rows: rowsOf(ledger.positions, (p) => [userId, accountId, p.symbol, p.date, p.shares.toString()]) },
      {
        target: OPEN_LOTS,
        rows: rowsOf(ledger.openLots, (lot, seq) => [
          userId,
          accountId,
          seq,
          lot.symbol,
          lot.side,
          lot.openDate,
          lot.shares.toString(),
          lot.cost.toString(),
          textOrNull(lot.price),
          lot.source,
        ]),
      },
    );
    const names = [...ledger.companyNames].filter(([symbol]) => symbol !== '');
    if (names.length > 0) {
      await manager.query(
        `INSERT INTO securities (user_id, account_id, symbol, company_name)
         SELECT $1, $2, t.* FROM unnest($3::text[], $4::text[]) AS t`,
        [userId, accountId, names.map(([symbol]) => symbol), names.map(([, name]) => name)],
      );
    }
    await reattachJournal(
      manager,
      userId,
      journal,
      ledger.trades.map((trade, seq) => ({ id: ids[seq], closeFill: trade.txFingerprint ?? null })),
    );
    const after = await this.monthSignatures(accountId);
    await refreshTradeReports(this.database, userId);
    this.database.afterCommit(() => this.changes.changed(userId));
    const months = new Set([...before.keys(), ...after.keys()]);
    return { monthsChanged: [...months].filter((month) => before.get(month) !== after.get(month)).sort() };
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
