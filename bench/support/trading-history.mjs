// Ten years of one trader's Schwab exports for the report benchmarks, with exact counts: `trades`
// completed trades (round trips of one lot, never overlapping within a symbol, so each sale closes
// exactly one lot; a few are shorts) and `dividends` dividend rows, spread over `symbols` symbols.
// A share of the sales have broker lot details (hybrid matching), the rest are matched FIFO. Some
// symbols end with shares still held. Whole shares and cent prices keep every Amount exact.

const HEADER = '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"';
const LOT_HEADER =
  '"Symbol","Name","Closed Date","Opened Date","Quantity","Proceeds Per Share","Cost Per Share","Proceeds","Cost Basis (CB)","Gain/Loss ($)","Gain/Loss (%)","Long Term Gain/Loss","Short Term Gain/Loss","Term","Unadjusted Cost Basis","Wash Sale?","Disallowed Loss","Transaction Closed Date","Transaction Cost Basis","Total Transaction Gain/Loss ($)","Total Transaction Gain/Loss (%)","LT Transaction Gain/Loss ($)","LT Transaction Gain/Loss (%)","ST Transaction Gain/Loss ($)","ST Transaction Gain/Loss (%)"';

/** mulberry32: the same files on every run (and the same random choices in the tests that use it). */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Weekdays from Monday 2015-01-05 through 2024-12-31, as [ISO, MM/DD/YYYY]. */
function weekdays() {
  const days = [];
  for (let time = Date.UTC(2015, 0, 5); time <= Date.UTC(2024, 11, 31); time += 86_400_000) {
    const date = new Date(time);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const iso = date.toISOString().slice(0, 10);
    days.push([iso, `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`]);
  }
  return days;
}

const money = (cents) => {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
};
const quote = (cells) => cells.map((cell) => `"${cell}"`).join(',');

function tickerOf(index) {
  let name = '';
  for (let rest = index + 26 * 26; rest > 0; rest = Math.floor(rest / 26)) name = String.fromCharCode(65 + (rest % 26)) + name;
  return name;
}

/**
 * @returns {{ transactions: string, gains: string, trades: number, dividends: number, lots: number, rows: number, firstDay: string, lastDay: string }}
 */
export function generateTradingHistory({ trades = 100_000, dividends = 5_000, symbols = 200, brokerLotShare = 0.2, seed = 11 } = {}) {
  const next = random(seed);
  const days = weekdays();
  const events = []; // [day index, order within the day, CSV line]
  const lots = [];
  let order = 0;
  const at = (day, line) => events.push([day, order++, line]);
  const perSymbol = Math.ceil(trades / symbols);
  let made = 0;
  for (let s = 0; s < symbols && made < trades; s += 1) {
    const symbol = tickerOf(s);
    const name = `${symbol} HOLDINGS INC`;
    let priceCents = 2_000 + Math.floor(next() * 30_000);
    const slot = (days.length - 1) / perSymbol;
    for (let t = 0; t < perSymbol && made < trades; t += 1, made += 1) {
      const open = Math.floor(t * slot);
      const close = Math.min(open + Math.floor(next() * 4), Math.floor((t + 1) * slot) - 1, days.length - 1);
      const quantity = 1 + Math.floor(next() * 200);
      priceCents = Math.max(100, priceCents + Math.round((next() - 0.5) * priceCents * 0.04));
      const exitCents = Math.max(100, priceCents + Math.round((next() - 0.48) * priceCents * 0.06));
      if (next() < 0.03) {
        // A short: Sell Short, later Buy to Cover.
        at(open, quote([days[open][1], 'Sell Short', symbol, name, quantity, money(priceCents), '', money(quantity * priceCents)]));
        at(close, quote([days[close][1], 'Buy to Cover', symbol, name, quantity, money(exitCents), '', money(-quantity * exitCents)]));
        continue;
      }
      const cost = quantity * priceCents;
      const proceeds = quantity * exitCents;
      at(open, quote([days[open][1], 'Buy', symbol, name, quantity, money(priceCents), '', money(-cost)]));
      at(close, quote([days[close][1], 'Sell', symbol, name, quantity, money(exitCents), '', money(proceeds)]));
      if (next() < brokerLotShare) {
        const gain = proceeds - cost;
        lots.push(
          quote([
            symbol, name.slice(0, 20), days[close][1], days[open][1], quantity, money(exitCents), money(priceCents), money(proceeds), money(cost),
            money(gain), `${((gain / cost) * 100).toFixed(2)}%`, '', money(gain), 'Short Term', money(cost), 'No', '', days[close][1], '', '', '', '', '', '', '',
          ]),
        );
      }
    }
    // A third of the symbols are still held at the end.
    if (s % 3 === 0) {
      const last = days.length - 1;
      at(last, quote([days[last][1], 'Buy', symbol, name, 10, money(priceCents), '', money(-10 * priceCents)]));
    }
  }
  for (let d = 0; d < dividends; d += 1) {
    const symbol = tickerOf(d % symbols);
    const day = Math.floor(next() * days.length);
    const cents = 100 + Math.floor(next() * 20_000);
    at(day, quote([days[day][1], d % 2 === 0 ? 'Cash Dividend' : 'Qualified Dividend', symbol, `${symbol} HOLDINGS INC`, '', '', '', money(cents)]));
  }
  // Newest first; within a day the later event first (an export lists a day bottom-up).
  events.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  const title = `"Realized Gain/Loss - Lot Details for XXXX-1234 as of Wed Jan 01 08:00:00 EST 2025 from 01/05/2015 to 12/31/2024"${',""'.repeat(24)}`;
  return {
    transactions: `${HEADER}\r\n${events.map((event) => event[2]).join('\r\n')}\r\n`,
    gains: `${title}\r\n${LOT_HEADER}\r\n${lots.join('\r\n')}\r\n`,
    trades: made,
    dividends,
    lots: lots.length,
    rows: events.length,
    firstDay: days[0][0],
    lastDay: days[days.length - 1][0],
  };
}

