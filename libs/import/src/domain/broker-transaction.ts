import type { IsoDate } from '@app/shared/domain';
import type { Decimal, ExactUnits } from '@app/shared/domain';
import { FigurePacking, PackedFigures } from './packed-figures.js';

/** What a Transactions row means for the journal, decided by its Action. */
export type ActionKind =
  | 'buy' // opens a long lot (Buy, Reinvest Shares)
  | 'sell' // closes long lots
  | 'sell_short' // opens a short lot
  | 'buy_to_cover' // closes short lots
  | 'stock_split' // forward split: Quantity = shares added
  | 'reverse_split' // reverse split: Quantity = shares removed
  | 'dividend' // a dividend or distribution (Rev … is a negative one)
  | 'other'; // interest, transfers, fees, Foreign Tax Paid …: stored, otherwise ignored

/** One data row of a brokerage Transactions file. Numbers exact; empty cells are `null`. */
export interface BrokerTransaction {
  /** Physical line in the uploaded file (title line counted). Within a day, a higher line is earlier. */
  readonly line: number;
  /** The first date of the Date column: the posted trade date. */
  readonly date: IsoDate;
  readonly asOfDate: IsoDate | null;
  /** The Action as written, trimmed (`"Buy   "` → `Buy`). */
  readonly action: string;
  readonly kind: ActionKind;
  readonly symbol: string;
  readonly description: string;
  /** Shares, as written (positive for trades; the Action gives the direction). */
  readonly quantity: Decimal | null;
  readonly price: Decimal | null;
  readonly fees: Decimal | null;
  /** Net cash effect, signed: purchases negative including fees, sales positive net of fees. */
  readonly amount: Decimal | null;
  /**
   * The cells exactly as read, as a JSON array: stored with the row ('[]' for a row read back from the
   * database, which does not read them). One string instead of a string per cell: a large file's rows
   * are much of an import's memory. `ImportStore.addRows` lets go of them once it has made their
   * row's COPY line (they are then '[]', as read back).
   */
  cellsJson: string;
  /**
   * Natural key, once the import has keyed the row for its account (set in place by fingerprint.ts;
   * with `cellsJson`, the fields that change); copied onto trades.
   */
  fingerprint?: string;
  /**
   * Order within the day, higher = earlier, for layouts that list a day oldest first (the negated
   * line); absent where the file lists newest first and the line gives the order.
   */
  readonly dayOrder?: number;
}

/** A transaction's fields' places among the figures, numbers and texts it is packed in. */
const QUANTITY = 0;
const PRICE = 1;
const FEES = 2;
const AMOUNT = 3;
const LINE = 0;
const DAY_ORDER = 1;
const DATE = 0;
const AS_OF_DATE = 1;
const ACTION = 2;
const KIND = 3;
const SYMBOL = 4;
const DESCRIPTION = 5;
const packing = new FigurePacking({ figures: 4, numbers: 2, texts: 6 });

/** A transaction's figures by their places (`transactionFigureToWrite`). */
export const TransactionFigure = { quantity: QUANTITY, price: PRICE, fees: FEES, amount: AMOUNT } as const;
export type TransactionFigure = (typeof TransactionFigure)[keyof typeof TransactionFigure];

/**
 * A transaction as a large import holds it (`packedTransaction`): its fields packed out of the heap
 * (packed-figures.ts), each figure made a `Decimal` when it is read, and its key and cells (until
 * written) kept there too. What is left in the heap is 40 bytes (its chunk, its row), and 53 in its
 * chunk, where a transaction of 11 fields was 112 bytes of heap with its figures packed, and 296 with
 * three figures and its key as objects (realized-lot.ts packs lots alike).
 */
class PackedTransaction extends PackedFigures implements BrokerTransaction {
  constructor(tx: BrokerTransaction, dayOrder: number | undefined) {
    super(packing);
    this.putFigure(QUANTITY, tx.quantity);
    this.putFigure(PRICE, tx.price);
    this.putFigure(FEES, tx.fees);
    this.putFigure(AMOUNT, tx.amount);
    this.putNumber(LINE, tx.line);
    this.putNumber(DAY_ORDER, dayOrder);
    this.putText(DATE, tx.date);
    this.putText(AS_OF_DATE, tx.asOfDate);
    this.putText(ACTION, tx.action);
    this.putText(KIND, tx.kind);
    this.putText(SYMBOL, tx.symbol);
    this.putText(DESCRIPTION, tx.description);
    this.cellsJson = tx.cellsJson;
    this.fingerprint = tx.fingerprint;
  }

  get line(): number {
    return this.number(LINE) as number;
  }

  get dayOrder(): number | undefined {
    return this.number(DAY_ORDER);
  }

  get date(): IsoDate {
    return this.text(DATE) as IsoDate;
  }

  get asOfDate(): IsoDate | null {
    return this.text(AS_OF_DATE);
  }

  get action(): string {
    return this.text(ACTION) as string;
  }

  get kind(): ActionKind {
    return this.text(KIND) as ActionKind;
  }

  get symbol(): string {
    return this.text(SYMBOL) as string;
  }

  get description(): string {
    return this.text(DESCRIPTION) as string;
  }

