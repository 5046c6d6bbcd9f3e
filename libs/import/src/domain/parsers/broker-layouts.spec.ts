import { readFileSync } from 'node:fs';
import path from 'node:path';
import { transactionWith } from '../broker-transaction.js';
import { matchTrades } from '../hybrid-matcher.js';
import { ImportFileError } from '../import.errors.js';
import { unknownActionWarnings } from '../unknown-actions.js';
import { random } from '../../../../../test/support/random.js';
import { brokerageFormats, parseRealizedLotsFile, parseTransactionsFile } from './format-registry.js';

const fixture = (name: string): Buffer => readFileSync(path.resolve(process.cwd(), 'test/fixtures', name));

interface Case {
  readonly file: string;
  readonly layout: string;
  readonly rows: number;
  /** [symbol, source, shares, P&L] per trade, in the matcher's order. */
  readonly trades: readonly (readonly [string, string, string, string])[];
  readonly dividends: readonly (readonly [string, string])[];
  /** [symbol, shares, cost, opened]. */
  readonly open: readonly (readonly [string, string, string, string])[];
  /** The Actions reported as kept but counted toward nothing. */
  readonly skipped: readonly string[];
  /** The account number the file carries, if its layout has one. */
  readonly account?: string;
}

// The same account in each broker's words (docs/formats.md): AAPL 10 @ 185 and 5 @ 175.10, 12 sold at
// 170; NVDA bought and sold (before or after a 10-for-1 split, where the layout writes splits); a
// dividend of $2.40 where the layout carries dividends; a short or a day trade where it shows one.
/** Cells a broken or hostile file may hold where a figure, a date, a symbol or an action was. */
const HOSTILE_CELLS = ['', ' ', '--', '-', '()', '0', '-0', '1e309', 'NaN', '9'.repeat(40), '$1,234.56.78', '02/30/2024', '12/31/9999', '<b>', '"', '\u0000', '🙂', 'Sold Short', 'Bought To Cover', 'Sell', 'Buy to Cover', 'Stock Split', 'ORDINARY DIVIDEND (X)', 'A B C'];

