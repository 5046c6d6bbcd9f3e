import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError, type IsoDate } from '@app/shared/domain';
import {
  MAX_TAGS_PER_TRADE,
  MAX_TRADES_PER_TAG_CHANGE,
  noteOf,
  tagChangeOf,
  tagKeyOf,
  tagNameOf,
  tagSetOf,
  type OrphanedTrade,
  type TagFigures,
  type TagImportResult,
} from '../domain/journal.js';
import { parseReportDate } from '../domain/report-dates.js';
import { parseTagImport } from '../domain/tag-import.js';
import { TradeJournal, type CrowdedTrade, type StoredNote, type TagAssignment, type TagCount } from './trade-journal.port.js';

export const TRADE_NOT_FOUND = 'Trade not found';
export const TAG_NOT_FOUND = 'Tag not found';
export const ORPHAN_NOT_FOUND = 'No orphaned journal entry with this id';
export const TRADE_IDS_MESSAGE = `trade_ids must be a list of trade ids (the 'id' of trades in /api/trades), e.g. {"trade_ids": ["…"], "add": ["breakout"]}`;

/** A trade id as the service gives them out: 20 lowercase hexadecimal characters. */
const TRADE_ID = /^[0-9a-f]{20}$/;

/**
 * The journal (docs/api.md "Journal"): tags and notes on trades, notes on days, statistics per tag,
 * the orphans an import left, and tags imported from another journal's file. Another user's trade is
 * as unknown as one that never existed (404).
 */
@Injectable()
export class JournalService {
  constructor(private readonly journal: TradeJournal) {}

  async setTags(userId: number, tradeId: string, tags: unknown): Promise<string[]> {
    const id = tradeIdOf(tradeId);
    const stored = await this.journal.setTags(userId, id, tagSetOf(tags));
    if (stored === null) throw new NotFoundError(TRADE_NOT_FOUND);
    return stored;
  }

  /**
   * Adds tags to and removes tags from a selection of trades (the trade list's bulk change): all of
   * them, or none when an id is not the user's trade or a trade would carry more than 50 tags.
   */
  async changeTags(userId: number, tradeIds: unknown, add: unknown, remove: unknown): Promise<{ trades: number; added: readonly TagCount[]; removed: readonly TagCount[] }> {
    const ids = tradeIdsOf(tradeIds);
    const outcome = await this.journal.changeTags(userId, ids, tagChangeOf(add, remove));
    if (outcome.kind === 'unknown') {
      const [shown, more] = [outcome.tradeIds.slice(0, 3).join(', '), outcome.tradeIds.length - 3];
      throw new NotFoundError(`${TRADE_NOT_FOUND}: ${shown}${more > 0 ? ` and ${more} more` : ''} (nothing was changed)`);
    }
    if (outcome.kind === 'crowded') throw tooManyTags(outcome.trade, 'nothing was changed');
    return { trades: ids.length, added: outcome.added, removed: outcome.removed };
  }

  async note(userId: number, tradeId: string): Promise<StoredNote | null> {
    const note = await this.journal.note(userId, tradeIdOf(tradeId));
    if (note === undefined) throw new NotFoundError(TRADE_NOT_FOUND);
    return note;
  }

  async setNote(userId: number, tradeId: string, note: unknown): Promise<StoredNote | null> {
    const id = tradeIdOf(tradeId);
    const stored = await this.journal.setNote(userId, id, noteOf(note));
    if (stored === false) throw new NotFoundError(TRADE_NOT_FOUND);
    return stored;
  }

  tags(userId: number): Promise<TagFigures[]> {
    return this.journal.tags(userId);
  }

  async renameTag(userId: number, tag: string, name: unknown): Promise<{ merged: boolean; name: string }> {
    const renamed = await this.journal.renameTag(userId, tagKeyOf(tag), tagNameOf(name, 'name'));
    if (renamed === null) throw new NotFoundError(TAG_NOT_FOUND);
    return renamed;
  }

  async deleteTag(userId: number, tag: string): Promise<{ name: string; trades: number }> {
    const deleted = await this.journal.deleteTag(userId, tagKeyOf(tag));
    if (deleted === null) throw new NotFoundError(TAG_NOT_FOUND);
    return deleted;
  }

  async dayNote(userId: number, date: string): Promise<{ date: IsoDate; note: StoredNote | null }> {
    const day = parseReportDate(date, 'date');
    return { date: day, note: await this.journal.dayNote(userId, day) };
  }

  async setDayNote(userId: number, date: string, note: unknown): Promise<{ date: IsoDate; note: StoredNote | null }> {
    const day = parseReportDate(date, 'date');
    return { date: day, note: await this.journal.setDayNote(userId, day, noteOf(note)) };
  }