  get quantity(): Decimal | null {
    return this.figure(QUANTITY);
  }

  get price(): Decimal | null {
    return this.figure(PRICE);
  }

  get fees(): Decimal | null {
    return this.figure(FEES);
  }

  get amount(): Decimal | null {
    return this.figure(AMOUNT);
  }
}

/**
 * The same transaction, its figures packed (`PackedTransaction`): read alike, each figure a new
 * `Decimal` of the same value at each reading. For rows held by the thousand (a file's, an account's);
 * the object given is garbage once the caller lets go of it. `dayOrder` is given apart where the
 * reading sets it (a copy of `tx` with it, spread, made each row's fields two shapes of object).
 */
export function packedTransaction(tx: BrokerTransaction, { dayOrder }: Pick<BrokerTransaction, 'dayOrder'> = tx): BrokerTransaction {
  return new PackedTransaction(tx, dayOrder);
}

/**
 * `tx` with some of its fields changed, packed as a new row. A packed row's fields are read through its
 * class (`{ ...tx }` would copy none of them).
 */
export function transactionWith(tx: BrokerTransaction, changes: Partial<Pick<BrokerTransaction, 'action' | 'kind' | 'dayOrder'>>): BrokerTransaction {
  const { line, date, asOfDate, action, kind, symbol, description, quantity, price, fees, amount, cellsJson, fingerprint, dayOrder } = tx;
  return packedTransaction({ line, date, asOfDate, action, kind, symbol, description, quantity, price, fees, amount, cellsJson, fingerprint, dayOrder, ...changes });
}

/** Each of a transaction's figures read from it, by its place (`TransactionFigure`). */
const TRANSACTION_FIGURES: readonly ((tx: BrokerTransaction) => Decimal | null)[] = [(tx) => tx.quantity, (tx) => tx.price, (tx) => tx.fees, (tx) => tx.amount];

/**
 * A transaction's figure for writing it out (its COPY line, its key's content): a packed one's as its
 * exact units in `slot`, without making its `Decimal` (`PackedFigures.figureInto`); another's as it is.
 */
export function transactionFigureToWrite(tx: BrokerTransaction, figure: TransactionFigure, slot: ExactUnits): Decimal | ExactUnits | null {
  return tx instanceof PackedTransaction ? tx.figureInto(figure, slot) : TRANSACTION_FIGURES[figure](tx);
}

const TRADE_ACTIONS: ReadonlyMap<string, ActionKind> = new Map([
  ['buy', 'buy'],
  ['reinvest shares', 'buy'],
  ['sell', 'sell'],
  ['sell short', 'sell_short'],
  ['buy to cover', 'buy_to_cover'],
  ['stock split', 'stock_split'],
  ['forward split', 'stock_split'],
  ['reverse split', 'reverse_split'],
]);

// Named like a dividend but not cash income: withheld tax, and shares handed out instead of cash.
const NOT_DIVIDENDS = new Set(['foreign tax paid', 'stock dividend']);

/** Normalised for comparisons: lower case, single spaces. */
export function normaliseAction(action: string): string {
  return action.trim().replace(/\s+/g, ' ').toLowerCase();
}

function namesDividend(action: string): boolean {
  return /\bdiv\b|dividend|distribution|\bcap(ital)? gains?\b/.test(action);
}

/** Reversal of a dividend: `Rev Pr Yr Cash Div`, `Rev Cash Dividend` … (amounts count as negative). */
export function isDividendReversal(action: string): boolean {
  const normalised = normaliseAction(action);
  return /^rev(ersal)?\b/.test(normalised) && namesDividend(normalised);
}

// Exports repeat a few dozen Action texts; classify each once.
const kindCache = new Map<string, ActionKind>();

export function classifyAction(action: string): ActionKind {
  let kind = kindCache.get(action);
  if (kind === undefined) {
    kind = classifyNewAction(action);
    if (kindCache.size > 1000) {
      kindCache.clear();
    }
    kindCache.set(action, kind);
  }
  return kind;
}

function classifyNewAction(action: string): ActionKind {
  const normalised = normaliseAction(action);
  const tradeKind = TRADE_ACTIONS.get(normalised);
  if (tradeKind) {
    return tradeKind;
  }
  if (NOT_DIVIDENDS.has(normalised)) {
    return 'other';
  }
  return namesDividend(normalised) ? 'dividend' : 'other';
}

/** Kinds that need a symbol and a positive quantity. */
export function isTradeKind(kind: ActionKind): boolean {
  return kind === 'buy' || kind === 'sell' || kind === 'sell_short' || kind === 'buy_to_cover';
}

export function isClosingKind(kind: ActionKind): kind is 'sell' | 'buy_to_cover' {
  return kind === 'sell' || kind === 'buy_to_cover';
}

/**
 * Time order: by posted date; within one day in the order executed. Most exports list a day newest
 * first, so the row further down the file (higher line) came first; an oldest-first layout says so
 * with `dayOrder`.
 */
export function compareInTimeOrder(a: BrokerTransaction, b: BrokerTransaction): number {
  if (a.date !== b.date) {
    return a.date < b.date ? -1 : 1;
  }
  return (b.dayOrder ?? b.line) - (a.dayOrder ?? a.line);
}