/**
 * The generated Schwab history in another broker's layout (docs/formats.md), for the import's speed on
 * every layout: the same trades and dividends where the layout has them (Robinhood has no shorts, an
 * IBKR Flex trades file no dividends: those rows are left out). Returns the file and its data rows.
 * @param {string} schwab the `transactions` of `generateTradingHistory`
 * @param {'robinhood' | 'ibkr-flex'} layout
 * @returns {{ text: string, rows: number }}
 */
export function inLayout(schwab, layout) {
  const records = schwab
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.slice(1, -1).split('","'));
  const cents = (text) => Math.round(Number(text.replace(/[$,]/g, '')) * 100);
  const plain = (value) => (value / 100).toFixed(2);
  if (layout === 'robinhood') {
    const CODES = { Buy: 'Buy', Sell: 'Sell', 'Cash Dividend': 'CDIV', 'Qualified Dividend': 'CDIV' };
    const lines = [];
    for (const [date, action, symbol, description, quantity, price, , amount] of records) {
      const code = CODES[action];
      if (code === undefined) continue;
      const [month, day, year] = date.split('/').map(Number);
      const when = `${month}/${day}/${year}`;
      const value = cents(amount);
      const shown = `${value < 0 ? '(' : ''}$${(Math.abs(value) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}${value < 0 ? ')' : ''}`;
      lines.push(quote([when, when, when, symbol, description, code, quantity, price, shown]));
    }
    const header = quote(['Activity Date', 'Process Date', 'Settle Date', 'Instrument', 'Description', 'Trans Code', 'Quantity', 'Price', 'Amount']);
    return { text: `${header}\n${lines.join('\n')}\n\n"The data provided is for informational purposes only."\n`, rows: lines.length };
  }
  // IBKR Flex: oldest first (the Schwab file reversed), signed quantities, NetCash.
  const SIDES = { Buy: ['BUY', 'O', 1], Sell: ['SELL', 'C', -1], 'Sell Short': ['SELL', 'O', -1], 'Buy to Cover': ['BUY', 'C', 1] };
  const lines = [];
  for (const [date, action, symbol, description, quantity, price, , amount] of [...records].reverse()) {
    const side = SIDES[action];
    if (side === undefined) continue;
    const [month, day, year] = date.split('/');
    lines.push(quote(['U7654321', 'USD', 'STK', symbol, description, `${year}${month}${day}`, String(side[2] * Number(quantity)), plain(cents(price)), plain(cents(amount)), side[1], side[0]]));
  }
  const header = quote(['ClientAccountID', 'CurrencyPrimary', 'AssetClass', 'Symbol', 'Description', 'TradeDate', 'Quantity', 'TradePrice', 'NetCash', 'Open/CloseIndicator', 'Buy/Sell']);
  return { text: `${header}\n${lines.join('\n')}\n`, rows: lines.length };
}

