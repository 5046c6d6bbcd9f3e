import { eachInTurns, rowsOf, type CopyJob, type CopyTarget, type CopyValue } from '@app/persistence/sql';
import { Decimal, decimalPlaces, type IsoDate } from '@app/shared/domain';
import type { AccountLedger, LedgerTrade } from '../../application/trade-ledger.port.js';
import { holdingPeriodOf, PROFIT_LOSS_EDGES, profitLossBucketOf } from '../../domain/trade-statistics.js';

/** What a ledger's rollups are made of: the ledger's trades, dividends and positions added up once. */
interface RollupTotals {
  daysOfSymbols: SymbolDays[];
  days: DayTotals[];
  symbols: SymbolTotals[];
  groups: GroupTotals[];
}

type RolledUpLedger = Pick<AccountLedger, 'trades' | 'dividends' | 'positions' | 'companyNames'>;

/** A ledger whose trades are added up as they are written (`tradesAdded`, once all are), and the rest of it once it is whole. */
export interface TradesAddedUp {
  readonly tradesAdded: Promise<LedgerRollup>;
  readonly rest: Promise<Omit<RolledUpLedger, 'trades'>>;
}

/**
 * A user's report rollups computed from one account's ledger in memory, for when that account is all
 * the user has: the rows `refreshTradeReports`' statements would insert, written with `COPY` instead
 * (its four INSERT … SELECTs were a third of a second of the database's work at the end of a
 * 100,000-row import, with the service waiting). The same rows to the character: sums carry as many
 * decimals as the most precise of their terms (PostgreSQL's numeric sum), extremes are their own
 * figure's text, and each value is the one the trade's row was written with. `ledger-rollups.spec`
 * compares them with the statements' rows. Nothing is added up until the writer asks for the first
 * job's rows: on a server once it has sent the trades (while the server takes them in), on the
 * embedded engine once it comes to the job; the adding up takes turns of the event loop (70,000
 * trades took 140–360 ms, a million several seconds, with no other request answered).
 *
 * A ledger still worked out has its trades added up as they are written (`TradesAddedUp`): the rest of
 * it is added once it is whole and the rollup has every trade.
 */
export function rollupJobs(userId: number, accountId: number, ledger: RolledUpLedger | TradesAddedUp): CopyJob[] {
  let totals: Promise<RollupTotals> | undefined;
  const rest = 'tradesAdded' in ledger ? ledger.rest : Promise.resolve(ledger);
  const added = () =>
    (totals ??= (async () => {
      const rollup = 'tradesAdded' in ledger ? await ledger.tradesAdded : await rollupOfTrades(ledger.trades);
      return rollup.totals(await rest);
    })());
  const names = async () => (await rest).companyNames;
  return [
    {
      target: DAILY_SYMBOL_TOTALS,
      rows: async () => daysOfSymbolsRows(userId, (await added()).daysOfSymbols),
    },
    {
      target: DAILY_TOTALS,
      rows: async () => rowsOf((await added()).days, (t) => [userId, t.day, t.trades, t.winning, t.pnl.text(), t.dividends.count, t.dividends.paid.text()]),
    },
    {
      target: SYMBOL_TOTALS,
      rows: async () => {
        const companyNames = await names();
        return rowsOf((await added()).symbols, (t) => [userId, accountId, t.symbol, t.symbol === '' ? null : (companyNames.get(t.symbol) ?? null), ...t.columns()]);
      },
    },
    {
      target: TRADE_STATISTIC_GROUPS,
      rows: async () =>
        rowsOf((await added()).groups, (g) => [
          userId,
          g.grouping,
          g.side,
          g.key,
          g.trades,
          g.winning,
          g.losing,
          g.grossProfit.text(),
          g.grossLoss.text(),
          g.winnersDays,
          g.losersDays,
          g.max,
          g.min,
        ]),
    },
  ];
}

/** A rollup of `trades`, added up with turns of the event loop. */
async function rollupOfTrades(trades: readonly LedgerTrade[]): Promise<LedgerRollup> {
  const rollup = new LedgerRollup();
  await eachInTurns(trades, (trade) => rollup.addTrade(trade));
  return rollup;
}

