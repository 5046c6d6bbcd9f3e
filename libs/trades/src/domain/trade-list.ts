import { DigestContent, FIRST_SUPPORTED_YEAR, LAST_SUPPORTED_YEAR, ValidationError, digestPrefix, isSupportedDate, parseIsoDate, type Decimal, type IsoDate } from '@app/shared/domain';
import { parseTimeframeQuery, type TimeframeSelection } from './report-dates.js';
import type { ClosedTrade, TradeResult, TradeSide, TradeSource } from './closed-trade.js';
import { MAX_TAGS_PER_TRADE, tagNameOf } from './journal.js';

/** The orders `/api/trades` can list in; ties are broken by the import's order (account, then sequence). */
export const TRADE_SORTS = ['close_date', 'open_date', 'symbol', 'profit_loss', 'return_percentage', 'holding_days', 'volume'] as const;
export type TradeSort = (typeof TRADE_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;
/** Holding days past this are no real trade (2199 − 1900 years); a bound keeps the number an integer. */
const MAX_HOLDING_DAYS = 110_000;

/** Which of a user's trades a list or its export shows. Every field narrows; null selects all. */
export interface TradeFilters {
  readonly selection: TimeframeSelection;
  readonly side: TradeSide | null;
  readonly result: TradeResult | null;
  readonly source: TradeSource | null;
  readonly minHoldingDays: number | null;
  readonly maxHoldingDays: number | null;
  /** Tag keys a trade must all carry (docs/api.md "Journal"); null: any. */
  readonly tags: readonly string[] | null;
  /** Only trades without any tag. */
  readonly untagged: boolean;
}

/** The journal's filters: `tag` (repeatable: a trade must carry every one) and `untagged=true`. */
export interface TagFilter {
  readonly tags: readonly string[] | null;
  readonly untagged: boolean;
}

/** `tag` (repeatable, compared case-insensitively) and `untagged` (`true`/`false`); not both. */
export function parseTagFilter(query: Record<string, unknown>): TagFilter {
  const given = query.tag === undefined || query.tag === null ? [] : Array.isArray(query.tag) ? (query.tag as unknown[]) : [query.tag];
  const keys = [
    ...new Set(
      given
        .filter((value) => value !== '')
        .map((value) => {
          if (typeof value !== 'string') throw new ValidationError("Parameter 'tag' must be text");
          return tagNameOf(value, "Parameter 'tag'").key;
        }),
    ),
  ];
  if (keys.length > MAX_TAGS_PER_TRADE) throw new ValidationError(`Parameter 'tag' can be given at most ${MAX_TAGS_PER_TRADE} times`);
  const untaggedText = text(query.untagged, 'untagged');
  if (untaggedText !== undefined && untaggedText !== '' && untaggedText !== 'true' && untaggedText !== 'false') {
    throw new ValidationError("Parameter 'untagged' must be true or false");
  }
  const untagged = untaggedText === 'true';
  if (untagged && keys.length > 0) throw new ValidationError("Parameters 'tag' and 'untagged=true' cannot be combined: a trade with a tag is not untagged");
  return { tags: keys.length === 0 ? null : keys, untagged };
}

/** Where a page ends: the last row's sort value (as text) and its place in the import's order. */
export interface TradeCursor {
  readonly sortValue: string;
  readonly accountId: number;
  readonly seq: number;
}

export interface TradeListQuery {
  readonly filters: TradeFilters;
  readonly sort: TradeSort;
  readonly order: SortOrder;
  readonly limit: number;
  readonly after: TradeCursor | null;
}

/**
 * The filters of `/api/trades` and `/api/trades/export.csv`: the timeframe (`all=true`, or
 * `start`/`end`, also spelled `start_date`/`end_date`; neither means all time), `symbol` (repeatable or
 * comma-separated), `side`, `result`, `source`, `min_holding_days`, `max_holding_days`, `tag`, `untagged`.
 */
export function parseTradeFilters(query: Record<string, unknown>): TradeFilters {
  const start = query.start ?? query.start_date;
  const end = query.end ?? query.end_date;
  const symbols = query.symbol ?? query.symbols;
  const selection = parseTimeframeQuery(
    start === undefined && end === undefined ? { all: 'true', symbols } : { all: query.all, start, end, symbols },
  );
  const minHoldingDays = holdingDays(query.min_holding_days, 'min_holding_days');
  const maxHoldingDays = holdingDays(query.max_holding_days, 'max_holding_days');
  if (minHoldingDays !== null && maxHoldingDays !== null && minHoldingDays > maxHoldingDays) {
    throw new ValidationError(`Parameter 'min_holding_days' (${minHoldingDays}) is more than 'max_holding_days' (${maxHoldingDays})`);
  }
  return {
    selection,
    side: oneOf(query.side, 'side', ['long', 'short'] as const),
    result: oneOf(query.result, 'result', ['Win', 'Loss', 'Breakeven'] as const),
    source: oneOf(query.source, 'source', ['broker', 'fifo'] as const),
    minHoldingDays,
    maxHoldingDays,
    ...parseTagFilter(query),
  };
}

/** `/api/trades`: the filters plus `sort`, `order`, `limit` and `cursor`. */
export function parseTradeListQuery(query: Record<string, unknown>): TradeListQuery {
  const filters = parseTradeFilters(query);
  const sort = oneOf(query.sort, 'sort', TRADE_SORTS) ?? 'close_date';
  const order = oneOf(query.order, 'order', ['asc', 'desc'] as const) ?? 'desc';
  const limit = pageSize(query.limit);
  const cursorText = text(query.cursor, 'cursor');
  return { filters, sort, order, limit, after: cursorText === undefined || cursorText === '' ? null : decodeCursor(cursorText, sort, order) };
}

/** The list's period, for a file name or a title: `all` or `<start>_<end>`. */
export function selectionLabel(selection: TimeframeSelection): string {
  return selection.allTime ? 'all' : `${selection.start}_${selection.end}`;
}

/** Every day the service takes a date in (`all=true`). */
export const EVERY_SUPPORTED_DAY: { readonly from: IsoDate; readonly to: IsoDate } = {
  from: `${FIRST_SUPPORTED_YEAR}-01-01`,
  to: `${LAST_SUPPORTED_YEAR}-12-31`,
};

/** The close dates a timeframe selects, both included. */
export function dateRangeOf(selection: TimeframeSelection): { readonly from: IsoDate; readonly to: IsoDate } {
  return selection.allTime ? EVERY_SUPPORTED_DAY : { from: selection.start, to: selection.end };
}

/**
 * An opaque cursor: base64url of the sort and order it was made for and the last row's position, so
 * a cursor used with another sort is refused rather than silently skipping rows.
 */
export function encodeCursor(cursor: TradeCursor, sort: TradeSort, order: SortOrder): string {
  return Buffer.from(JSON.stringify([sort, order, cursor.sortValue, cursor.accountId, cursor.seq]), 'utf8').toString('base64url');
}

const INVALID_CURSOR = "Invalid cursor: use the 'next_cursor' of a previous page with the same sort and order";

function decodeCursor(input: string, sort: TradeSort, order: SortOrder): TradeCursor {
  let parts: unknown;
  try {
    parts = input.length <= 400 && /^[A-Za-z0-9_-]+$/.test(input) ? JSON.parse(Buffer.from(input, 'base64url').toString('utf8')) : undefined;
  } catch {
    parts = undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 5) throw new ValidationError(INVALID_CURSOR);
  const [cursorSort, cursorOrder, sortValue, accountId, seq] = parts as unknown[];
  const valid =
    cursorSort === sort &&
    cursorOrder === order &&
    typeof sortValue === 'string' &&
    sortValueMatches(sort, sortValue) &&
    Number.isSafeInteger(accountId) &&
    Number.isSafeInteger(seq) &&
    (accountId as number) > 0 &&
    (seq as number) >= 0;
  if (!valid) throw new ValidationError(INVALID_CURSOR);
  return { sortValue: sortValue as string, accountId: accountId as number, seq: seq as number };
}

/** A cursor's sort value must be of its column's type, so the database never sees a bad cast. */
function sortValueMatches(sort: TradeSort, value: string): boolean {
  switch (sort) {
    case 'close_date':
    case 'open_date':
      return parseIsoDate(value) === value && isSupportedDate(value);
    case 'symbol':
      return /^[\x20-\x7e]{1,64}$/.test(value);
    case 'holding_days':
      return /^-?\d{1,9}$/.test(value);
    default:
      return /^-?\d{1,20}(\.\d{1,30})?$/.test(value);
  }
}

function oneOf<T extends string>(input: unknown, name: string, allowed: readonly T[]): T | null {
  const value = text(input, name);
  if (value === undefined || value === '') return null;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ValidationError(`Parameter '${name}' must be one of ${allowed.join(', ')}`);
}

function holdingDays(input: unknown, name: string): number | null {
  const value = text(input, name);
  if (value === undefined || value === '') return null;
  if (!/^\d{1,6}$/.test(value) || Number(value) > MAX_HOLDING_DAYS) {
    throw new ValidationError(`Parameter '${name}' must be a whole number of days from 0 to ${MAX_HOLDING_DAYS}`);
  }
  return Number(value);
}

function pageSize(input: unknown): number {
  const value = text(input, 'limit');
  if (value === undefined || value === '') return DEFAULT_PAGE_SIZE;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGE_SIZE) {
    throw new ValidationError(`Parameter 'limit' must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return Number(value);
}

function text(input: unknown, name: string): string | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'string') return input;
  throw new ValidationError(`Parameter '${name}' must be given once`);
}

/** A listed trade: the trade, its stable id and its place in the import's order. */
export interface ListedTrade {
  readonly id: string;
  readonly trade: ClosedTrade;
  readonly accountId: number;
  readonly seq: number;
}

/**
 * A trade's id: stable across imports that derive the same trade again (a re-import, a later file),
 * because it is made of what the trade is, not of where the import put it: the account, symbol, side,
 * source, dates, shares, cost basis, proceeds and P&L (a broker's gain/loss can differ from proceeds
 * minus cost basis), and `occurrence`, the count of identical trades the import recorded before it (a
 * lot sold in equal parts on one day). So a trade's P&L is fixed by its id.
 */
export function tradeId(accountId: number, trade: ClosedTrade, occurrence: number): string {
  const content = idContent(accountId);
  writeIdentity(content, trade);
  return idOf(content, occurrence);
}

/**
 * A trade's id is the digest of `${accountId}|${identity}|${occurrence}`, its identity the fields
 * that make two trades identical (but the account and the occurrence) joined by `|`: the symbol, side,
 * source, dates, and the counts of units of shares, cost basis, proceeds and P&L. Written into one
 * buffer for all of an account's trades (`DigestContent`): the four counts as bigints, their strings,
 * an array, the joined identity and the text digested were 35 MB of a 100,000-row import.
 */
function idContent(accountId: number): DigestContent {
  return new DigestContent(`${accountId}|`, 0x7c /* | */);
}

function writeIdentity(content: DigestContent, trade: ClosedTrade): void {
  content
    .begin()
    .text(trade.symbol)
    .text(trade.side)
    .text(trade.source)
    .text(trade.openDate)
    .text(trade.closeDate)
    .units(trade.volume)
    .units(trade.costBasis)
    .units(trade.proceeds)
    .units(trade.totalProfitLoss);
}

/** The id of the trade whose identity `content` holds, the `occurrence`th identical one. */
function idOf(content: DigestContent, occurrence: number): string {
  return digestPrefix(content.integer(occurrence).digest('hex'), 20);
}

/** The ids of an account's trades in the order the import records them (each counts the identical trades before it). */
export function tradeIds(accountId: number, trades: readonly ClosedTrade[]): string[] {
  const sequence = new TradeIdSequence(accountId);
  return trades.map((trade) => sequence.next(trade));
}

/** `tradeIds` one trade at a time (a caller may stop between trades: hundreds of thousands take seconds). */
export class TradeIdSequence {
  /**
   * The identities seen, by closing day (identical trades close on the same one): a map of every trade
   * of a million-trade import took the event loop 50-130 ms at once each time it grew.
   */
  private readonly seenByDay = new Map<IsoDate, Map<string, number>>();
  /** The latest closing day seen, for trades given in closing order. */
  private day: IsoDate | undefined;
  private readonly content: DigestContent;

  /**
   * `inClosingOrder`: the trades come in the order they closed, as matching makes them (their closing
   * days never go back), so a day's identities are let go of once a later day's trade comes. Their
   * strings, some 170 bytes of heap a trade, were held to the end of a million-row import's matching
   * otherwise (docs/imports.md). A trade whose day has been let go of is refused.
   */
  constructor(
    accountId: number,
    private readonly inClosingOrder = false,
  ) {
    this.content = idContent(accountId);
  }

  next(trade: ClosedTrade): string {
    writeIdentity(this.content, trade);
    const identity = this.content.fieldsText();
    if (this.inClosingOrder && trade.closeDate !== this.day) {
      if (this.day !== undefined && trade.closeDate < this.day) {
        throw new Error(`a trade closed on ${trade.closeDate} came after one closed on ${this.day}: trades must come in closing order`);
      }
      this.seenByDay.clear();
      this.day = trade.closeDate;
    }
    let seen = this.seenByDay.get(trade.closeDate);
    if (seen === undefined) this.seenByDay.set(trade.closeDate, (seen = new Map()));
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    return idOf(this.content, occurrence);
  }
}

/** One page of a trade list and the totals of everything its filters select. */
export interface TradeListPage {
  readonly trades: readonly ListedTrade[];
  /** Where the next page starts; null on the last page. */
  readonly next: TradeCursor | null;
  readonly totalCount: number;
  readonly winningTrades: number;
  readonly netProfitLoss: Decimal;
}
