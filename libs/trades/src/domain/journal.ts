import { ValidationError, type Decimal, type IsoDate } from '@app/shared/domain';
import type { TradeSide } from './closed-trade.js';

/** A tag's length after trimming, in characters (code points). */
export const MAX_TAG_LENGTH = 40;
/** Tags one trade may carry: far more than anyone files a trade under, few enough to keep a row small. */
export const MAX_TAGS_PER_TRADE = 50;
/** Trades one change of a selection's tags may name: pages of the trade list, more than anyone selects by hand (and within a JSON body's 64 KiB). */
export const MAX_TRADES_PER_TAG_CHANGE = 2_000;
/** A trade's or a day's note, in characters (code points). */
export const MAX_NOTE_LENGTH = 20_000;

/** A tag as the user wrote it (trimmed, inner white space collapsed) and its key (lower-cased): tags are compared by key. */
export interface TagName {
  readonly key: string;
  readonly name: string;
}

// Control characters other than tab and line breaks cannot be part of a tag or a note (a NUL byte cannot be stored).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A tag from user input: 1–40 characters after trimming, no control characters. */
export function tagNameOf(input: unknown, what = 'A tag'): TagName {
  if (typeof input !== 'string') throw new ValidationError(`${what} must be a string`);
  const name = input.trim().replace(/\s+/g, ' ');
  const length = [...name].length;
  if (length === 0) throw new ValidationError(`${what} must not be empty`);
  if (length > MAX_TAG_LENGTH) throw new ValidationError(`${what} must be at most ${MAX_TAG_LENGTH} characters (got ${length}: '${[...name].slice(0, 20).join('')}…')`);
  if (CONTROL.test(name)) throw new ValidationError(`${what} must not contain control characters`);
  return { key: tagKeyOf(name), name };
}

/** The key a tag is compared by (case-insensitive, also in a URL's path). */
export function tagKeyOf(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A trade's set of tags from `{tags: [...]}`: every one valid, duplicates (by key) once, in the order given. */
export function tagSetOf(input: unknown): TagName[] {
  const tags = distinctTags(input, 'tags', 'Each tag');
  if (tags.length > MAX_TAGS_PER_TRADE) throw new ValidationError(`A trade can carry at most ${MAX_TAGS_PER_TRADE} tags (got ${tags.length})`);
  return tags;
}

/** What a request body's field of tags that is not a list of strings is told. */
export function tagListMessage(field: string): string {
  return `${field} must be a list of strings, e.g. {"${field}": ["breakout"]}`;
}

/** The tags of a list in a request body's field: every one valid, duplicates (by key) once (the first spelling), in the order given. */
function distinctTags(input: unknown, field: string, each: string): TagName[] {
  if (!Array.isArray(input)) throw new ValidationError(tagListMessage(field));
  const byKey = new Map<string, TagName>();
  for (const item of input) {
    const tag = tagNameOf(item, each);
    if (!byKey.has(tag.key)) byKey.set(tag.key, tag);
  }
  return [...byKey.values()];
}

/** Tags to add to and remove from a selection of trades (`POST /api/trades/tags`). */
export interface TagChange {
  readonly add: readonly TagName[];
  readonly remove: readonly TagName[];
}

/**
 * The change of `{add: [...], remove: [...]}`: each list valid as a trade's set of tags (either may be
 * left out), at least one tag in all, none in both (by key).
 */
export function tagChangeOf(add: unknown, remove: unknown): TagChange {
  const change = { add: add === undefined ? [] : listedTags(add, 'add'), remove: remove === undefined ? [] : listedTags(remove, 'remove') };
  if (change.add.length + change.remove.length === 0) throw new ValidationError('Give tags to add or to remove, e.g. {"trade_ids": [...], "add": ["breakout"]}');
  const both = change.add.find((tag) => change.remove.some((other) => other.key === tag.key));
  if (both !== undefined) throw new ValidationError(`'${both.name}' is both to add and to remove: give it in one list`);
  return change;
}

/** One list of a tag change: valid as a trade's set of tags, with its own name in the messages. */
function listedTags(input: unknown, what: 'add' | 'remove'): TagName[] {
  const tags = distinctTags(input, what, `Each tag in ${what}`);
  if (tags.length > MAX_TAGS_PER_TRADE) throw new ValidationError(`${what} can name at most ${MAX_TAGS_PER_TRADE} tags (got ${tags.length})`);
  return tags;
}

/** A note from `{note: "..."}`: text of at most 20,000 characters; empty (or only white space) deletes it. Stored as given. */
export function noteOf(input: unknown): string {
  if (typeof input !== 'string') throw new ValidationError('note must be a string (an empty string deletes the note)');
  const length = [...input].length;
  if (length > MAX_NOTE_LENGTH) throw new ValidationError(`note must be at most ${MAX_NOTE_LENGTH} characters (got ${length})`);
  if (CONTROL.test(input)) throw new ValidationError('note must not contain control characters other than tabs and line breaks');
  return input.trim() === '' ? '' : input;
}

/** What a listed trade carries from the journal. */
export interface TradeAnnotation {
  readonly tags: readonly string[];
  readonly hasNote: boolean;
}

export const NO_ANNOTATION: TradeAnnotation = { tags: [], hasNote: false };

/** A tag with the summary figures of the trades carrying it (as `/api/statistics` defines them). */
export interface TagFigures {
  readonly key: string;
  readonly name: string;
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  readonly grossProfit: Decimal;
  readonly grossLoss: Decimal;
}

/** A note (and the tags) of a trade that no import derives any more, kept until the user deletes it. */
export interface OrphanedTrade {
  readonly tradeId: string;
  readonly symbol: string;
  readonly side: TradeSide;
  readonly openDate: IsoDate;
  readonly closeDate: IsoDate;
  readonly volume: Decimal;
  readonly profitLoss: Decimal;
  readonly tags: readonly string[];
  readonly note: string | null;
}

/**
 * Where the journal of trades that an import replaced goes (docs/api.md "Journal"): every trade derived
 * from the same closing fill (the same closing transaction) receives the tags of all of them and their
 * notes, distinct notes joined by a blank line in the order of the old trades.
 */
export function mergedNotes(notes: readonly (string | null)[]): string | null {
  const distinct = [...new Set(notes.filter((note): note is string => note !== null && note !== ''))];
  return distinct.length === 0 ? null : distinct.join('\n\n');
}

/** What a tag import did. */
export interface TagImportResult {
  readonly lines: number;
  readonly matched: number;
  readonly tradesTagged: number;
  readonly ambiguous: readonly { line: number; reason: string }[];
  readonly unmatched: readonly { line: number; reason: string }[];
}