/**
 * The symbols an active trader's history of `rows` rows is generated over in the benchmarks: 1,026,
 * and ten times as many at ten times the rows, so a symbol's history keeps its length (1,026 symbols
 * hold only about 580,000 rows).
 */
export function activeTraderSymbols(rows) {
  return Math.round(1_026 * Math.max(1, rows / 100_000));
}

/**
 * An active trader's two years (2023–2024) of Schwab exports, the heavier shape: `rows` transaction
 * rows over `symbols` symbols, broker lot details for every sale, several lots closed by most sales
 * (a position built in 1–5 buys, 2.85 on average, then sold at once), about 3,000 trades a month, a
 * few shorts (matched FIFO: Schwab's lot details list sales of long positions) and 2-for-1 splits of
 * a long-held position in one symbol of forty. Exact counts: `trades` is the number of lots closed.
 * @returns {{ transactions: string, gains: string, trades: number, dividends: number, lots: number, rows: number, firstDay: string, lastDay: string }}
 */
export function generateActiveTraderHistory({ rows = 100_000, symbols = 1_026, dividends = 2_000, seed = 23 } = {}) {
  const next = random(seed);
  const days = weekdays().filter(([iso]) => iso >= '2023-01-02');
  const events = [];
  const lots = [];
  let order = 0;
  let trades = 0;
  const at = (day, line) => events.push([day, order++, line]);
  const name = (symbol) => `${symbol} HOLDINGS INC`;
  // Positions of 1–5 lots; weights giving 2.85 lots per sale, so 100,000 rows hold about 74,000 lots.
  const LOT_COUNTS = [1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 1, 2, 3, 4, 3, 2, 4, 3, 3];
  const state = Array.from({ length: symbols }, (_, s) => ({ symbol: tickerOf(s), day: Math.floor(next() * 20), price: 2_000 + Math.floor(next() * 30_000) }));
  const core = state.filter((_, s) => s % 40 === 0);
  for (const held of core) {
    // Ten shares held throughout, split 2-for-1 on a day in the middle.
    at(0, quote([days[0][1], 'Buy', held.symbol, name(held.symbol), 10, money(held.price), '', money(-10 * held.price)]));
    const splitDay = 200 + Math.floor(next() * 100);
    at(splitDay, quote([days[splitDay][1], 'Stock Split', held.symbol, name(held.symbol), 10, '', '', '']));
    held.splitDay = splitDay;
  }
  const reserved = core.length * 2 + dividends;
  // Rounds spread over the two years: a symbol's next position starts a random gap after its last
  // sale (3.85 rows and 3.4 days per position on average).
  const spacing = Math.max(0, (days.length * symbols * 3.85) / Math.max(1, rows - reserved) - 3.4);
  const rest = () => Math.floor(next() * 2 * spacing);
  for (let round = 0, idle = 0; events.length + reserved < rows && idle < symbols; round += 1) {
    const position = state[round % symbols];
    if (position.day >= days.length - 8) {
      idle += 1;
      continue;
    }
    idle = 0;
    const { symbol } = position;
    const move = () => {
      position.price = Math.max(100, position.price + Math.round((next() - 0.5) * position.price * 0.04));
      return position.price;
    };
    if (position.splitDay === undefined && next() < 0.03) {
      // A short: Sell Short, later Buy to Cover (FIFO).
      const quantity = 1 + Math.floor(next() * 200);
      const open = position.day;
      const close = open + Math.floor(next() * 3);
      at(open, quote([days[open][1], 'Sell Short', symbol, name(symbol), quantity, money(position.price), '', money(quantity * position.price)]));
      const cover = move();
      at(close, quote([days[close][1], 'Buy to Cover', symbol, name(symbol), quantity, money(cover), '', money(-quantity * cover)]));
      trades += 1;
      position.day = close + 1 + rest();
      continue;
    }
    const count = LOT_COUNTS[Math.floor(next() * LOT_COUNTS.length)];
    const bought = [];
    let day = position.day;
    for (let b = 0; b < count; b += 1) {
      if (position.splitDay === day) day += 1; // no trade on its split day, so the split applies to the core alone
      const quantity = 1 + Math.floor(next() * 100);
      const price = move();
      at(day, quote([days[day][1], 'Buy', symbol, name(symbol), quantity, money(price), '', money(-quantity * price)]));
      bought.push({ day, quantity, price });
      day += Math.floor(next() * 2);
    }
    if (position.splitDay !== undefined && bought[0].day <= position.splitDay && day >= position.splitDay) day = position.splitDay + 1;
    const close = Math.min(day + Math.floor(next() * 3), days.length - 1);
    const exit = move();
    const shares = bought.reduce((sum, lot) => sum + lot.quantity, 0);
    at(close, quote([days[close][1], 'Sell', symbol, name(symbol), shares, money(exit), '', money(shares * exit)]));
    for (const lot of bought) {
      const cost = lot.quantity * lot.price;
      const proceeds = lot.quantity * exit;
      const gain = proceeds - cost;
      lots.push(
        quote([
          symbol, name(symbol).slice(0, 20), days[close][1], days[lot.day][1], lot.quantity, money(exit), money(lot.price), money(proceeds), money(cost),
          money(gain), `${((gain / cost) * 100).toFixed(2)}%`, '', money(gain), 'Short Term', money(cost), 'No', '', days[close][1], '', '', '', '', '', '', '',
        ]),
      );
    }
    trades += bought.length;
    position.day = close + 1 + rest();
  }
  for (let d = 0; d < dividends; d += 1) {
    const symbol = state[d % symbols].symbol;
    const day = Math.floor(next() * days.length);
    at(day, quote([days[day][1], 'Qualified Dividend', symbol, name(symbol), '', '', '', money(100 + Math.floor(next() * 20_000))]));
  }
  events.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  const title = `"Realized Gain/Loss - Lot Details for XXXX-1234 as of Wed Jan 01 08:00:00 EST 2025 from 01/02/2023 to 12/31/2024"${',""'.repeat(24)}`;
  return {
    transactions: `${HEADER}\r\n${events.map((event) => event[2]).join('\r\n')}\r\n`,
    gains: `${title}\r\n${LOT_HEADER}\r\n${lots.join('\r\n')}\r\n`,
    trades,
    dividends,
    lots: lots.length,
    rows: events.length,
    firstDay: days[0][0],
    lastDay: days[days.length - 1][0],
  };
}