/**
 * One account's ledger added up for the rollups: its trades one at a time (as they are written, where
 * a whole history's are written as matching makes them: they need not all be kept), then its dividends
 * and positions (`totals`).
 */
export class LedgerRollup {
  // Keyed by the rows' own strings, map within map: a key made of several (a new string each time)
  // is hashed anew at every lookup, which took most of the time over 70,000 trades.
  private readonly days = new Map<string, SymbolDays>();
  private readonly symbols = new Map<string, SymbolTotals>();
  /** A side's groupings, each a map by key. */
  private readonly sides = new Map<string, Map<string, GroupTotals>[]>();

  addTrade(trade: LedgerTrade): void {
    const pnl = new Term(trade.totalProfitLoss);
    const win = trade.tradeResult === 'Win';
    this.daysOf(trade.symbol).addTrade(trade.closeDate, pnl, win);
    this.symbolOf(trade.symbol).addTrade(trade, pnl, win);
    const { side, holdingDays } = trade;
    this.groupOf(Grouping.Side, side, side).add(pnl, holdingDays);
    this.groupOf(Grouping.Day, side, trade.closeDate).add(pnl, holdingDays);
    this.groupOf(Grouping.Period, side, holdingPeriodOf(holdingDays)).add(pnl, holdingDays);
    this.groupOf(Grouping.Symbol, side, trade.symbol).add(pnl, holdingDays);
    this.groupOf(Grouping.Bucket, side, BUCKET_KEYS[profitLossBucketOf(trade.totalProfitLoss)]).add(pnl, holdingDays);
  }

  /** The rollups' rows once `rest`'s dividends and positions are added too (once: the rollup is spent). */
  async totals(rest: Pick<RolledUpLedger, 'dividends' | 'positions'>): Promise<RollupTotals> {
    await eachInTurns(rest.dividends, (dividend) => {
      const amount = new Term(dividend.amount);
      this.daysOf(dividend.symbol).addDividend(dividend.transactionDate, amount);
      if (dividend.symbol !== '') this.symbolOf(dividend.symbol).addDividend(dividend.transactionDate, amount);
    });
    await eachInTurns(rest.positions, (position) => this.symbolOf(position.symbol).addPosition(position.date, position.shares));

    const perDay = new Map<IsoDate, DayTotals>();
    const daysOfSymbols = [...this.days.values()];
    // With turns, a symbol at a time: a million rows' days of symbols took a tenth of a second at once.
    await eachInTurns(daysOfSymbols, (ofSymbol) => {
      for (let place = 0; place < ofSymbol.days.length; place += 1) {
        const day = ofSymbol.days[place];
        let all = perDay.get(day);
        if (all === undefined) perDay.set(day, (all = new DayTotals(day)));
        ofSymbol.addTo(place, all);
      }
    });
    return {
      daysOfSymbols,
      days: [...perDay.values()],
      symbols: [...this.symbols.values()],
      groups: [...this.sides.values()].flatMap((ofSide) => ofSide.flatMap((ofGrouping) => [...ofGrouping.values()])),
    };
  }

  private daysOf(symbol: string): SymbolDays {
    let days = this.days.get(symbol);
    if (days === undefined) this.days.set(symbol, (days = new SymbolDays(symbol)));
    return days;
  }

  private symbolOf(symbol: string): SymbolTotals {
    let totals = this.symbols.get(symbol);
    if (totals === undefined) this.symbols.set(symbol, (totals = new SymbolTotals(symbol)));
    return totals;
  }

  private groupOf(grouping: Grouping, side: string, key: string): GroupTotals {
    let ofSide = this.sides.get(side);
    if (ofSide === undefined) this.sides.set(side, (ofSide = GROUPINGS.map(() => new Map())));
    const ofGrouping = ofSide[grouping];
    let totals = ofGrouping.get(key);
    if (totals === undefined) ofGrouping.set(key, (totals = new GroupTotals(GROUPINGS[grouping], side, key)));
    return totals;
  }
}

