import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `closed_trades.trade_id` as libs/trades' `tradeId` computes it, with or without the P&L (frozen copies). */
function tradeIdSql(withProfitLoss: boolean): string {
  const units = (column: string) => `(${column} * 10000000000)::numeric(1000, 0)`;
  const parts = ['account_id', 'symbol', 'side', 'source', "to_char(open_date, 'YYYY-MM-DD')", "to_char(close_date, 'YYYY-MM-DD')", units('volume'), units('cost_basis'), units('proceeds')];
  const identical = ['account_id', 'symbol', 'side', 'source', 'open_date', 'close_date', 'volume', 'cost_basis', 'proceeds'];
  if (withProfitLoss) {
    parts.push(units('profit_loss'));
    identical.push('profit_loss');
  }
  return `left(encode(sha256(convert_to(concat_ws('|', ${parts.join(', ')},
            row_number() OVER (PARTITION BY ${identical.join(', ')} ORDER BY seq) - 1), 'UTF8')), 'hex'), 20)`;
}

/** Gives every stored trade the id `withProfitLoss` says, and moves the journal of each trade along. */
async function rekey(runner: QueryRunner, withProfitLoss: boolean): Promise<void> {
  await runner.query(`ALTER TABLE closed_trades ADD COLUMN next_trade_id TEXT`);
  await runner.query(`
    UPDATE closed_trades c SET next_trade_id = ids.trade_id
      FROM (SELECT account_id, seq, ${tradeIdSql(withProfitLoss)} AS trade_id FROM closed_trades) ids
     WHERE c.account_id = ids.account_id AND c.seq = ids.seq`);
  // The journal's rows follow their trade (tags and notes by ON UPDATE CASCADE).
  await runner.query(`
    UPDATE journal_trades j SET trade_id = c.next_trade_id
      FROM closed_trades c WHERE c.user_id = j.user_id AND c.trade_id = j.trade_id AND c.next_trade_id <> c.trade_id`);
  await runner.query(`UPDATE closed_trades SET trade_id = next_trade_id WHERE next_trade_id <> trade_id`);
  await runner.query(`ALTER TABLE closed_trades DROP COLUMN next_trade_id`);
}

/**
 * A trade's id also digests its P&L: a broker's gain/loss may differ from proceeds minus cost basis
 * (a wash sale), and one reported differently later is then another trade (docs/api.md "Trade list"),
 * so what the journal records of a trade id (its P&L, for the sums per tag) never goes stale. Stored
 * trades get their new id and their journal follows them.
 */
export class TradeIdsWithProfitLoss1763835000000 implements MigrationInterface {
  name = 'TradeIdsWithProfitLoss1763835000000';

  async up(runner: QueryRunner): Promise<void> {
    await rekey(runner, true);
  }

  async down(runner: QueryRunner): Promise<void> {
    await rekey(runner, false);
  }
}