/**
 * Two years (2023–2024) of Schwab exports of an account that holds many lots at once, for the shapes
 * benchmark (bench/shapes.mjs): `rows` transaction rows spread evenly over the days, each a buy (a
 * `buyShare` of them, and always while a symbol holds fewer than two lots) or a sale of 1 to `lotsPerSale`
 * of the symbol's lots bought on earlier days, the last of them partly when `partial`. `pick` says which
 * lots a sale takes: the oldest (`fifo`), or any (`specific`, as a trader naming lots does: it needs
 * `brokerLots`, the lot details that say which). Lots accumulate: with few symbols a symbol's book holds
 * tens of thousands of open lots. `expected` holds what a correct import gives, per symbol: trades
 * (one per lot a sale takes a part of), their P&L in cents, and the shares left open; `openLots` the
 * lots still open at the end.
 * @returns {{ transactions: string, gains: string, rows: number, lots: number, openLots: number, expected: Map<string, { trades: number, cents: number, shares: number }> }}
 */
export function generateLotHistory({ rows = 100_000, symbols = 10, buyShare = 0.7, lotsPerSale = 3, pick = 'specific', partial = true, brokerLots = true, seed = 31 } = {}) {
  if (pick === 'specific' && !brokerLots) throw new Error('specific lots are told by the broker lot details');
  const next = random(seed);
  const days = weekdays().filter(([iso]) => iso >= '2023-01-02');
  const name = (symbol) => `${symbol} HOLDINGS INC`;
  const state = Array.from({ length: symbols }, (_, s) => ({ symbol: tickerOf(s), price: 2_000 + Math.floor(next() * 30_000), open: [], today: [] }));
  const expected = new Map(state.map(({ symbol }) => [symbol, { trades: 0, cents: 0, shares: 0 }]));
  const lines = [];
  const lots = [];
  let day = -1;
  for (let row = 0; row < rows; row += 1) {
    const today = Math.floor((row / rows) * days.length);
    if (today !== day) {
      // Lots bought on a day are sold from the next day on (the order of one day's rows is the broker's).
      for (const position of state) position.open.push(...position.today.splice(0));
      day = today;
    }
    const position = state[Math.floor(next() * symbols)];
    const { symbol } = position;
    position.price = Math.max(100, position.price + Math.round((next() - 0.5) * position.price * 0.02));
    const price = position.price;
    const totals = expected.get(symbol);
    if (position.open.length < 2 || next() < buyShare) {
      const quantity = 1 + Math.floor(next() * 100);
      lines.push(quote([days[day][1], 'Buy', symbol, name(symbol), quantity, money(price), '', money(-quantity * price)]));
      position.today.push({ day, quantity, price });
      totals.shares += quantity;
      continue;
    }
    const count = Math.min(position.open.length, 1 + Math.floor(next() * lotsPerSale));
    const pieces = [];
    for (let taken = 0; taken < count; taken += 1) {
      const at = pick === 'fifo' ? taken : taken + Math.floor(next() * (position.open.length - taken));
      // The taken lots go to the front, in the order taken, so a FIFO sale's are the oldest.
      [position.open[taken], position.open[at]] = [position.open[at], position.open[taken]];
      const lot = position.open[taken];
      const last = taken === count - 1;
      const quantity = partial && last && lot.quantity > 1 ? 1 + Math.floor(next() * lot.quantity) : lot.quantity;
      pieces.push({ lot, quantity });
    }
    // Whole lots leave the book; a lot sold in part keeps its place with the shares left.
    const whole = pieces.filter((piece) => piece.quantity === piece.lot.quantity).length;
    const partLeft = pieces.find((piece) => piece.quantity < piece.lot.quantity);
    if (partLeft) partLeft.lot.quantity -= partLeft.quantity;
    position.open.splice(0, whole);
    const shares = pieces.reduce((sum, piece) => sum + piece.quantity, 0);
    lines.push(quote([days[day][1], 'Sell', symbol, name(symbol), shares, money(price), '', money(shares * price)]));
    for (const { lot, quantity } of pieces) {
      const cost = quantity * lot.price;
      const gain = quantity * price - cost;
      totals.trades += 1;
      totals.cents += gain;
      if (!brokerLots) continue;
      lots.push(
        quote([
          symbol, name(symbol).slice(0, 20), days[day][1], days[lot.day][1], quantity, money(price), money(lot.price), money(quantity * price), money(cost),
          money(gain), `${((gain / cost) * 100).toFixed(2)}%`, '', money(gain), 'Short Term', money(cost), 'No', '', days[day][1], '', '', '', '', '', '', '',
        ]),
      );
    }
    totals.shares -= shares;
  }
  lines.reverse(); // newest first, as Schwab writes it
  const title = `"Realized Gain/Loss - Lot Details for XXXX-1234 as of Wed Jan 01 08:00:00 EST 2025 from 01/02/2023 to 12/31/2024"${',""'.repeat(24)}`;
  return {
    transactions: `${HEADER}\r\n${lines.join('\r\n')}\r\n`,
    gains: `${title}\r\n${LOT_HEADER}\r\n${lots.join('\r\n')}\r\n`,
    rows: lines.length,
    lots: lots.length,
    openLots: state.reduce((sum, position) => sum + position.open.length + position.today.length, 0),
    expected,
  };
}