/** The statistics' groupings (`trade_statistic_groups.grouping`), by their place in `GROUPINGS`. */
enum Grouping {
  Side,
  Day,
  Period,
  Symbol,
  Bucket,
}
const GROUPINGS = ['side', 'day', 'period', 'symbol', 'bucket'] as const;

/** The bucket numbers as keys (one string each, not one per trade). */
const BUCKET_KEYS = Array.from({ length: PROFIT_LOSS_EDGES.length + 1 }, (_, bucket) => String(bucket));

/** A figure as a term of sums and extremes: its sign and its decimals, worked out once for all the sums it goes into. */
class Term {
  readonly sign: -1 | 0 | 1;
  readonly places: number;

  constructor(readonly value: Decimal) {
    this.sign = value.sign();
    this.places = decimalPlaces(value);
  }
}

/**
 * A sum of exact figures as PostgreSQL's numeric `SUM` writes it: with as many decimals as its most
 * precise term (each term as its row was written: the figure's shortest text); `0` for no terms,
 * as the statements' COALESCE gives. Summed in a number while one holds the units exactly (below
 * 2^53: $900,719.92…); a term that would take it past that carries the number into a bigint and starts
 * it again, so the sum is the bigint and the number. A sum kept in the bigint once past it (a heavy
 * trader's gross profit, a year's volume) made three bigints for every term added after: 14 MB of the
 * 100,000-row import's allocations, where carrying takes one now and then.
 */
class NumericSum {
  /** Units in a number, exact (below 2^53 either way). */
  private exact = 0;
  /** Units carried out of `exact`, and terms beyond a number's exact units: the sum is this and `exact`. */
  private big: bigint | undefined;
  private places = 0;

  add(term: Term): void {
    this.addFigure(term.value, term.places);
  }

  /** Adds a figure with its decimals, as `add` does a term's (a figure that goes into one sum only needs no `Term`). */
  addFigure(value: Decimal, places = decimalPlaces(value)): void {
    this.addParts(value.exactUnits, value, places);
  }

  /** Adds another sum (a sum of sums: the decimals of the most precise). */
  addSum(sum: NumericSum): void {
    this.addParts(sum.big === undefined ? sum.exact : undefined, sum, sum.places);
  }

  /** Adds a term or a sum given by its parts (a `Term`'s, a `NumericSum`'s, `SumList`'s): its units as a number where they are exact, else as `whole`'s bigint, and its decimals. */
  addParts(exact: number | undefined, whole: { readonly rawUnits: bigint }, places: number): void {
    if (places > this.places) this.places = places;
    if (exact === undefined) {
      this.big = (this.big ?? 0n) + whole.rawUnits;
      return;
    }
    const next = exactSum(this.exact, exact);
    if (next !== undefined) {
      this.exact = next;
      return;
    }
    this.big = (this.big ?? 0n) + BigInt(this.exact);
    this.exact = exact;
  }

  text(): string {
    return sumText(this.exact, this.big, this.places);
  }

  /** The units so far as a bigint. */
  get rawUnits(): bigint {
    return unitsOf(this.exact, this.big);
  }
}

/** `exact + units` (counts of units) where a number holds it exactly: below 2^53 (a rounded sum is 2^53 or more); else undefined. */
function exactSum(exact: number, units: number): number | undefined {
  const next = exact + units;
  return next <= Number.MAX_SAFE_INTEGER && next >= -Number.MAX_SAFE_INTEGER ? next : undefined;
}

/** A sum's units from its parts: a number's exact units, and what was carried out of it as a bigint. */
function unitsOf(exact: number, big: bigint | undefined): bigint {
  return big === undefined ? BigInt(exact) : big + BigInt(exact);
}

/** A sum as `NumericSum.text` writes it, from its parts (`unitsOf`). */
function sumText(exact: number, big: bigint | undefined, places: number): string {
  return (big === undefined ? Decimal.fromExactUnits(exact) : Decimal.fromUnits(unitsOf(exact, big))).toFixed(places);
}