const CASES: readonly Case[] = [
  {
    account: 'XXXX5678',
    file: 'etrade/transactions.csv',
    layout: 'etrade-transactions',
    rows: 9,
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['E*TRADE Sold (OPTN)', 'E*TRADE Interest', 'E*TRADE Transfer'],
  },
  {
    file: 'webull/orders.csv',
    layout: 'webull-orders',
    rows: 9,
    // No fees in Webull's file: the sale brings 2,040.00; the short sold at 185.20 is covered at 179.50.
    trades: [['AAPL', 'fifo', '10', '-150.00'], ['AAPL', 'fifo', '2', '-10.20'], ['TSLA', 'fifo', '5', '28.50'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['Webull order not filled (Cancelled)', 'Webull option order'],
  },
  {
    file: 'tastytrade/transactions.csv',
    layout: 'tastytrade-transactions',
    rows: 11,
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['TSLA', 'fifo', '5', '27.34'], ['NVDA', 'fifo', '20', '698.85']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['Tastytrade Equity Option trade', 'Tastytrade Money Movement (Credit Interest)', 'Tastytrade Money Movement (Deposit)'],
  },
  {
    account: '12345678',
    file: 'vanguard/transactions.csv',
    layout: 'vanguard-transactions',
    rows: 9,
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['Vanguard Sweep in', 'Vanguard Funds Received'],
  },
  {
    account: 'U1234567',
    file: 'interactive-brokers/flex-trades.csv',
    layout: 'ibkr-flex-trades',
    rows: 9,
    // IBKR's closed lots sold the March lot and 7 of January's: the 3 left open are January's.
    trades: [['AAPL', 'broker', '5', '-26.92'], ['AAPL', 'broker', '7', '-106.28'], ['TSLA', 'fifo', '10', '18.00'], ['NVDA', 'fifo', '20', '698.00']],
    dividends: [],
    open: [['AAPL', '3', '555.30', '2024-01-03']],
    skipped: ['IBKR OPT trade', 'IBKR STK trade in EUR'],
  },
  {
    account: 'U1234567',
    file: 'interactive-brokers/activity-statement.csv',
    layout: 'ibkr-activity-statement',
    rows: 15,
    trades: [['AAPL', 'broker', '5', '-26.92'], ['AAPL', 'broker', '7', '-106.28'], ['TSLA', 'broker', '10', '18.00'], ['NVDA', 'broker', '20', '698.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '555.30', '2024-01-03']],
    skipped: ['IBKR Equity and Index Options trade', 'IBKR withholding tax', 'IBKR deposit or withdrawal'],
  },
  {
    file: 'td-ameritrade/transactions.csv',
    layout: 'td-ameritrade-transactions',
    rows: 16,
    // Oldest first: the MSFT day trade's purchase is the upper line. Amounts net of the REG FEE.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['TSLA', 'fifo', '5', '28.48'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: [
      'TD Ameritrade CLIENT REQUESTED ELECTRONIC FUNDING RECEIPT',
      'TD Ameritrade FREE BALANCE INTEREST ADJUSTMENT',
      'TD Ameritrade option trade',
      'TD Ameritrade MONEY MARKET PURCHASE',
      'TD Ameritrade CASH ALTERNATIVES INCOME',
    ],
  },
  {
    file: 'firstrade/history.csv',
    layout: 'firstrade-history',
    rows: 12,
    // Newest first: the MSFT day trade's sale is the upper line. The May reinvestment bought 0.012 shares.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04'], ['AAPL', '0.012', '2.27', '2024-05-16']],
    skipped: ['Firstrade option trade', 'Firstrade Interest', 'Firstrade Other'],
  },
  {
    account: '00XXXXX78',
    file: 'thinkorswim/account-statement.csv',
    layout: 'thinkorswim-statement',
    rows: 13,
    // The Trade History's Pos Effect makes the TSLA sale a short and its purchase a cover; fees are the Misc Fees.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['TSLA', 'fifo', '5', '28.48'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['thinkorswim FND entry', 'thinkorswim MISC entry', 'thinkorswim trade of another instrument'],
  },
  {
    account: '12X-34567',
    file: 'merrill-edge/activity.csv',
    layout: 'merrill-edge-activity',
    rows: 12,
    // Newest first: the MSFT day trade's sale is the upper line. The May reinvestment bought 0.012 shares.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04'], ['AAPL', '0.012', '2.27', '2024-05-16']],
    skipped: ['Merrill Edge Option Sale', 'Merrill Edge Bank Interest', 'Merrill Edge Funds Received'],
  },
  {
    account: '1LD00001',
    file: 'lightspeed/blotter.csv',
    layout: 'lightspeed-blotter',
    rows: 10,
    // NET Amount is the cash with every fee; the MSFT day trade's sale, listed above its purchase in the
    // same minute, closes what that purchase opened.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['TSLA', 'fifo', '5', '28.48'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['Lightspeed option trade'],
  },
  {
    file: 'ghostfolio/activities.csv',
    layout: 'ghostfolio-activities',
    rows: 11,
    // Dates day first; the dividend is 10 shares times $0.24; the MSFT day trade's purchase is the upper line.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['Ghostfolio fee activity', 'Ghostfolio activity in EUR', 'Ghostfolio interest activity'],
  },
  {
    file: 'tradervue/trades.csv',
    layout: 'tradervue-trades',
    rows: 11,
    // Each closed trade is two executions at its average prices, its P&L Tradervue's Gross P&L; the
    // March AAPL trade is still open; the MSFT scalp opened and closed in one second.
    trades: [['AAPL', 'fifo', '10', '-150.00'], ['TSLA', 'fifo', '5', '28.50'], ['MSFT', 'fifo', '10', '10.00'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [],
    open: [['AAPL', '5', '875.50', '2024-03-04']],
    skipped: ['Tradervue trade of another instrument'],
  },
  {
    file: 'moomoo/orders.csv',
    layout: 'moomoo-history',
    rows: 11,
    // The April sale filled 7 then 5 (a row of its own), its order's $1.08 of charges on the first fill;
    // the TSLA short's cover is a plain Buy.
    trades: [['AAPL', 'fifo', '7', '-106.08'], ['AAPL', 'fifo', '3', '-45.00'], ['AAPL', 'fifo', '2', '-10.20'], ['TSLA', 'fifo', '5', '26.48'], ['NVDA', 'fifo', '20', '698.95']],
    dividends: [],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['moomoo order not filled (Cancelled)', 'moomoo trade in HKD', 'moomoo option order'],
  },
  {
    file: 'moomoo/fills.csv',
    layout: 'moomoo-history',
    rows: 10,
    // The same fills without the orders' charges.
    trades: [['AAPL', 'fifo', '7', '-105.00'], ['AAPL', 'fifo', '3', '-45.00'], ['AAPL', 'fifo', '2', '-10.20'], ['TSLA', 'fifo', '5', '28.50'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['moomoo trade in HKD', 'moomoo option order'],
  },
  {
    account: 'XY000001',
    file: 'executions-template/executions.csv',
    layout: 'executions-template',
    rows: 11,
    // TradeZero's trade history, TradeNote's template (Type 2 a long's row, 3 a short's): the MSFT sale
    // listed above its purchase comes after it by their times; the NVDA sale without Net Proceeds is its
    // shares times its price.
    trades: [['AAPL', 'fifo', '10', '-150.04'], ['AAPL', 'fifo', '2', '-10.21'], ['TSLA', 'fifo', '5', '28.48'], ['MSFT', 'fifo', '10', '9.94'], ['NVDA', 'fifo', '20', '700.00']],
    dividends: [['AAPL', '2.40']],
    open: [['AAPL', '3', '525.30', '2024-03-04']],
    skipped: ['Template execution in EUR'],
  },
];

describe('broker layouts (docs/formats.md): each example gives the trades, dividends and open lots a hand computes', () => {
  it.each(CASES)('$file', (expected) => {
    const file = parseTransactionsFile(expected.file, fixture(expected.file));
    expect([file.format.id, file.dataRows, file.accountNumber]).toEqual([expected.layout, expected.rows, expected.account]);
    expect(brokerageFormats.identify(expected.file, fixture(expected.file))?.id).toBe(expected.layout);
    const result = matchTrades(file.transactions, file.lots ?? []);
    expect(result.trades.map((t) => [t.symbol, t.source, t.volume.toString(), t.totalProfitLoss.toFixed(2)])).toEqual(expected.trades);
    expect(result.dividends.map((d) => [d.symbol, d.amount.toFixed(2)])).toEqual(expected.dividends);
    expect(result.openLots.map((lot) => [lot.symbol, lot.quantity.toString(), lot.amount.toFixed(2), lot.openDate])).toEqual(expected.open);
    expect(result.warnings).toEqual([]);
    const skipped = unknownActionWarnings(expected.file, file.transactions).map((warning) => /Action '([^']+)'/.exec(warning)?.[1]);
    expect(skipped).toEqual(expected.skipped);
    // Saved again by a spreadsheet on Windows (a BOM, CRLF line ends): the same rows.
    const resaved = parseTransactionsFile(expected.file, `\uFEFF${fixture(expected.file).toString('utf8').replace(/\r?\n/g, '\r\n')}`);
    expect(resaved.transactions.map((tx) => [tx.line, tx.date, tx.action, tx.symbol, tx.amount?.toString()])).toEqual(
      file.transactions.map((tx) => [tx.line, tx.date, tx.action, tx.symbol, tx.amount?.toString()]),
    );
  });

  it('the same account in any layout without lots gives the same completed trades, dividends and open lots', () => {
    const matched = (file: string) => {
      const result = matchTrades(parseTransactionsFile(file, fixture(file)).transactions, []);
      return {
        trades: result.trades.map((t) => [t.symbol, t.side, t.source, t.openDate, t.closeDate, t.volume.toString(), t.costBasis.toFixed(2), t.proceeds.toFixed(2), t.totalProfitLoss.toFixed(2)]),
        dividends: result.dividends.map((d) => [d.symbol, d.transactionDate, d.amount.toFixed(2)]),
        open: result.openLots.map((lot) => [lot.symbol, lot.openDate, lot.quantity.toString(), lot.amount.toFixed(2)]),
      };
    };
    const robinhood = matched('robinhood/activity.csv');
    expect(robinhood.trades).toHaveLength(3);
    for (const file of ['fidelity/history.csv', 'etrade/transactions.csv', 'vanguard/transactions.csv']) {
      const other = matched(file);
      // Robinhood and Vanguard write NVDA's 10-for-1 split, E*TRADE's example buys the split-adjusted 20 shares: the trade is the same.
      expect({ file, ...other }).toEqual({ file, ...robinhood });
    }
  });

  it("Fidelity's realized gain/loss decides which lots the history's sales closed", () => {
    const { transactions } = parseTransactionsFile('history.csv', fixture('fidelity/history.csv'));
    const file = parseRealizedLotsFile('Realized_Gain_Loss_Account_X1.csv', fixture('fidelity/realized-gain-loss.csv'));
    expect([file.format.id, file.dataRows]).toEqual(['fidelity-realized-lots', 3]);
    expect(file.lots.map((lot) => [lot.symbol, lot.openedDate, lot.closedDate, lot.quantity.toString(), lot.gainLoss.toFixed(2), lot.term])).toEqual([
      ['NVDA', '2024-05-20', '2024-06-20', '20', '700.00', 'Short Term'],
      ['AAPL', '2024-03-04', '2024-04-10', '5', '-25.52', 'Short Term'],
      ['AAPL', '2024-01-03', '2024-04-10', '7', '-105.03', 'Short Term'],
    ]);
    const result = matchTrades(transactions, file.lots);
    expect(result.trades.map((t) => [t.symbol, t.source, t.volume.toString(), t.totalProfitLoss.toFixed(2)])).toEqual([
      ['AAPL', 'broker', '5', '-25.52'],
      ['AAPL', 'broker', '7', '-105.03'],
      ['NVDA', 'broker', '20', '700.00'],
    ]);
    // The lots sold March's purchase first: January's 3 shares stay open.
    expect(result.openLots.map((lot) => [lot.symbol, lot.quantity.toString(), lot.amount.toFixed(2), lot.openDate])).toEqual([['AAPL', '3', '555.00', '2024-01-03']]);
    expect(result.warnings).toEqual([]);
  });

  it('keeps a day listed oldest first in time order (an IBKR day trade is a trade, not a short)', () => {
    const { transactions, lots } = parseTransactionsFile('flex.csv', fixture('interactive-brokers/flex-trades.csv'));
    const tsla = transactions.filter((tx) => tx.symbol === 'TSLA');
    expect(tsla.map((tx) => [tx.kind, tx.dayOrder])).toEqual([['buy', -8], ['sell', -9]]);
    // Read as if newest first, the sale would come before the purchase that it closes.
    const asIfNewestFirst = transactions.map((tx) => transactionWith(tx, { dayOrder: undefined }));
    expect(matchTrades(asIfNewestFirst, lots ?? []).warnings.length).toBeGreaterThan(0);
  });

  it('reads a TD Ameritrade file listed newest first too, and refuses a trade it cannot read', () => {
    const text = fixture('td-ameritrade/transactions.csv').toString('utf8');
    const [header, ...rest] = text.trimEnd().split('\n');
    const end = rest.pop() as string;
    const reversed = [header, ...rest.reverse(), end].join('\n');
    const trades = (content: string) =>
      matchTrades(parseTransactionsFile('td.csv', content).transactions, []).trades.map((t) => [t.symbol, t.side, t.openDate, t.closeDate, t.totalProfitLoss.toFixed(2)]);
    expect(trades(reversed)).toEqual(trades(text));
    expect(parseTransactionsFile('td.csv', reversed).transactions.every((tx) => tx.dayOrder === undefined)).toBe(true);
    expect(() => parseTransactionsFile('td.csv', `${header}\n01/03/2024,1,Bought 10 AAPL @ 185,,AAPL,185.00,0.00,-1850.00,,,,`)).toThrow(
      /^td\.csv, line 2: column 'QUANTITY'.*a trade needs a number of shares/,
    );
    expect(() => parseTransactionsFile('td.csv', `${header}\n02/15/2024,2,ORDINARY DIVIDEND (AAPL),,,,,2.40,,,,`)).toThrow(/^td\.csv, line 2: column 'SYMBOL'/);
    // A stock whose ticker reads like an option's word is a stock; an option's description is an option.
    const rows = (...lines: string[]) => parseTransactionsFile('td.csv', [header, ...lines].join('\n')).transactions.map((tx) => tx.action);
    expect(rows('01/03/2024,3,Bought 100 CALL @ 5,100,CALL,5.00,0.00,-500.00,,,,', '01/04/2024,4,Bought 1 AAPL Jan 19 2024 190.0 Call @ 2.5,1,AAPL_011924C190,2.50,0.65,-250.65,,,,')).toEqual([
      'Buy',
      'TD Ameritrade option trade',
    ]);
  });

  it('reads a hand-made executions file: the fewest columns, times with AM/PM, amounts from shares, price and fees', () => {
    const trades = (text: string) => {
      const result = matchTrades(parseTransactionsFile('mine.csv', text).transactions, []);
      expect(result.warnings).toEqual([]);
      return result.trades.map((t) => [t.symbol, t.side, t.volume.toString(), t.totalProfitLoss.toFixed(2)]);
    };
    const timed = ['Date,Symbol,Side,Quantity,Price,Fees,Time', '2024-05-23,MSFT,Sell,10,421,0.06,10:09:51 AM', '2024-05-23,MSFT,Buy,10,420,,10:09:21 AM'];
    const short = ['2024-05-23,AAPL,Cover,1,199,1.00,1:00 PM', '2024-05-23,AAPL,Short,1,200,,12:30:00 PM'];
    expect(trades([...timed, ...short].join('\n'))).toEqual([['MSFT', 'long', '10', '9.94'], ['AAPL', 'short', '1', '0.00']]);
    // Without times a day is in file order, oldest first.
    expect(trades('Date,Symbol,Side,Qty,Price\n05/23/2024,MSFT,B,10,420\n05/23/2024,MSFT,S,10,421')).toEqual([['MSFT', 'long', '10', '10.00']]);
    expect(() => parseTransactionsFile('mine.csv', `${timed[0]}\n2024-05-23,MSFT,Sell,10,421,,25:00`)).toThrow(/^mine\.csv, line 2: column 'Time'.*not a time of day/);
    expect(() => parseTransactionsFile('mine.csv', `${timed[0]}\n2024-05-23,MSFT,Hold,10,421,,10:00`)).toThrow(/^mine\.csv, line 2: column 'Side'.*unknown Side 'Hold'/);
    expect(() => parseTransactionsFile('mine.csv', `${timed[0]}\n2024-05-23,MSFT,Sell,10,421,,`)).toThrow(/^mine\.csv, line 2: column 'Time'/);
    expect(() => parseTransactionsFile('mine.csv', 'Date,Symbol,Side,Qty,Price,Amount\n05/23/2024,MSFT,B,10,420,4200')).toThrow(/^mine\.csv, line 2: column 'Amount'.*negative/);
    // The day order is the time (its second, then the row's place in that second): comparable between files.
    const orders = parseTransactionsFile('mine.csv', [...timed, '2024-05-23,MSFT,Buy,1,420,,10:09:21 AM'].join('\n')).transactions.map((tx) => tx.dayOrder);
    expect(orders).toEqual([-36591000, -36561000, -36561001]);
  });

  it("reads a Firstrade trade's amount by its action, or from its shares and price; a file of one day newest first", () => {
    const header = 'Symbol,Quantity,Price,Action,Description,TradeDate,SettledDate,Interest,Amount,Commission,Fee,CUSIP,RecordType';
    const sale = 'MSFT,-10,421.00,SELL,MICROSOFT CORP,2024-05-23,2024-05-24,0.00,4209.94,0.00,0.06,594918104,Trade';
    // The purchase's amount written without its sign.
    const purchase = 'MSFT,10,420.00,BUY,MICROSOFT CORP,2024-05-23,2024-05-24,0.00,4200.00,0.00,0.00,594918104,Trade';
    const trades = (text: string) => {
      const result = matchTrades(parseTransactionsFile('fr.csv', text).transactions, []);
      expect(result.warnings).toEqual([]);
      return result.trades.map((t) => [t.symbol, t.side, t.costBasis.toFixed(2), t.proceeds.toFixed(2), t.totalProfitLoss.toFixed(2)]);
    };
    const expected = [['MSFT', 'long', '4200.00', '4209.94', '9.94']];
    expect(trades([header, sale, purchase].join('\n'))).toEqual(expected);
    expect(trades([header, sale.replace('4209.94', ''), purchase.replace('4200.00', '0.00')].join('\n'))).toEqual(expected);
  });

  it("reads Merrill Edge's payouts by their cash: a dividend pays some, shares handed out are kept and reported; a trade's amount by its action", () => {
    const header = '"Trade Date","Settlement Date","Pending/Settled","Account Nickname","Account Registration","Account #","Type","Description 1 ","Description 2","Symbol/CUSIP #","Quantity","Price ($)","Amount ($)"';
    const row = (what: string, symbol: string, quantity: string, price: string, amount: string, status = 'Settled') =>
      `"05/01/2024","05/02/2024","${status}","--","CMA-Edge","12X-34567","SecurityTransactions","${what}","A FUND","${symbol}","${quantity}","${price}","${amount}"`;
    const read = (...rows: string[]) => parseTransactionsFile('merrill.csv', [header, ...rows].join('\n')).transactions.map((tx) => [tx.action, tx.kind, tx.symbol, tx.quantity?.toString() ?? null, tx.amount?.toString() ?? null]);
    expect(
      read(
        row('Foreign Dividend', 'BP', '--', '--', '12.34'),
        row('Dividend', 'VGT', '70', '--', '0.00'),
        row('Stock Dividend Due Bill', 'VGT', '-70', '--', '--'),
        row('Foreign Tax Withholding', 'BP', '--', '--', '(1.85)'),
        // Written as a positive amount; still a purchase. A sale still pending counts on its trade date.
        row('Purchase', 'CSCO', '25', '128.46', '3,211.50'),
        row('Sale', 'CVSA', '-84', '124.11', '--', 'Pending'),
        row('Option Purchase', 'TSLA#B1326C425000', '1', '3.10', '(310.00)'),
      ),
    ).toEqual([
      ['Foreign Dividend', 'dividend', 'BP', null, '12.34'],
      ['Merrill Edge payout without cash', 'other', 'VGT', '70', '0'],
      ['Merrill Edge payout without cash', 'other', 'VGT', '70', null],
      ['Merrill Edge Foreign Tax Withholding', 'other', 'BP', null, '-1.85'],
      ['Buy', 'buy', 'CSCO', '25', '-3211.5'],
      ['Sell', 'sell', 'CVSA', '84', '10425.24'],
      ['Merrill Edge Option Purchase', 'other', 'TSLA#B1326C425000', '1', '-310'],
    ]);
    expect(() => read(row('Purchase', '--', '25', '128.46', '(3,211.50)'))).toThrow(/^merrill\.csv, line 2: column 'Symbol\/CUSIP #'.*a Purchase needs the symbol/);
    expect(() => read(row('Sale', 'CSCO', '--', '128.46', '3,211.50'))).toThrow(/^merrill\.csv, line 2: column 'Quantity'/);
    expect(() => read(row('Purchase', 'CSCO', '25', '--', '--'))).toThrow(/^merrill\.csv, line 2: column 'Price \(\$\)'/);
  });

  it("orders a Lightspeed minute's fills opening before closing, times from either column; other entries kept, unknown sides refused", () => {
    const header = readFileSync(path.resolve(process.cwd(), 'test/fixtures/lightspeed/blotter.csv'), 'utf8').split('\n')[0];
    const columns = header.split(',').map((cell) => cell.replace(/"/g, ''));
    let fills = 0;
    const fill = (cells: Record<string, string>) => {
      fills += 1;
      const row: Record<string, string> = { 'Account Number': 'L1', Symbol: 'XAIR', 'Trade Date': '01/13/2026', 'Trade Number': `T${fills}`, 'Commission Amount': '.35', 'Raw Exec. Time': '01/13/2026 07:36:00', Transtype: 'Trade', ...cells };
      return columns.map((name) => `"${row[name] ?? ''}"`).join(',');
    };
    const read = (...rows: string[]) => {
      const file = parseTransactionsFile('ls.csv', [header, ...rows].join('\n'));
      const result = matchTrades(file.transactions, []);
      return { actions: file.transactions.map((tx) => tx.action), warnings: result.warnings, trades: result.trades.map((t) => [t.symbol, t.side, t.volume.toString(), t.totalProfitLoss.toFixed(2)]) };
    };
    // A scalp in one minute listed sale first: one long trade. NET Amount missing: shares times price with the charges.
    const scalp = read(
      fill({ 'Buy/Sell': 'Long Sell', Qty: '-181', Price: '2.00', 'NET Amount': '-361.65' }),
      fill({ 'Buy/Sell': 'Long Buy', Qty: '181', Price: '1.00', 'NET Amount': '' }),
    );
    expect(scalp).toEqual({ actions: ['Sell', 'Buy'], warnings: [], trades: [['XAIR', 'long', '181', '180.30']] });
    // A short covered in the same minute; the time from Execution Time when Raw Exec. Time is blank.
    const short = read(
      fill({ 'Buy/Sell': 'Short Cover', Qty: '50', Price: '3.00', 'NET Amount': '150.35', 'Raw Exec. Time': '', 'Execution Time': '09:31' }),
      fill({ 'Buy/Sell': 'Short Sell', Qty: '-50', Price: '3.10', 'NET Amount': '-154.65', 'Raw Exec. Time': '', 'Execution Time': '09:31' }),
    );
    expect(short.trades).toEqual([['XAIR', 'short', '50', '4.30']]);
    // Other transaction types, currencies and instruments are kept under words that read as nothing counted.
    expect(read(fill({ 'Buy/Sell': 'Long Buy', Qty: '1', Price: '1', 'NET Amount': '1.35', Transtype: 'Dividend' }), fill({ 'Buy/Sell': 'Long Buy', Qty: '1', Price: '1', 'NET Amount': '1.35', 'Currency Code': 'CAD' })).actions).toEqual([
      'Lightspeed entry of another type',
      'Lightspeed trade in CAD',
    ]);
    expect(() => read(fill({ 'Buy/Sell': 'Hold', Qty: '1', Price: '1', 'NET Amount': '1' }))).toThrow(/^ls\.csv, line 2: column 'Buy\/Sell'.*unknown Buy\/Sell 'Hold'/);
    expect(() => read(fill({ 'Buy/Sell': 'Long Buy', Qty: '1', Price: '1', 'NET Amount': '1', 'Raw Exec. Time': '' }))).toThrow(/^ls\.csv, line 2: column 'Execution Time'/);
    expect(() => read(fill({ 'Buy/Sell': 'Long Buy', Qty: '1', Price: '1', 'NET Amount': '1', 'Raw Exec. Time': '01/13/2026 7h36' }))).toThrow(/^ls\.csv, line 2: column 'Raw Exec\. Time'.*not a time of day/);
  });

  it('reads Ghostfolio dates as Ghostfolio does (day first, year first, ISO) and a dividend as shares times the dividend per share', () => {
    const header = 'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note';
    const read = (...rows: string[]) =>
      parseTransactionsFile('gf.csv', [header, ...rows].join('\n')).transactions.map((tx) => [tx.date, tx.action, tx.symbol, tx.quantity?.toString() ?? null, tx.amount?.toString() ?? null]);
    expect(
      read(
        '05/04/2024,MSFT,YAHOO,USD,0.75,-8,dividend,0.30,',
        '2024/04/06,MSFT,YAHOO,USD,-400,8,BUY,1,',
        '2024-04-07T00:00:00.000Z,MSFT,YAHOO,USD,410,8,Sell,-1,',
        '2024.04.08,Penthouse,MANUAL,USD,500000,1,item,0,',
      ),
    ).toEqual([
      ['2024-04-05', 'Cash Dividend', 'MSFT', '8', '5.7'],
      ['2024-04-06', 'Buy', 'MSFT', '8', '-3201'],
      ['2024-04-07', 'Sell', 'MSFT', '8', '3279'],
      ['2024-04-08', 'Ghostfolio item activity', 'PENTHOUSE', '1', null],
    ]);
    expect(() => read('4/5/2024,MSFT,YAHOO,USD,400,8,buy,0,')).toThrow(/^gf\.csv, line 2: column 'Date'.*not a date as Ghostfolio writes one/);
    expect(() => read('31-02-2024,MSFT,YAHOO,USD,400,8,buy,0,')).toThrow(/^gf\.csv, line 2: column 'Date'/);
    expect(() => read('05-04-2024,MSFT,YAHOO,USD,400,0,buy,0,')).toThrow(/^gf\.csv, line 2: column 'Quantity'/);
    expect(() => read('05-04-2024,MSFT,YAHOO,,400,8,buy,0,')).toThrow(/^gf\.csv, line 2: column 'Currency'/);
  });

  it("makes a Tradervue trade's P&L its Gross P&L to the cent, less its charges, and refuses a Gross P&L its prices cannot give", () => {
    const header = 'Open Datetime,Close Datetime,Symbol,Side,Volume,Exec Count,Entry Price,Exit Price,Gross P&L,Commission,Fees';
    const trades = (...rows: string[]) => {
      const result = matchTrades(parseTransactionsFile('tv.csv', [header, ...rows].join('\n')).transactions, []);
      expect(result.warnings).toEqual([]);
      return result.trades.map((t) => [t.symbol, t.side, t.volume.toString(), t.costBasis.toFixed(2), t.proceeds.toFixed(2), t.totalProfitLoss.toFixed(2)]);
    };
    // An average entry price: the cost is 300 × 4.4097 to the cent (1,322.91), the P&L Tradervue's Gross P&L
    // less the commission and fee, also where the average's rounding puts it a cent from the prices'.
    expect(trades('2025-10-24 08:00:00,2025-10-24 08:01:00,GNLN,Long,300,4,4.4097,4.79,114.09,1.00,0.05')).toEqual([['GNLN', 'long', '300', '1322.91', '1435.95', '113.04']]);
    expect(trades('2025-10-24 08:00:00,2025-10-24 08:01:00,GNLN,Long,300,4,4.4097,4.79,114.10,1.00,0.05')).toEqual([['GNLN', 'long', '300', '1322.91', '1435.96', '113.05']]);
    expect(trades('2025-10-24 09:00:00,2025-10-24 09:04:00,SOAR,S,200,2,4.36,4.13,46.00,,')).toEqual([['SOAR', 'short', '200', '826.00', '872.00', '46.00']]);
    expect(() => trades('2025-10-24 08:00:00,2025-10-24 08:01:00,GNLN,L,300,2,4.4097,4.79,141.09,,')).toThrow(/^tv\.csv, line 2: column 'Gross P&L'.*does not go with 300 shares from 4\.4097 to 4\.79 \(114\.09\)/);
    expect(() => trades('2025-10-24 08:00:00,2025-10-24 08:01:00,GNLN,Flat,300,2,4.4097,4.79,114.09,,')).toThrow(/^tv\.csv, line 2: column 'Side'.*unknown Side 'Flat'/);
    expect(() => trades('2025-10-24 08:00:00,2025-10-24 8h01,GNLN,L,300,2,4.4097,4.79,114.09,,')).toThrow(/^tv\.csv, line 2: column 'Close Datetime'/);
    expect(() => trades('2025-10-24 08:02:00,2025-10-24 08:01:00,GNLN,L,300,2,4.4097,4.79,114.09,,')).toThrow(/^tv\.csv, line 2: column 'Close Datetime'.*closes \(2025-10-24 08:01:00\) before it opens/);
    // A trade still open: its opening alone, its charges paid with it.
    const open = parseTransactionsFile('tv.csv', `${header}\n2025-10-24 08:00:00,,GNLN,S,300,1,4.4097,,,1.00,0.05`).transactions;
    expect(open.map((tx) => [tx.action, tx.quantity?.toString(), tx.fees?.toString(), tx.amount?.toString()])).toEqual([['Sell Short', '300', '1.05', '1321.86']]);
    // An option (OCC symbol, with or without its space) is kept, its cash left out.
    const option = parseTransactionsFile('tv.csv', `${header}\n2024-03-08 11:15:00,2024-03-15 16:00:00,AAPL 240315C00190000,S,1,2,2.00,0.00,200.00,,`).transactions;
    expect(option.map((tx) => [tx.action, tx.amount])).toEqual([['Tradervue trade of another instrument', null], ['Tradervue trade of another instrument', null]]);
  });

  it("pairs thinkorswim's fills of one key with the Trade History's in time order; a fill it does not list is a plain sale", () => {
    const statement = (cash: string[], fills: string[]) =>
      [
        'Cash Balance',
        'DATE,TIME,TYPE,REF #,DESCRIPTION,Misc Fees,Commissions & Fees,AMOUNT,BALANCE',
        ...cash,
        'Account Trade History',
        ',Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Type,Price,Net Price,Order Type',
        ...fills,
      ].join('\n');
    const cash = [
      '7/14/26,09:00:00,TRD,="1",BOT +100 XYZ @9.00,,,-900.00,0',
      '7/14/26,10:00:00,TRD,="2",SOLD -100 XYZ @10.00,,,1000.00,0',
      '7/14/26,11:00:00,TRD,="3",SOLD -100 XYZ @10.00,,,1000.00,0',
      '7/14/26,12:00:00,TRD,="4",BOT +100 XYZ @9.00,,,-900.00,0',
      '7/14/26,13:00:00,DIV,="5",ORDINARY DIVIDEND,,,1.00,0',
      '7/14/26,14:00:00,DIVIDEND,="6",PAID,,,1.00,0',
    ];
    // Newest first, as the statement lists them: the later sale opened a short that the later purchase covered.
    const fills = [
      ',7/14/26 12:00:00,STOCK,BUY,+100,TO CLOSE,XYZ,STOCK,9.00,9.00,LMT',
      ',7/14/26 11:00:00,STOCK,SELL,-100,TO OPEN,XYZ,STOCK,10.00,10.00,LMT',
      ',7/14/26 10:00:00,STOCK,SELL,-100,TO CLOSE,XYZ,STOCK,10.00,10.00,LMT',
      ',7/14/26 09:00:00,STOCK,BUY,+100,TO OPEN,XYZ,STOCK,9.00,9.00,LMT',
    ];
    const actions = (text: string) => parseTransactionsFile('statement.csv', text).transactions.map((tx) => tx.action);
    expect(actions(statement(cash, fills))).toEqual(['Buy', 'Sell', 'Sell Short', 'Buy to Cover', 'thinkorswim payout without a symbol', 'thinkorswim entry']);
    expect(matchTrades(parseTransactionsFile('statement.csv', statement(cash, fills)).transactions, []).trades.map((t) => [t.side, t.totalProfitLoss.toFixed(2)])).toEqual([
      ['long', '100.00'],
      ['short', '100.00'],
    ]);
    expect(actions(statement(cash.slice(0, 2), []))).toEqual(['Buy', 'Sell']);
  });

  it("reads moomoo's orders without fill columns by Filled@Avg Price, times in either form; refuses a fill row without its order", () => {
    const read = (text: string) => {
      const file = parseTransactionsFile('moomoo.csv', text);
      const result = matchTrades(file.transactions, []);
      return {
        rows: file.transactions.map((tx) => [tx.date, tx.action, tx.symbol, tx.quantity?.toString() ?? null, tx.amount?.toFixed(2) ?? null]),
        trades: result.trades.map((t) => [t.symbol, t.side, t.volume.toString(), t.totalProfitLoss.toFixed(2)]),
      };
    };
    // The orders history as another open-source reader shows it: no fill columns, the fees' sum in Total.
    const orders = 'Side,Symbol,Name,Order Price,Order Qty,Order Amount,Status,Filled@Avg Price,Order Time,Markets,Currency,Commission,Platform Fees,SEC Fees,Trading Activity Fees,Settlement Fees,Total';
    expect(
      read(
        [
          orders,
          'Sell,AMZN,Amazon,Market Price,4,1046.49,Filled,4@261.6225,"Apr 28, 2026 05:09:47 ET",US,USD,0.99,1,0.03,0.02,0.01,2.05',
          'Buy,AMZN,Amazon,250.00,4,1000.00,Filled,4@250.00,"Apr 27, 2026 10:00:00 ET",US,USD,0.99,1,,,0,1.99',
          'Buy,AAPL,Apple,190.00,10,1900.00,Cancelled,0@0.00,"Jan 8, 2026 10:00:00 ET",US,USD,,,,,,',
        ].join('\n'),
      ),
    ).toEqual({
      rows: [
        ['2026-04-28', 'Sell', 'AMZN', '4', '1044.44'],
        ['2026-04-27', 'Buy', 'AMZN', '4', '-1001.99'],
        ['2026-01-08', 'moomoo order not filled (Cancelled)', 'AAPL', null, null],
      ],
      trades: [['AMZN', 'long', '4', '42.45']],
    });
    // Fills with year-first times: a short sold and covered in one second, listed cover first (as newest
    // first), is one short trade; a dividend reinvested at midnight in fractional shares is a purchase.
    const fills = 'Symbol,Name,Side,Fill Qty,Fill Price,Fill Amount,Fill Time,Markets,Currency,Counterparty';
    expect(
      read(
        [
          fills,
          'NVDA,NVIDIA,Buy,20,177.00,3540.00,2026/08/04 10:40:00 (ET),US,USD,',
          'NVDA,NVIDIA,Short Sell,20,178.00,3560.00,2026/08/04 10:40:00 (ET),US,USD,',
          'AAPL,Apple,Buy,0.0014,305.26,0.43,"Aug 13, 2026 00:00:00 ET",US,USD,',
        ].join('\n'),
      ).trades,
    ).toEqual([['NVDA', 'short', '20', '20.00']]);
    expect(() => read(`${fills}\nAAPL,Apple,Hold,1,1.00,1.00,"Jan 8, 2026 10:12:14 ET",US,USD,`)).toThrow(/^moomoo\.csv, line 2: column 'Side': unknown Side 'Hold'/);
    expect(() => read(`${fills}\nAAPL,Apple,Buy,1,1.00,1.00,"Feb 30, 2026 10:12:14 ET",US,USD,`)).toThrow(/^moomoo\.csv, line 2: column 'Fill Time'/);
    expect(() => read(`${fills}\nAAPL,Apple,Buy,1,1.00,1.00,yesterday,US,USD,`)).toThrow(/^moomoo\.csv, line 2: column 'Fill Time': .*not a moomoo time/);
    expect(() => read(`${fills}\n,,,1,1.00,1.00,"Jan 8, 2026 10:12:14 ET",US,USD,`)).toThrow(/^moomoo\.csv, line 2: column 'Side'.*follows its order's row/);
    expect(() => read(`${orders}\nBuy,AAPL,Apple,1,1,1,Filled,1@x,"Jan 8, 2026 10:00:00 ET",US,USD,,,,,,`)).toThrow(/^moomoo\.csv, line 2: column 'Filled@Avg Price'/);
  });

  it("reads every example with any one cell made hostile, or refuses it naming the file and line: never another error", () => {
    const next = random(20261207);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    for (const { file } of CASES) {
      const lines = fixture(file).toString('utf8').split('\n');
      const header = lines.findIndex((line) => line.split(',').length > 4);
      const rows = lines.map((line, index) => ({ index, cells: line.split(',') })).filter(({ index, cells }) => index > header && cells.length > 4);
      // Every hostile value in every column, each in a row picked at random.
      for (let column = 0; column < lines[header].split(',').length; column += 1) {
        for (const value of HOSTILE_CELLS) {
          const { index: at, cells: written } = pick(rows);
          const cells = written.map((cell, index) => (index === column ? value : cell));
          const changed = lines.map((line, index) => (index === at ? cells.join(',') : line)).join('\n');
          try {
            matchTrades(parseTransactionsFile(file, changed).transactions, []);
          } catch (error) {
            if (!(error instanceof ImportFileError)) throw new Error(`${file}, line ${at + 1} as ${JSON.stringify(cells)}: ${String(error)}`, { cause: error });
            expect(error.message.startsWith(`${file}, line `)).toBe(true);
          }
        }
      }
    }
  });

  it('refuses a row it cannot read, naming the file, line and column', () => {
    const refusal = (file: string, text: string): string => {
      try {
        parseTransactionsFile(file, text);
      } catch (error) {
        if (error instanceof ImportFileError) return error.message;
        throw error;
      }
      throw new Error('accepted');
    };
    const webull = 'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time';
    expect(refusal('w.csv', `${webull}\nX,AAPL,Hold,Filled,1,1,@1,1,DAY,01/03/2024 09:35:00 EST,01/03/2024 09:35:00 EST`)).toMatch(/^w\.csv, line 2: column 'Side': unknown Side 'HOLD'/);
    expect(refusal('w.csv', `${webull}\nX,AAPL,Buy,Filled,1,1,@1,1,DAY,01/03/2024 09:35:00 EST,13/45/2024 09:35:00 EST`)).toMatch(/^w\.csv, line 2: column 'Filled Time'/);
    const etrade = 'TransactionDate,TransactionType,SecurityType,Symbol,Quantity,Amount,Price,Commission,Description';
    expect(refusal('e.csv', `For Account:,####1\n${etrade}\n01/03/24,Bought,EQ,AAPL,ten,-1850.00,185.00,0.00,APPLE`)).toMatch(/^e\.csv, line 3: column 'Quantity'/);
    const statement = 'Statement,Header,Field Name,Field Value\nTrades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code';
    expect(refusal('s.csv', `${statement}\nTrades,Data,Order,Stocks,USD,AAPL,"2024-01-03, 09:35:12",x,185,186,-1850,-1,1851,0,10,O`)).toMatch(/^s\.csv, line 3: column 'Quantity'/);
    expect(refusal('s.csv', 'Statement,Header,Field Name,Field Value\nStatement,Data,Title,Activity Statement')).toMatch(/no trades or dividends/);
    const vanguard = 'Account Number,Trade Date,Settlement Date,Transaction Type,Transaction Description,Investment Name,Symbol,Shares,Share Price,Principal Amount,Commissions and Fees,Net Amount,Accrued Interest,Account Type,';
    const buy = (account: string) => `${account},01/03/2024,01/04/2024,Buy,Buy,APPLE INC,AAPL,1,185.00,-185.00,0.00,-185.00,0.00,CASH,`;
    expect(refusal('v.csv', [vanguard, buy('111'), buy('222')].join('\n'))).toMatch(/^v\.csv, line 3: malformed CSV \(the file holds several accounts \(111, 222\); export one account per file\)/);
    expect(refusal('v.csv', 'Account Number,Investment Name,Symbol,Shares,Share Price,Total Value,\n1,APPLE INC,AAPL,3,210,630,')).toMatch(/holdings only/);
  });
});