/** bench/shapes.mjs's shapes (and bench/profile.mjs's PROFILE_SHAPE): a name, what it is, and `generateLotHistory`'s options. */
export const LOT_SHAPES = [
  ['one-symbol', 'one symbol bought nine times in ten, each sale of 1–2 lots named by the broker: ~85,000 open lots in one book', { symbols: 1, buyShare: 0.9, lotsPerSale: 2 }],
  ['specific-lots', '10 symbols, sales of 1–3 lots named by the broker, some in part: ~3,800 open lots a symbol', { symbols: 10, buyShare: 0.7, lotsPerSale: 3 }],
  ['fifo-no-lots', '50 symbols, no lot details: sales of 1–4 lots matched first in, first out, the last in part', { symbols: 50, buyShare: 0.6, lotsPerSale: 4, pick: 'fifo', brokerLots: false }],
  ['many-symbols', '20,000 symbols, five rows each, sales of 1–2 lots named by the broker', { symbols: 20_000, buyShare: 0.6, lotsPerSale: 2 }],
];

const DATED_ROW = /^"(\d\d)\/(\d\d)\/(\d{4})/;
const isoOfRow = (line) => {
  const [, month, day, year] = DATED_ROW.exec(line);
  return `${year}-${month}-${day}`;
};

/** A file's lines before its data rows (titles and the header) and its data rows. */
function headAndRows(text, isHeader) {
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const header = lines.findIndex((line) => isHeader(line.replace(/^\uFEFF/, '')));
  return { head: lines.slice(0, header + 1), rows: lines.slice(header + 1) };
}