/**
 * Sums of exact figures as `NumericSum` makes them, one for each place of a list, kept in arrays: a
 * `NumericSum` for each of a million rows' 250,000 days of symbols (with its boxed number) was 15 MB
 * of the import's heap as its trades were matched.
 */
class SumList {
  private readonly exact: number[] = [];
  private readonly places: number[] = [];
  /** What the sums carried past a number's exact units (`NumericSum`), by place: next to none. */
  private big: Map<number, bigint> | undefined;

  /** A new sum of no terms, at the end of the list. */
  push(): void {
    this.exact.push(0);
    this.places.push(0);
  }

  add(at: number, term: Term): void {
    if (term.places > this.places[at]) this.places[at] = term.places;
    const units = term.value.exactUnits;
    if (units === undefined) {
      this.carry(at, term.value.rawUnits);
      return;
    }
    const next = exactSum(this.exact[at], units);
    if (next !== undefined) {
      this.exact[at] = next;
      return;
    }
    this.carry(at, BigInt(this.exact[at]));
    this.exact[at] = units;
  }

  /** Adds the sum at `at` to `sum`. */
  addTo(at: number, sum: NumericSum): void {
    const big = this.big?.get(at);
    sum.addParts(big === undefined ? this.exact[at] : undefined, { rawUnits: unitsOf(this.exact[at], big) }, this.places[at]);
  }

  text(at: number): string {
    return sumText(this.exact[at], this.big?.get(at), this.places[at]);
  }

  private carry(at: number, units: bigint): void {
    const big = (this.big ??= new Map());
    big.set(at, (big.get(at) ?? 0n) + units);
  }
}

/** A day's dividends (of a symbol, or of all). */
class DividendDay {
  count = 0;
  readonly paid = new NumericSum();
}

/** A sum of no terms, only read. */
const NO_TERMS = new NumericSum();

/**
 * One symbol's days with trades or dividends, as `daily_symbol_totals` holds them: in arrays, a place
 * for each day in the order the days came (in closing order where the trades come so, as an import's
 * do). A `DayTotals` object for each day, its sum and its map entry, were about 170 bytes a day, 43 MB
 * for a million rows' 250,000 days of symbols until their rollups were written.
 */
class SymbolDays {
  readonly days: IsoDate[] = [];
  private readonly trades: number[] = [];
  private readonly winning: number[] = [];
  private readonly pnl = new SumList();
  /** The dividends of the days that have any, by place. */
  private dividends: Map<number, DividendDay> | undefined;
  /** Each day's place, made when a day is looked up that is not the last (most symbols never need it). */
  private places: Map<IsoDate, number> | undefined;

  constructor(readonly symbol: string) {}

  addTrade(day: IsoDate, pnl: Term, win: boolean): void {
    const place = this.placeOf(day);
    this.trades[place] += 1;
    if (win) this.winning[place] += 1;
    this.pnl.add(place, pnl);
  }

  addDividend(day: IsoDate, amount: Term): void {
    const place = this.placeOf(day);
    let dividends = (this.dividends ??= new Map()).get(place);
    if (dividends === undefined) this.dividends.set(place, (dividends = new DividendDay()));
    dividends.count += 1;
    dividends.paid.add(amount);
  }

  /** Adds the day at `place` to the totals of its day across symbols. */
  addTo(place: number, all: DayTotals): void {
    all.trades += this.trades[place];
    all.winning += this.winning[place];
    this.pnl.addTo(place, all.pnl);
    const dividends = this.dividends?.get(place);
    if (dividends !== undefined) {
      all.dividends.count += dividends.count;
      all.dividends.paid.addSum(dividends.paid);
    }
  }

  /** The day at `place` as its row's figures after the user, symbol and day. */
  figures(place: number): CopyValue[] {
    const dividends = this.dividends?.get(place);
    return [this.trades[place], this.winning[place], this.pnl.text(place), dividends?.count ?? 0, (dividends?.paid ?? NO_TERMS).text()];
  }