  orphans(userId: number): Promise<OrphanedTrade[]> {
    return this.journal.orphans(userId);
  }

  async discardOrphan(userId: number, tradeId: string): Promise<void> {
    if (!(await this.journal.discardOrphan(userId, tradeIdOf(tradeId)))) throw new NotFoundError(ORPHAN_NOT_FOUND);
  }

  /**
   * Tags from another journal's file: each line names the trades of a symbol and side closed on a day.
   * Those trades (all of them, when they come from one closing fill) get the line's tags. A line whose
   * trades come from several closing fills is ambiguous and tags nothing, unless the file has a line
   * for each of those fills and all of them give the same tags (another journal's trades of one day,
   * tagged alike): then they all get them. One that names no trade, or cannot be read, is listed. All
   * tags land together, or none do.
   */
  async importTags(userId: number, text: string): Promise<TagImportResult> {
    const lines = parseTagImport(text);
    const readable = lines.flatMap((line) => ('error' in line ? [] : [line]));
    const found = await this.journal.closingFills(userId, readable);
    const assignments: TagAssignment[] = [];
    const ambiguous: { line: number; reason: string }[] = [];
    const unmatched: { line: number; reason: string }[] = lines.flatMap((line) => ('error' in line ? [{ line: line.line, reason: line.error }] : []));
    // The lines naming each symbol, side and day, and whether they all give the same tags.
    const alike = new Map<string, { lines: number; tags: string | undefined }>();
    for (const line of readable) {
      const tags = [...new Set(line.tags.map((tag) => tag.key))].sort().join('\u001f');
      const seen = alike.get(namedBy(line));
      alike.set(namedBy(line), { lines: (seen?.lines ?? 0) + 1, tags: seen === undefined || seen.tags === tags ? tags : undefined });
    }
    readable.forEach((line, index) => {
      const { fills, tradeIds } = found[index];
      const named = `${line.symbol} ${line.side} closed ${line.closeDate}`;
      const same = alike.get(namedBy(line)) as { lines: number; tags: string | undefined };
      if (fills === 0) unmatched.push({ line: line.line, reason: `no ${named}` });
      // A line naming several fills tags them only when the file names each of them with the same tags.
      else if (fills > 1 && (same.lines !== fills || same.tags === undefined)) ambiguous.push({ line: line.line, reason: `${fills} closing fills of ${named} (${tradeIds.length} trades): tag them one by one` });
      else assignments.push({ tradeIds, tags: line.tags });
    });
    const crowded = await this.journal.addTags(userId, assignments);
    if (crowded !== null) throw tooManyTags(crowded, 'nothing was tagged');
    unmatched.sort((a, b) => a.line - b.line);
    return {
      lines: lines.length,
      matched: assignments.length,
      tradesTagged: new Set(assignments.flatMap((assignment) => assignment.tradeIds)).size,
      ambiguous,
      unmatched,
    };
  }
}

/** What a tag file's line names: the trades of a symbol and side closed on a day. */
function namedBy(line: { readonly symbol: string; readonly side: string; readonly closeDate: string }): string {
  return `${line.symbol} ${line.side} ${line.closeDate}`;
}

/** The 400 of a change that would leave a trade with more than 50 tags. */
function tooManyTags(trade: CrowdedTrade, outcome: string): ValidationError {
  return new ValidationError(`A trade can carry at most ${MAX_TAGS_PER_TRADE} tags: the ${trade.symbol} trade closed ${trade.closeDate} would carry ${trade.tags} (${outcome})`);
}

function tradeIdOf(input: string, what = 'Trade id'): string {
  if (!TRADE_ID.test(input)) throw new ValidationError(`${what} must be 20 hexadecimal characters (the 'id' of a trade in /api/trades), got '${input.slice(0, 40)}'`);
  return input;
}

/** The ids of a selection of trades: 1 to 2,000 trade ids, each once. */
function tradeIdsOf(input: unknown): string[] {
  if (!Array.isArray(input) || input.some((id) => typeof id !== 'string')) throw new ValidationError(TRADE_IDS_MESSAGE);
  const ids = [...new Set((input as string[]).map((id) => tradeIdOf(id, 'Each of trade_ids')))];
  if (ids.length === 0) throw new ValidationError('trade_ids must name at least one trade');
  if (ids.length > MAX_TRADES_PER_TAG_CHANGE) throw new ValidationError(`trade_ids can name at most ${MAX_TRADES_PER_TAG_CHANGE} trades at once (got ${ids.length})`);
  return ids;
}

