import { daysBetween, type IsoDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import {
  compareInTimeOrder,
  isClosingKind,
  isDividendReversal,
  isTradeKind,
  type BrokerTransaction,
} from './broker-transaction.js';
import { returnPercentageOf, tradeResultOf, type BookHeldElsewhere, type TradeSide, type WantedBook } from '@app/trades/domain';
import type { MatchedDividend, MatchedTrade } from './matched-trade.js';
import { allocateLots, LOT_QUANTITY_TOLERANCE } from './lot-allocation.js';
import { SymbolBook, type LotPiece, type OpenLotQueue, type RemainingLot } from './open-lot-book.js';
import { PositionHistory } from './position-history.js';
import type { RealizedLot } from './realized-lot.js';
import { groupBy, PlaceGroups, sortingSteps } from './group-by.js';
import { ROWS_PER_TURN, runSteps, runStepsWithTurns, type Steps, type Turns } from './turns.js';

export type MatchWarningCode =
  | 'LOTS_DO_NOT_ADD_UP'
  | 'CLOSE_EXCEEDS_OPEN_LOTS'
  | 'BROKER_LOT_NOT_OPEN'
  | 'SPLIT_WITHOUT_OPEN_LOTS';

/** Something the import should report but that does not stop it (a sale with no prior buy …). */
export interface MatchWarning {
  readonly code: MatchWarningCode;
  /** Line of the transaction (or, for BROKER_LOT_NOT_OPEN, of the lot) it is about. */
  readonly line: number;
  readonly symbol: string;
  readonly message: string;
}

export interface MatchStats {
  /** Lot rows given (the import's `realized_gains_lots`). */
  readonly realizedGainsLots: number;
  /** Trades taken from broker lots (the import's `broker_verified_trades`). */
  readonly brokerVerifiedTrades: number;
  readonly fifoTrades: number;
  readonly closingTransactions: number;
  readonly closingTransactionsWithBrokerLots: number;
  /** Lot rows that made no trade. */
  readonly unmatchedLots: number;
}

export interface MatchResult {
  /**
   * Completed trades in the order they were closed; none of those handed over as made (`tradesMade`),
   * which `stats` counts all the same.
   */
  readonly trades: MatchedTrade[];
  /** Dividends in time order. */
  readonly dividends: MatchedDividend[];
  readonly positions: PositionHistory;
  /** Lots still open at the end, per symbol oldest first. */
  readonly openLots: RemainingLot[];
  /** Broker lots that made no trade (no matching sale here, or a sale they do not add up to). */
  readonly unmatchedLots: RealizedLot[];
  /** Symbol → company name (the latest Description seen). */
  readonly companyNames: ReadonlyMap<string, string>;
  readonly warnings: MatchWarning[];
  readonly stats: MatchStats;
}

export interface MatchOptions {
  /** False gives pure FIFO (the broker lots are ignored): for comparisons only. */
  readonly useBrokerLots?: boolean;
  /**
   * Where an earlier match of the same account ended, to go on from instead of from nothing: the rows
   * given must then all be dated after that match's last row (`resumeFrom` says what it left open).
   */
  readonly resumeFrom?: MatchResumePoint<readonly ResumedLot[]>;
}

/** A lot an earlier match left open, as the ledger keeps it. */
export interface ResumedLot {
  readonly symbol: string;
  readonly side: TradeSide;
  readonly openDate: IsoDate;
  readonly shares: Decimal;
  readonly cost: Decimal;
  readonly price: Decimal | null;
}

/**
 * The state an account's match ended in, for the symbols a later match will touch: their open lots
 * (per symbol long then short, oldest first), and the sides a sale ever took from first in, first out
 * (the sides with a FIFO trade), whose open lots stay FIFO's estimate. Nothing else of a match carries
 * over to later days: broker lots are shared out per closing day, splits per day, positions are the
 * books' totals.
 */
export interface MatchResumePoint<Lots extends readonly ResumedLot[] | OpenLotReader = readonly ResumedLot[] | OpenLotReader> {
  /**
   * The books' open lots, all of them; or, for a sliced match, where to read the lots its sales may
   * take from (`OpenLotReader`), asked once the day's broker lots are shared out among its sales.
   */
  readonly openLots: Lots;
  readonly fifoSides: readonly { readonly symbol: string; readonly side: TradeSide }[];
}

/** The lots of the books a resumed match asked for (`WantedBook`), and the shares of each book's other lots. */
export interface ReadBooks {
  /** Per symbol's side, oldest first. */
  readonly openLots: readonly ResumedLot[];
  /** The shares each book (not read whole) holds in lots not given: positions count them. */
  readonly heldElsewhere: readonly BookHeldElsewhere[];
}

export type OpenLotReader = (wanted: readonly WantedBook[]) => Promise<ReadBooks>;

/** Matching that gives the caller a place to stop every `sliceSize` transactions (`pause` resolves when it may go on). */
export interface SlicedMatchOptions extends Omit<MatchOptions, 'resumeFrom'>, Turns {
  readonly resumeFrom?: MatchResumePoint;
  readonly sliceSize?: number;
  /**
   * Handed, before each stop and once the last transaction is matched, the trades made since it was
   * last (in their final order: a trade made never changes), which matching then lets go of: the
   * result's `trades` holds none of them. The import writes them while matching goes on, and a
   * million-row history's trades are never all in memory at once (docs/imports.md).
   */
  readonly tradesMade?: (trades: readonly MatchedTrade[]) => void;
}

/** A symbol as matching keys it (trimmed, upper case): trades, lots and books are per key. */
export function symbolKey(symbol: string): string {
  return symbol.trim().toUpperCase();
}

function dayKey(symbol: string, date: IsoDate): string {
  return `${symbolKey(symbol)}|${date}`;
}

/** Cash moved by a trade row, fees included: |Amount|, or Quantity × Price ± Fees when Amount is empty. */
function cashOf(tx: BrokerTransaction, quantity: Decimal): Decimal {
  if (tx.amount) {
    return tx.amount.abs();
  }
  const gross = quantity.mul(tx.price ?? Decimal.ZERO);
  const fees = (tx.fees ?? Decimal.ZERO).abs();
  return tx.kind === 'buy' || tx.kind === 'buy_to_cover' ? gross.add(fees) : gross.sub(fees);
}

function weightedPrice(pieces: readonly LotPiece[]): Decimal | null {
  const total = Decimal.sum(pieces.map((piece) => piece.quantity));
  if (total.isZero() || pieces.some((piece) => piece.txPrice === null)) {
    return null;
  }
  return Decimal.sum(pieces.map((piece) => (piece.txPrice as Decimal).mul(piece.quantity))).div(total);
}

/**
 * Hybrid matching (../shared/spec/decisions.md §3), the import's one entry point: each closing transaction becomes
 * trades from the broker's lots when the lots of its symbol and day add up to its quantity, otherwise
 * FIFO against the open lots; broker lots use up the open lots they name. A pure function of the rows:
 * the import recomputes an account's trades from all its stored rows with it.
 *
 * Given a `pause`, it answers a promise and gives the caller a place to stop every `sliceSize`
 * transactions (ROWS_PER_TURN by default): an import matches this way while its rows stream to the
 * database, so the writing is fed between slices instead of waiting for the whole match. The result
 * is the same.
 */
export function matchTrades(transactions: readonly BrokerTransaction[], lots: readonly RealizedLot[], options?: MatchOptions): MatchResult;
export function matchTrades(transactions: readonly BrokerTransaction[], lots: readonly RealizedLot[], options: SlicedMatchOptions): Promise<MatchResult>;
export function matchTrades(
  transactions: readonly BrokerTransaction[],
  lots: readonly RealizedLot[],
  options: MatchOptions | SlicedMatchOptions = {},
): MatchResult | Promise<MatchResult> {
  const run = new MatchRun(transactions, options.useBrokerLots === false ? [] : lots, lots.length, options.resumeFrom);
  return 'pause' in options ? run.runInSlices(options.pause, options.sliceSize ?? ROWS_PER_TURN, options.tradesMade) : run.run();
}

/** A sale closed with broker lots: the transaction, and what each lot's trade takes of it. */
interface LotSale {
  readonly tx: BrokerTransaction;
  readonly side: TradeSide;
  readonly queue: OpenLotQueue;
  /** The sale's symbol key (`symbolKey`). */
  readonly symbol: string;
  readonly price: Decimal | null;
  /** The sale's natural key, or null. */
  readonly key: string | null;
}

/** The state of one matching pass. */
class MatchRun {
  /** The transactions in time order (`prepare`). */
  private ordered: BrokerTransaction[] = [];
  private readonly books = new Map<string, SymbolBook>();
  private readonly positions = new PositionHistory();
  /** The trades made and not handed over (`handOver`). */
  private trades: MatchedTrade[] = [];
  /** The trades handed over as made, and how many of them came from broker lots. */
  private handedOver = 0;
  private brokerTradesHandedOver = 0;
  private readonly dividends: MatchedDividend[] = [];
  private readonly warnings: MatchWarning[] = [];
  private readonly companyNames = new Map<string, string>();
  /**
   * The broker lots allocated to each closing transaction (their places in `lots`), by its place in
   * `ordered`: where they start in `allocatedLots` (-1: none, it goes FIFO) and how many;
   * and which lots are allocated (1), by their place in `lots`. Typed arrays: a Map and a Set of a
   * million rows took the event loop for a tenth of a second at a time to grow, and an array of places
   * for each sale held 35 MB at the start of a million-row history's matching.
   */
  private lotsFrom = new Int32Array(0);
  private lotsCount = new Int32Array(0);
  private readonly allocatedLots: Int32Array;
  private allocated = 0;
  private readonly usedLots: Uint8Array;
  private readonly splitDaysDone = new Set<string>();
  private splitRowsByDay = new Map<string, BrokerTransaction[]>();
  /** The rows given, until `prepare` has them in `ordered`. */
  private transactions: readonly BrokerTransaction[];
  /**
   * The lots given (a copy: an applied transaction's lots are let go of here, `applyAt`). Rows are
   * most of a large import's memory: each one matched is let go of, so that a million-row history's
   * rows, its trades and the state matching builds are not all alive at its end.
   */
  private readonly lots: RealizedLot[];
  /** Closing transactions applied, and those of them with broker lots (the stats). */
  private closing = 0;
  private closingWithBrokerLots = 0;

  constructor(
    transactions: readonly BrokerTransaction[],
    lots: readonly RealizedLot[],
    private readonly lotRowsGiven: number,
    /** Where an earlier match ended (`MatchOptions.resumeFrom`): the books are taken up once the broker lots are shared out. */
    private readonly resumeFrom?: MatchResumePoint,
  ) {
    this.transactions = transactions;
    this.lots = [...lots];
    this.usedLots = new Uint8Array(lots.length);
    this.allocatedLots = new Int32Array(lots.length);
  }

  /**
   * Starts from where an earlier match of the account ended (before anything is applied), its books
   * read as the sales want them where the point says where to read them.
   */
  private async resume(): Promise<void> {
    const point = this.resumeFrom;
    if (point === undefined) return;
    const lots = point.openLots;
    if (typeof lots === 'function') {
      const books = await lots(this.wantedLots(point.fifoSides));
      this.resumeWith(point.fifoSides, books.openLots, books.heldElsewhere);
    } else {
      this.resumeWith(point.fifoSides, lots);
    }
  }

  /** Takes up the books from their open lots (all of them, unless `heldElsewhere` says what the rest hold). */
  private resumeWith(fifoSides: MatchResumePoint['fifoSides'], openLots: readonly ResumedLot[], heldElsewhere: readonly BookHeldElsewhere[] = []): void {
    for (const lot of openLots) {
      const book = this.book(symbolKey(lot.symbol));
      (lot.side === 'long' ? book.long : book.short).open({
        symbol: symbolKey(lot.symbol),
        side: lot.side,
        openDate: lot.openDate,
        // The opening row's line is not kept with the lot: nothing a trade records reads it.
        line: 0,
        quantity: lot.shares,
        amount: lot.cost,
        txPrice: lot.price,
      });
    }
    for (const { symbol, side, shares } of heldElsewhere) {
      const book = this.book(symbolKey(symbol));
      (side === 'long' ? book.long : book.short).holdsAlso(shares);
    }
    for (const { symbol, side } of fifoSides) {
      const book = this.book(symbolKey(symbol));
      (side === 'long' ? book.long : book.short).markTakenFifo();
    }
  }

  /**
   * What the rows need of the books they touch (`WantedBook`), once the broker lots are shared out:
   * each symbol traded or split, both its sides (positions count both).
   */
  private wantedLots(fifoSides: MatchResumePoint['fifoSides']): WantedBook[] {
    const wanted = new Map<string, { symbol: string; side: TradeSide; whole: boolean; fifo: boolean; takes: Decimal; openDates: Set<IsoDate> }>();
    const want = (symbol: string, side: TradeSide) => {
      const key = `${symbol}|${side}`;
      let book = wanted.get(key);
      if (book === undefined) {
        book = { symbol, side, whole: false, fifo: false, takes: Decimal.ZERO, openDates: new Set() };
        wanted.set(key, book);
      }
      return book;
    };
    for (let index = 0; index < this.ordered.length; index += 1) {
      const tx = this.ordered[index];
      const symbol = symbolKey(tx.symbol);
      const split = tx.kind === 'stock_split' || tx.kind === 'reverse_split';
      if (!split && !(isTradeKind(tx.kind) && tx.quantity?.isPositive())) continue;
      const [long, short] = [want(symbol, 'long'), want(symbol, 'short')];
      if (split) long.whole = short.whole = true;
      if (!isClosingKind(tx.kind)) continue;
      const book = tx.kind === 'sell' ? long : short;
      const from = this.lotsFrom[index];
      const count = from === -1 ? 0 : this.lotsCount[index];
      // A broker lot may take up to the tolerance more than it names (`takeOpenedOn`).
      book.takes = book.takes.add(tx.quantity as Decimal).add(LOT_QUANTITY_TOLERANCE.mul(count + 1));
      if (from === -1) book.fifo = true;
      for (let at = from; at < from + count; at += 1) book.openDates.add(this.lots[this.allocatedLots[at]].openedDate);
    }
    const fifo = new Set(fifoSides.map(({ symbol, side }) => `${symbolKey(symbol)}|${side}`));
    return [...wanted].map(([key, book]) => ({
      symbol: book.symbol,
      side: book.side,
      whole: book.whole || (book.fifo && !fifo.has(key)),
      oldestShares: book.fifo ? book.takes : Decimal.ZERO,
      openDates: [...book.openDates].sort(),
    }));
  }

  run(): MatchResult {
    runSteps(this.prepare());
    runSteps(this.allocateBrokerLots());
    const point = this.resumeFrom;
    if (point !== undefined) {
      if (typeof point.openLots === 'function') throw new Error('a match that reads its open lots as its sales want them runs in slices');
      this.resumeWith(point.fifoSides, point.openLots);
    }
    for (let index = 0; index < this.ordered.length; index += 1) this.applyAt(index);
    this.applied();
    return runSteps(this.result());
  }

  async runInSlices(pause: () => Promise<void>, sliceSize: number, tradesMade?: (trades: readonly MatchedTrade[]) => void): Promise<MatchResult> {
    await runStepsWithTurns(this.prepare(sliceSize), { pause });
    await runStepsWithTurns(this.allocateBrokerLots(sliceSize), { pause });
    await this.resume();
    for (let index = 0; index < this.ordered.length; index += 1) {
      if (index > 0 && index % sliceSize === 0) {
        if (tradesMade !== undefined) this.handOver(tradesMade);
        await pause();
      }
      this.applyAt(index);
    }
    this.applied();
    if (tradesMade !== undefined) this.handOver(tradesMade);
    return runStepsWithTurns(this.result(sliceSize), { pause });
  }

  /**
   * Lets go of what applying the transactions needed, once all are: the array of them in time order
   * and their places for broker lots (a million rows': 8 MB of the heap, 8 outside it).
   */
  private applied(): void {
    this.ordered = [];
    this.lotsFrom = new Int32Array(0);
    this.lotsCount = new Int32Array(0);
  }

  /** Applies `ordered[index]`, counted, and lets go of it and of its broker lots: nothing reads them again. */
  private applyAt(index: number): void {
    const tx = this.ordered[index];
    const from = this.lotsFrom[index];
    if (isClosingKind(tx.kind)) {
      this.closing += 1;
      if (from !== -1) this.closingWithBrokerLots += 1;
    }
    this.apply(tx, index);
    letGoAt(this.ordered, index);
    if (from === -1) return;
    for (let at = from, end = from + this.lotsCount[index]; at < end; at += 1) letGoAt(this.lots, this.allocatedLots[at]);
  }

  /**
   * Allocates the lots at `places` in `lots` to `ordered[index]`. A lot is allocated once at most (it
   * belongs to one symbol and day, whose sharing gives each of its lots to one sale at most), so
   * `allocatedLots` has room for all of them.
   */
  private allocate(index: number, places: readonly number[]): void {
    this.lotsFrom[index] = this.allocated;
    this.lotsCount[index] = places.length;
    for (const place of places) this.allocatedLots[this.allocated++] = place;
  }

  /** Hands the trades made since the last time over, counted, and lets go of them. */
  private handOver(tradesMade: (trades: readonly MatchedTrade[]) => void): void {
    if (this.trades.length === 0) return;
    const made = this.trades;
    this.trades = [];
    this.handedOver += made.length;
    for (const trade of made) if (trade.source === 'broker') this.brokerTradesHandedOver += 1;
    tradesMade(made);
  }

  /** The transactions in time order, a place for each one's broker lots, and the splits by day. */
  private *prepare(sliceSize = Infinity): Steps<void> {
    this.ordered = yield* sortingSteps(this.transactions, compareInTimeOrder, sliceSize);
    this.transactions = [];
    this.lotsFrom = new Int32Array(this.ordered.length).fill(-1);
    this.lotsCount = new Int32Array(this.ordered.length);
    const splits: BrokerTransaction[] = [];
    for (let index = 0; index < this.ordered.length; index += 1) {
      if (index > 0 && index % sliceSize === 0) yield;
      const tx = this.ordered[index];
      if (tx.kind === 'stock_split' || tx.kind === 'reverse_split') splits.push(tx);
    }
    this.splitRowsByDay = groupBy(splits, (tx) => dayKey(tx.symbol, tx.date));
  }

  /** The result, as steps stopping every `sliceSize` rows counted (half a second at a stretch for a million rows). */
  private *result(sliceSize = Infinity): Steps<MatchResult> {
    let counted = 0;
    const unmatchedLots: RealizedLot[] = [];
    for (let index = 0; index < this.lots.length; index += 1) {
      if (++counted % sliceSize === 0) yield;
      if (this.usedLots[index] === 0) unmatchedLots.push(this.lots[index]);
    }
    let brokerTrades = this.brokerTradesHandedOver;
    for (const trade of this.trades) {
      if (++counted % sliceSize === 0) yield;
      if (trade.source === 'broker') brokerTrades += 1;
    }
    // By symbol, as the positions are (`PositionHistory.symbols`): the open lots' indexes, keyed by
    // symbol, then take each lot in at their end, not all over them (docs/imports.md).
    const openLots: RemainingLot[] = [];
    for (const symbol of [...this.books.keys()].sort()) {
      const book = this.books.get(symbol) as SymbolBook;
      for (const queue of [book.long, book.short]) {
        for (const lot of queue.eachOpenLot()) {
          if (++counted % sliceSize === 0) yield;
          openLots.push(lot);
        }
      }
    }
    return {
      trades: this.trades,
      dividends: this.dividends,
      positions: this.positions,
      openLots,
      unmatchedLots,
      companyNames: this.companyNames,
      warnings: this.warnings,
      stats: {
        realizedGainsLots: this.lotRowsGiven,
        brokerVerifiedTrades: brokerTrades,
        fifoTrades: this.handedOver + this.trades.length - brokerTrades,
        closingTransactions: this.closing,
        closingTransactionsWithBrokerLots: this.closingWithBrokerLots,
        unmatchedLots: unmatchedLots.length,
      },
    };
  }

  /**
   * Shares each day's lots of a symbol out among that day's closing transactions of the symbol; stops
   * (yields) after every `sliceSize` lots or transactions gone through, where a caller may give the
   * event loop a turn.
   */
  private *allocateBrokerLots(sliceSize = Infinity): Steps<void> {
    // Lots and closing transactions by their places in `lots` and `ordered`, the lots in line order.
    const { lots, ordered } = this;
    const places: number[] = [];
    for (let index = 0; index < lots.length; index += 1) {
      if (index > 0 && index % sliceSize === 0) yield;
      places.push(index);
    }
    const byLine = yield* sortingSteps(places, (a, b) => lots[a].line - lots[b].line, sliceSize);
    const lotsByDay = yield* PlaceGroups.grouping(byLine, (index) => symbolKey(lots[index].symbol), (index) => lots[index].closedDate);
    const closingPlaces: number[] = [];
    for (let index = 0; index < ordered.length; index += 1) {
      if (index > 0 && index % sliceSize === 0) yield;
      if (isClosingKind(ordered[index].kind) && ordered[index].quantity) closingPlaces.push(index);
    }
    const closingByDay = yield* PlaceGroups.grouping(closingPlaces, (index) => symbolKey(ordered[index].symbol), (index) => ordered[index].date);
    let sinceStop = 0;
    for (let group = 0; group < closingByDay.count; group += 1) {
      const places = closingByDay.placesOf(group);
      sinceStop += places.length;
      if (sinceStop >= sliceSize) {
        sinceStop = 0;
        yield;
      }
      const first = ordered[places[0]];
      const lotGroup = lotsByDay.idOf(symbolKey(first.symbol), first.date);
      if (lotGroup === undefined) {
        continue;
      }
      const dayLots = lotsByDay.placesOf(lotGroup);
      const closings = places.map((index) => ordered[index]);
      const allocation = allocateLots(
        closings.map((tx) => tx.quantity as Decimal),
        dayLots.map((index) => lots[index].quantity),
      );
      allocation.forEach((lotIndexes, index) => {
        if (lotIndexes) {
          for (const lotIndex of lotIndexes) this.usedLots[dayLots[lotIndex]] = 1;
          this.allocate(places[index], lotIndexes.map((lotIndex) => dayLots[lotIndex]));
        }
      });
      const leftOver = dayLots.filter((index) => this.usedLots[index] === 0).map((index) => lots[index]);
      const sum = Decimal.sum(leftOver.map((lot) => lot.quantity));
      closings
        .filter((_, index) => this.lotsFrom[places[index]] === -1)
        .forEach((tx) => {
          this.warn(
            'LOTS_DO_NOT_ADD_UP',
            tx,
            `${leftOver.length} broker lot(s) for ${symbolKey(tx.symbol)} ${tx.date} sum to ${sum.toString()}, ` +
              `not ${(tx.quantity as Decimal).toString()}; FIFO used`,
          );
        });
    }
  }

  /** Applies `ordered[index]`. */
  private apply(tx: BrokerTransaction, index: number): void {
    const symbol = symbolKey(tx.symbol);
    if (symbol && tx.description.trim()) {
      this.companyNames.set(symbol, tx.description.trim());
    }
    switch (tx.kind) {
      case 'buy':
        this.open(tx, symbol, 'long');
        break;
      case 'sell_short':
        this.open(tx, symbol, 'short');
        break;
      case 'sell':
        this.close(tx, symbol, 'long', index);
        break;
      case 'buy_to_cover':
        this.close(tx, symbol, 'short', index);
        break;
      case 'stock_split':
      case 'reverse_split':
        this.split(tx);
        break;
      case 'dividend':
        this.recordDividend(tx);
        break;
      case 'other':
        break;
    }
  }

  private book(symbol: string): SymbolBook {
    let book = this.books.get(symbol);
    if (!book) {
      book = new SymbolBook();
      this.books.set(symbol, book);
    }
    return book;
  }

  private recordPosition(tx: BrokerTransaction): void {
    const symbol = symbolKey(tx.symbol);
    this.recordPositionOf(symbol, tx.date, this.book(symbol));
  }

  private recordPositionOf(symbol: string, date: IsoDate, book: SymbolBook): void {
    this.positions.record(symbol, date, book.shares());
  }

  /** Opens a lot of `tx`, whose symbol is `symbol` (`symbolKey`). */
  private open(tx: BrokerTransaction, symbol: string, side: TradeSide): void {
    // Read once: a packed transaction makes a new Decimal at each reading (packed-figures.ts).
    const quantity = tx.quantity;
    if (!quantity || !quantity.isPositive()) {
      return;
    }
    const book = this.book(symbol);
    (side === 'long' ? book.long : book.short).open({
      symbol,
      side,
      openDate: tx.date,
      line: tx.line,
      quantity,
      amount: cashOf(tx, quantity),
      txPrice: tx.price,
    });
    this.recordPositionOf(symbol, tx.date, book);
  }

  /** Closes with `tx` (`ordered[index]`), whose symbol is `symbol` (`symbolKey`). */
  private close(tx: BrokerTransaction, symbol: string, side: TradeSide, index: number): void {
    const quantity = tx.quantity;
    if (!quantity || !quantity.isPositive()) {
      return;
    }
    const book = this.book(symbol);
    const queue = side === 'long' ? book.long : book.short;
    const from = this.lotsFrom[index];
    if (from !== -1) {
      // What each of its lots' trades repeats of the sale, read once: a packed transaction makes a new
      // Decimal and a new key text at each reading (packed-figures.ts).
      const sale: LotSale = { tx, side, queue, symbol, price: tx.price, key: tx.fingerprint ?? null };
      for (let at = from, end = from + this.lotsCount[index]; at < end; at += 1) this.closeWithBrokerLot(sale, this.lots[this.allocatedLots[at]]);
    } else {
      this.closeFifo(tx, quantity, side, queue);
    }
    this.recordPositionOf(symbol, tx.date, book);
  }

  private closeWithBrokerLot({ tx, side, queue, symbol, price, key }: LotSale, lot: RealizedLot): void {
    // Each figure read once: a packed lot makes a new Decimal at each reading (packed-figures.ts).
    const { openedDate, quantity, costBasis, proceeds, gainLoss } = lot;
    const pieces = queue.takeOpenedOn(openedDate, quantity);
    const taken = Decimal.sum(pieces.map((piece) => piece.quantity));
    if (quantity.sub(taken).gt(LOT_QUANTITY_TOLERANCE)) {
      this.warnings.push({
        code: 'BROKER_LOT_NOT_OPEN',
        line: lot.line,
        symbol: symbolKey(lot.symbol),
        message:
          `line ${lot.line}: broker lot of ${quantity.toString()} ${symbolKey(lot.symbol)} opened ${openedDate}: ` +
          `only ${taken.toString()} shares opened that day are open in the transactions`,
      });
    }
    const openPrice = weightedPrice(pieces);
    const long = side === 'long';
    const buyPrice = lot.costPerShare ?? costBasis.div(quantity);
    const sellPrice = lot.proceedsPerShare ?? proceeds.div(quantity);
    this.trades.push({
      symbol,
      side,
      source: 'broker',
      buyDate: long ? openedDate : tx.date,
      sellDate: long ? tx.date : openedDate,
      closeDate: tx.date,
      openDate: openedDate,
      volume: quantity,
      buyPrice,
      sellPrice,
      costBasis,
      proceeds,
      totalProfitLoss: gainLoss,
      profitPerShare: sellPrice.sub(buyPrice),
      returnPercentage: returnPercentageOf(gainLoss, costBasis),
      holdingDays: daysBetween(openedDate, tx.date),
      tradeResult: tradeResultOf(gainLoss),
      washSale: lot.washSale,
      disallowedLoss: lot.disallowedLoss,
      term: lot.term,
      buyTxPrice: long ? openPrice : price,
      sellTxPrice: long ? price : openPrice,
      txLine: tx.line,
      lotLine: lot.line,
      txFingerprint: key,
      lotFingerprint: lot.fingerprint ?? null,
    });
  }

  private closeFifo(tx: BrokerTransaction, quantity: Decimal, side: TradeSide, queue: OpenLotQueue): void {
    const cash = cashOf(tx, quantity);
    const pieces = queue.takeFifo(quantity);
    const matched = Decimal.sum(pieces.map((piece) => piece.quantity));
    const fullyMatched = matched.eq(quantity);
    if (!fullyMatched) {
      this.warn(
        'CLOSE_EXCEEDS_OPEN_LOTS',
        tx,
        `${tx.action} of ${quantity.toString()} ${symbolKey(tx.symbol)} on ${tx.date}: only ${matched.toString()} ` +
          `shares ${side === 'long' ? 'held' : 'sold short'} in the transactions; ` +
          `${quantity.sub(matched).toString()} shares make no trade (opened before the file's period?)`,
      );
    }
    let cashLeft = cash;
    pieces.forEach((piece, index) => {
      const last = index === pieces.length - 1 && fullyMatched;
      const closingCash = last ? cashLeft : cash.mulDiv(piece.quantity, quantity);
      cashLeft = cashLeft.sub(closingCash);
      this.trades.push(this.fifoTrade(tx, side, piece, closingCash));
    });
  }

  private fifoTrade(tx: BrokerTransaction, side: TradeSide, piece: LotPiece, closingCash: Decimal): MatchedTrade {
    const long = side === 'long';
    const costBasis = long ? piece.amount : closingCash;
    const proceeds = long ? closingCash : piece.amount;
    const volume = piece.quantity;
    const buyPrice = costBasis.div(volume);
    const sellPrice = proceeds.div(volume);
    const profitLoss = proceeds.sub(costBasis);
    return {
      symbol: symbolKey(tx.symbol),
      side,
      source: 'fifo',
      buyDate: long ? piece.openDate : tx.date,
      sellDate: long ? tx.date : piece.openDate,
      closeDate: tx.date,
      openDate: piece.openDate,
      volume,
      buyPrice,
      sellPrice,
      costBasis,
      proceeds,
      totalProfitLoss: profitLoss,
      profitPerShare: sellPrice.sub(buyPrice),
      returnPercentage: returnPercentageOf(profitLoss, costBasis),
      holdingDays: daysBetween(piece.openDate, tx.date),
      tradeResult: tradeResultOf(profitLoss),
      washSale: null,
      disallowedLoss: null,
      term: null,
      buyTxPrice: long ? piece.txPrice : tx.price,
      sellTxPrice: long ? tx.price : piece.txPrice,
      txLine: tx.line,
      lotLine: null,
      txFingerprint: tx.fingerprint ?? null,
      lotFingerprint: null,
    };
  }

  /**
   * Stock Split: Quantity = shares added. Reverse Split: Quantity = shares removed. The split rows of
   * one symbol and day are taken together, so the two-row form (old shares out as a negative quantity,
   * new shares in) nets to the change. The open lots keep their total cost.
   */
  private split(tx: BrokerTransaction): void {
    const symbol = symbolKey(tx.symbol);
    const key = dayKey(symbol, tx.date);
    if (this.splitDaysDone.has(key)) {
      return;
    }
    this.splitDaysDone.add(key);
    const rows = this.splitRowsByDay.get(key) ?? [tx];
    const twoRowForm = rows.some((row) => row.quantity?.isNegative());
    const change = Decimal.sum(
      rows.map((row) => {
        const quantity = row.quantity ?? Decimal.ZERO;
        if (quantity.isNegative() || row.kind === 'stock_split' || twoRowForm) {
          return quantity;
        }
        return quantity.neg();
      }),
    );
    const book = this.book(symbol);
    const queue = book.long.total.isPositive() ? book.long : book.short.total.isPositive() ? book.short : null;
    const newTotal = queue ? queue.total.add(change) : Decimal.ZERO;
    if (!queue || !newTotal.isPositive()) {
      this.warn(
        'SPLIT_WITHOUT_OPEN_LOTS',
        tx,
        `${tx.action} of ${symbol} on ${tx.date}: ${queue ? 'the change leaves no shares' : 'no open lots to adjust'}; ignored`,
      );
      return;
    }
    queue.split(newTotal);
    this.recordPosition(tx);
  }

  private recordDividend(tx: BrokerTransaction): void {
    if (!tx.amount) {
      return;
    }
    this.dividends.push({
      transactionDate: tx.date,
      symbol: symbolKey(tx.symbol),
      action: tx.action.trim(),
      amount: isDividendReversal(tx.action) ? tx.amount.abs().neg() : tx.amount,
      description: tx.description.trim(),
      line: tx.line,
      fingerprint: tx.fingerprint ?? null,
    });
  }

  private warn(code: MatchWarningCode, tx: BrokerTransaction, text: string): void {
    this.warnings.push({ code, line: tx.line, symbol: symbolKey(tx.symbol), message: `line ${tx.line}: ${text}` });
  }
}

/** Lets go of the item at `index`: its place holds undefined from then on, and nothing reads it again. */
function letGoAt<T>(items: T[], index: number): void {
  (items as (T | undefined)[])[index] = undefined;
}