  private placeOf(day: IsoDate): number {
    const last = this.days.length - 1;
    if (last >= 0 && this.days[last] === day) return last;
    if (this.places === undefined) {
      if (last < 0 || day > this.days[last]) return this.added(day);
      this.places = new Map(this.days.map((each, place) => [each, place]));
    }
    return this.places.get(day) ?? this.added(day);
  }

  private added(day: IsoDate): number {
    const place = this.days.push(day) - 1;
    this.trades.push(0);
    this.winning.push(0);
    this.pnl.push();
    this.places?.set(day, place);
    return place;
  }
}

/** The rows of `daily_symbol_totals`, made as they are written. */
function* daysOfSymbolsRows(userId: number, daysOfSymbols: readonly SymbolDays[]): Generator<readonly CopyValue[]> {
  for (const ofSymbol of daysOfSymbols) {
    for (let place = 0; place < ofSymbol.days.length; place += 1) yield [userId, ofSymbol.symbol, ofSymbol.days[place], ...ofSymbol.figures(place)];
  }
}

/** A day's totals across symbols (`daily_totals`). */
class DayTotals {
  trades = 0;
  winning = 0;
  readonly pnl = new NumericSum();
  readonly dividends = new DividendDay();

  constructor(readonly day: IsoDate) {}
}

class GroupTotals {
  trades = 0;
  winning = 0;
  losing = 0;
  readonly grossProfit = new NumericSum();
  readonly grossLoss = new NumericSum();
  winnersDays = 0;
  losersDays = 0;
  max = Decimal.ZERO;
  min = Decimal.ZERO;

  constructor(
    readonly grouping: string,
    readonly side: string,
    readonly key: string,
  ) {}

  add(pnl: Term, holdingDays: number): void {
    if (this.trades === 0 || pnl.value.gt(this.max)) this.max = pnl.value;
    if (this.trades === 0 || pnl.value.lt(this.min)) this.min = pnl.value;
    this.trades += 1;
    if (pnl.sign > 0) {
      this.winning += 1;
      this.grossProfit.add(pnl);
      this.winnersDays += holdingDays;
    } else if (pnl.sign < 0) {
      this.losing += 1;
      this.grossLoss.add(pnl);
      this.losersDays += holdingDays;
    }
  }
}

/** One account's symbol: its trades, dividends (a symbol's, not the empty one's) and positions, as `symbol_totals` holds them. */
class SymbolTotals {
  private trades = 0;
  private winning = 0;
  private readonly pnl = new NumericSum();
  private minPnl: Decimal | null = null;
  private maxPnl: Decimal | null = null;
  private readonly returns = new NumericSum();
  private minReturn: Decimal | null = null;
  private maxReturn: Decimal | null = null;
  private holdingDays = 0;
  private readonly volume = new NumericSum();
  private readonly costBasis = new NumericSum();
  private firstTrade: IsoDate | null = null;
  private lastTrade: IsoDate | null = null;
  private firstOpen: IsoDate | null = null;
  private dividends = 0;
  private readonly paid = new NumericSum();
  private firstDividend: IsoDate | null = null;
  private lastDividend: IsoDate | null = null;
  private firstPosition: IsoDate | null = null;
  private latestPosition: IsoDate | null = null;
  private currentShares: Decimal = Decimal.ZERO;
  private brokerTrades = 0;
  private fifoLong = false;
  private fifoShort = false;

  constructor(readonly symbol: string) {}

