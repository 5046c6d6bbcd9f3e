import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The shared upload fixtures (`../shared/fixtures` beside the repository: tests run from the
 * repository root, and CI checks out `shared/` next to the clone). `SHARED_FIXTURES_DIR` overrides.
 */
export function fixturesDir(): string {
  return process.env.SHARED_FIXTURES_DIR ?? path.resolve(process.cwd(), '../shared/fixtures');
}

export function fixturePath(...parts: string[]): string {
  return path.join(fixturesDir(), ...parts);
}

export function readFixtureBytes(...parts: string[]): Buffer {
  return readFileSync(fixturePath(...parts));
}

export function readFixtureJson<T>(...parts: string[]): T {
  return JSON.parse(readFileSync(fixturePath(...parts), 'utf8')) as T;
}

/**
 * The current ("plain") form of a Schwab export written in the old form: no BOM, no title line, no
 * `Transactions Total` footer, LF line ends. Every remaining line moves up by one.
 */
export function plainForm(oldForm: Buffer | string): string {
  const lines = oldForm
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n/);
  const headerIndex = lines.findIndex((line) => line.startsWith('"Date"') || line.startsWith('"Symbol"'));
  return lines
    .slice(headerIndex)
    .filter((line) => line.trim() !== '' && !line.startsWith('"Transactions Total"'))
    .map((line) => `${line}\n`)
    .join('');
}

/** Shape of `schwab-example/expected.json` (the parts the domain tests read). */
export interface ExpectedTrade {
  symbol: string;
  side: 'long' | 'short';
  source: 'broker' | 'fifo';
  buy_date: string;
  sell_date: string;
  close_date: string;
  buy_price: number;
  sell_price: number;
  volume: number;
  profit_per_share: number;
  total_profit_loss: number;
  return_percentage: number;
  trade_result: 'Win' | 'Loss' | 'Breakeven';
  holding_days: number;
  cost_basis: number;
  proceeds: number;
  wash_sale: boolean | null;
  disallowed_loss: number | null;
  term: string | null;
  buy_tx_price: number | null;
  sell_tx_price: number | null;
  tx_line: number;
  lot_line: number | null;
}

export interface ExpectedDividend {
  transaction_date: string;
  symbol: string;
  action: string;
  amount: number;
  line: number;
}

export interface ExpectedPeriod {
  trading_profit_loss: number;
  total_dividends: number;
  total_trades: number;
  winning_trades: number;
  win_rate_percentage: number;
  week_start?: string;
  month_start?: string;
  period?: string;
}

export interface ExpectedTimeframe {
  name: string;
  params: { all?: string; start?: string; end?: string; symbols?: string };
  data: {
    summary: ExpectedPeriod;
    weekly_summary: ExpectedPeriod[];
    monthly_summary: ExpectedPeriod[];
    open_positions: { symbol: string; shares: number }[];
  };
}

export interface ExpectedExample {
  stats: { transactions_inserted: number; realized_gains_lots: number; broker_verified_trades: number };
  upload: { transactions_processed: number; months_updated: number };
  months: { month: string; total_return_with_dividends: number }[];
  month_summaries: Record<
    string,
    {
      month: string;
      total_trades: number;
      winning_trades: number;
      win_rate: number;
      trading_profit_loss: number;
      total_dividends: number;
      total_return_with_dividends: number;
    }
  >;
  trades: ExpectedTrade[];
  dividends: ExpectedDividend[];
  symbols: { symbol: string; company_name: string }[];
  symbols_summary: Record<string, unknown>[];
  timeframes: ExpectedTimeframe[];
  _diagnostics: {
    row_kinds: Record<string, number>;
    trade_rows: number;
    warnings: string[];
    pure_fifo: {
      trades: number;
      total_trading_profit_loss: number;
      months: { month: string; total_return_with_dividends: number }[];
      months_differing_from_hybrid: string[];
      hybrid_trades_not_in_pure_fifo: number;
    };
    hybrid_total_trading_profit_loss: number;
    closing_txs_with_broker_lots: number;
    unmatched_lots: number[];
    broker_lots_unmatched: number;
  };
}

export interface ExpectedError {
  file: string;
  part: 'transaction_history_file' | 'realized_gains_file';
  pair_with: string;
  expect: string;
  line: number | null;
  column?: string;
  value?: string;
  mention: string[];
  reference_model_message: string;
}
