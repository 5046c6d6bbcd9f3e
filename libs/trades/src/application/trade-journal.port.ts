import type { IsoDate } from '@app/shared/domain';
import type { OrphanedTrade, TagChange, TagFigures, TagName, TradeAnnotation } from '../domain/journal.js';
import type { TradeSide } from '../domain/closed-trade.js';

/** A day's note and when it was last written. */
export interface StoredNote {
  readonly note: string;
  readonly updatedAt: Date;
}

/** The trades of one closing day a tag-import line names: their ids, grouped by closing fill. */
export interface ClosingFills {
  readonly fills: number;
  readonly tradeIds: readonly string[];
}

/** Tags to add to some trades. */
export interface TagAssignment {
  readonly tradeIds: readonly string[];
  readonly tags: readonly TagName[];
}

/** A tag and how many trades a change of tags added it to, or removed it from. */
export interface TagCount {
  readonly name: string;
  readonly trades: number;
}

/** A trade that a change would leave with more tags than a trade may carry, and how many. */
export interface CrowdedTrade {
  readonly symbol: string;
  readonly closeDate: IsoDate;
  readonly tags: number;
}

/**
 * What a change of a selection's tags did: the tags added and removed (names as stored, in the order
 * given), or why nothing changed: ids the user has no trade of, or a trade that would carry more tags
 * than a trade may.
 */
export type TagChangeOutcome =
  | { readonly kind: 'changed'; readonly added: readonly TagCount[]; readonly removed: readonly TagCount[] }
  | { readonly kind: 'unknown'; readonly tradeIds: readonly string[] }
  | { readonly kind: 'crowded'; readonly trade: CrowdedTrade };

/** A symbol, side and close date, as a tag-import line names a trade. */
export interface ClosingKey {
  readonly symbol: string;
  readonly side: TradeSide;
  readonly closeDate: IsoDate;
}

/**
 * The journal's store: tags and notes on a user's trades (by their stable id) and notes on days. Every
 * method is scoped to the user; a trade id of someone else's is as unknown as one that never existed.
 * Writers raise the user's report version (tags show in, and filter, the cached reports).
 */
export abstract class TradeJournal {
  /** The tags and note flag of the given trades (absent: none). */
  abstract annotations(userId: number, tradeIds: readonly string[]): Promise<Map<string, TradeAnnotation>>;

  /** Replaces a trade's tags; the tags as stored (names as first written), or null when the user has no such trade. */
  abstract setTags(userId: number, tradeId: string, tags: readonly TagName[]): Promise<string[] | null>;

  /**
   * Adds each assignment's tags to its trades, all in one transaction (the tag import); or none, and
   * the trade that would carry more tags than a trade may.
   */
  abstract addTags(userId: number, assignments: readonly TagAssignment[]): Promise<CrowdedTrade | null>;

  /** Adds and removes tags on the given trades (distinct ids), all in one transaction, or changes nothing. */
  abstract changeTags(userId: number, tradeIds: readonly string[], change: TagChange): Promise<TagChangeOutcome>;

  /** A trade's note, or null when it has none; undefined when the user has no such trade. */
  abstract note(userId: number, tradeId: string): Promise<StoredNote | null | undefined>;

  /** Writes (or, with '', deletes) a trade's note; false when the user has no such trade. */
  abstract setNote(userId: number, tradeId: string, note: string): Promise<StoredNote | null | false>;

  /** Every tag of the user with its trades' summary figures, by name. */
  abstract tags(userId: number): Promise<TagFigures[]>;

  /** Renames a tag, merging it into `to` when that name is taken; null when the tag does not exist. */
  abstract renameTag(userId: number, key: string, to: TagName): Promise<{ merged: boolean; name: string } | null>;

  /** Deletes a tag from every trade; how many trades carried it, or null when the tag does not exist. */
  abstract deleteTag(userId: number, key: string): Promise<{ name: string; trades: number } | null>;

  abstract dayNote(userId: number, day: IsoDate): Promise<StoredNote | null>;

  /** Writes (or, with '', deletes) a day's note. */
  abstract setDayNote(userId: number, day: IsoDate, note: string): Promise<StoredNote | null>;

  /** Annotated trades that no import derives any more. */
  abstract orphans(userId: number): Promise<OrphanedTrade[]>;

  /** Deletes an orphan's tags and note; false when the user has no such orphan. */
  abstract discardOrphan(userId: number, tradeId: string): Promise<boolean>;

  /** For each key, the user's trades of that symbol and side closed that day, and how many closing fills they come from. */
  abstract closingFills(userId: number, keys: readonly ClosingKey[]): Promise<ClosingFills[]>;
}