  addTrade(trade: AccountLedger['trades'][number], pnl: Term, win: boolean): void {
    const ret = trade.returnPercentage;
    this.trades += 1;
    if (win) this.winning += 1;
    this.pnl.add(pnl);
    if (this.minPnl === null || pnl.value.lt(this.minPnl)) this.minPnl = pnl.value;
    if (this.maxPnl === null || pnl.value.gt(this.maxPnl)) this.maxPnl = pnl.value;
    this.returns.addFigure(ret);
    if (this.minReturn === null || ret.lt(this.minReturn)) this.minReturn = ret;
    if (this.maxReturn === null || ret.gt(this.maxReturn)) this.maxReturn = ret;
    this.holdingDays += trade.holdingDays;
    this.volume.addFigure(trade.volume);
    this.costBasis.addFigure(trade.costBasis);
    this.firstTrade = earliest(this.firstTrade, trade.closeDate);
    this.lastTrade = latest(this.lastTrade, trade.closeDate);
    this.firstOpen = earliest(this.firstOpen, trade.openDate);
    if (trade.source === 'broker') this.brokerTrades += 1;
    else if (trade.side === 'long') this.fifoLong = true;
    else this.fifoShort = true;
  }

  addDividend(day: IsoDate, amount: Term): void {
    this.dividends += 1;
    this.paid.add(amount);
    this.firstDividend = earliest(this.firstDividend, day);
    this.lastDividend = latest(this.lastDividend, day);
  }

  addPosition(day: IsoDate, shares: Decimal): void {
    this.firstPosition = earliest(this.firstPosition, day);
    if (this.latestPosition === null || day > this.latestPosition) {
      this.latestPosition = day;
      this.currentShares = shares;
    }
  }

  /** The columns after the company name, in `SYMBOL_TOTALS`' order. */
  columns(): CopyValue[] {
    return [
      this.trades,
      this.winning,
      this.pnl.text(),
      this.minPnl,
      this.maxPnl,
      this.returns.text(),
      this.minReturn,
      this.maxReturn,
      this.holdingDays,
      this.volume.text(),
      this.costBasis.text(),
      this.firstTrade,
      this.lastTrade,
      this.firstPosition === null ? this.firstOpen : earliest(this.firstOpen, this.firstPosition),
      this.dividends,
      this.paid.text(),
      this.firstDividend,
      this.lastDividend,
      this.latestPosition !== null,
      this.currentShares,
      this.brokerTrades,
      this.fifoLong,
      this.fifoShort,
    ];
  }
}

function earliest(known: IsoDate | null, day: IsoDate): IsoDate {
  return known === null || day < known ? day : known;
}

function latest(known: IsoDate | null, day: IsoDate): IsoDate {
  return known === null || day > known ? day : known;
}

const DAILY_SYMBOL_TOTALS: CopyTarget = {
  table: 'daily_symbol_totals',
  columns: ['user_id', 'symbol', 'day', 'trade_count', 'winning_trades', 'trading_pnl', 'dividend_count', 'dividends'],
};
const DAILY_TOTALS: CopyTarget = {
  table: 'daily_totals',
  columns: ['user_id', 'day', 'trade_count', 'winning_trades', 'trading_pnl', 'dividend_count', 'dividends'],
};
const SYMBOL_TOTALS: CopyTarget = {
  table: 'symbol_totals',
  columns: [
    'user_id', 'account_id', 'symbol', 'company_name', 'trade_count', 'winning_trades', 'trading_pnl', 'min_pnl', 'max_pnl', 'sum_return_pct',
    'min_return_pct', 'max_return_pct', 'sum_holding_days', 'total_volume', 'total_cost_basis', 'first_trade_date', 'last_trade_date',
    'first_open_date', 'dividend_count', 'dividends', 'first_dividend_date', 'last_dividend_date', 'has_positions', 'current_shares',
    'broker_trades', 'fifo_long', 'fifo_short',
  ],
};
const TRADE_STATISTIC_GROUPS: CopyTarget = {
  table: 'trade_statistic_groups',
  columns: ['user_id', 'grouping', 'side', 'key', 'total_trades', 'winning_trades', 'losing_trades', 'gross_profit', 'gross_loss', 'winners_holding_days', 'losers_holding_days', 'max_pnl', 'min_pnl'],
};

/** The tables `rollupJobs` writes: the user's rows in them are deleted before. */
export const ROLLUP_TABLES = [DAILY_SYMBOL_TOTALS, DAILY_TOTALS, SYMBOL_TOTALS, TRADE_STATISTIC_GROUPS].map((target) => target.table);