/** The ISO date of each transaction row of a Schwab transactions file (generated or a real export), in file order. */
export function transactionDates(pair) {
  return headAndRows(pair.transactions, (line) => line.startsWith('"Date","Action"'))
    .rows.filter((line) => DATED_ROW.test(line))
    .map(isoOfRow);
}

/**
 * The part of a Schwab pair (generated or a real export) whose transactions are dated, and whose lots
 * were closed, from `from` up to but not including `until` (ISO dates), with each file's lines before
 * its rows (titles, header); and how many transaction rows and lots that is.
 * @returns {{ transactions: string, gains: string, rows: number, lots: number }}
 */
export function between(pair, from, until) {
  const inRange = (date) => date >= from && date < until;
  const transactions = headAndRows(pair.transactions, (line) => line.startsWith('"Date","Action"'));
  const rows = transactions.rows.filter((line) => DATED_ROW.test(line) && inRange(isoOfRow(line)));
  const gains = headAndRows(pair.gains, (line) => line.startsWith('"Symbol","Name","Closed Date"'));
  const lots = gains.rows.filter((line) => {
    const closed = `"${line.split('","')[2] ?? ''}`;
    return DATED_ROW.test(closed) && inRange(isoOfRow(closed));
  });
  return { transactions: [...transactions.head, ...rows, ''].join('\r\n'), gains: [...gains.head, ...lots, ''].join('\r\n'), rows: rows.length, lots: lots.length };
}

/** The ISO date `days` days before `iso` (after it for a negative `days`). */
export const dayBefore = (iso, days) => new Date(Date.parse(`${iso}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/**
 * A history cut as the scale benchmark uploads it (issue 22's daily uploads): `base`, everything
 * before the busiest day of the history's last four weeks (its very last days hold few rows, as the
 * generator closes its positions before the end); `lastDay`, that day alone; `overlap`, a 90-day
 * export ending with the next day with rows, all but whose last day (`overlapNew`) the account holds
 * once `base` and `lastDay` are in.
 */
export function dailyUploads(history) {
  const dates = transactionDates(history);
  const from = dayBefore(history.lastDay, 28);
  const counts = new Map();
  for (const date of dates) if (date >= from) counts.set(date, (counts.get(date) ?? 0) + 1);
  const newDay = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
  const nextDay = dates.filter((date) => date > newDay).sort()[0];
  return {
    base: between(history, '0000-01-01', newDay),
    lastDay: between(history, newDay, dayBefore(newDay, -1)),
    overlap: between(history, dayBefore(nextDay, 89), dayBefore(nextDay, -1)),
    overlapNew: between(history, nextDay, dayBefore(nextDay, -1)),
  };
}
