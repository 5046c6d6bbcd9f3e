import type { StoredNote, TagCount } from '../application/trade-journal.port.js';
import type { OrphanedTrade, TagFigures, TagImportResult } from '../domain/journal.js';
import { summaryFigures } from '../domain/trade-statistics.js';
import type { Decimal } from '@app/shared/domain';

// The journal's response shapes (docs/api.md "Journal"); money and ratios rounded here, to 2 places.

const two = (value: Decimal): number => value.toNumber(2);
const twoOrNull = (value: Decimal | null): number | null => (value === null ? null : value.toNumber(2));

/** A tag of `/api/tags` with its trades' figures. */
export function tagView(tag: TagFigures) {
  const figures = summaryFigures(tag);
  return {
    name: tag.name,
    total_trades: figures.totalTrades,
    winning_trades: figures.winningTrades,
    losing_trades: figures.losingTrades,
    win_rate: twoOrNull(figures.winRate),
    gross_profit: two(figures.grossProfit),
    gross_loss: two(figures.grossLoss),
    net_profit_loss: two(figures.netProfitLoss),
    profit_factor: twoOrNull(figures.profitFactor),
    expectancy: twoOrNull(figures.expectancy),
  };
}

export function noteView(note: StoredNote | null) {
  return { note: note?.note ?? null, updated_at: note === null ? null : note.updatedAt.toISOString() };
}

export function orphanView(orphan: OrphanedTrade) {
  return {
    id: orphan.tradeId,
    symbol: orphan.symbol,
    side: orphan.side,
    open_date: orphan.openDate,
    close_date: orphan.closeDate,
    volume: orphan.volume.toNumber(6),
    total_profit_loss: two(orphan.profitLoss),
    tags: [...orphan.tags],
    note: orphan.note,
  };
}

export function tagImportView(result: TagImportResult) {
  const parts = [`Tagged ${result.tradesTagged} trade${result.tradesTagged === 1 ? '' : 's'} from ${result.matched} of ${result.lines} line${result.lines === 1 ? '' : 's'}`];
  if (result.ambiguous.length > 0) parts.push(`${result.ambiguous.length} ambiguous`);
  if (result.unmatched.length > 0) parts.push(`${result.unmatched.length} not matched`);
  return {
    lines: result.lines,
    matched: result.matched,
    trades_tagged: result.tradesTagged,
    ambiguous: result.ambiguous.length,
    unmatched: result.unmatched.length,
    problems: [...result.ambiguous.map((line) => ({ ...line, kind: 'ambiguous' })), ...result.unmatched.map((line) => ({ ...line, kind: 'unmatched' }))].sort(
      (a, b) => a.line - b.line,
    ),
    message: parts.join(', '),
  };
}

/** The answer to a change of a selection's tags: each tag with the trades it was added to or removed from. */
export function tagChangeView(result: { trades: number; added: readonly TagCount[]; removed: readonly TagCount[] }) {
  const trades = (count: number) => `${count} trade${count === 1 ? '' : 's'}`;
  const parts = [
    ...result.added.map((tag) => `'${tag.name}' added to ${trades(tag.trades)}`),
    ...result.removed.map((tag) => `'${tag.name}' removed from ${trades(tag.trades)}`),
  ];
  return { trades: result.trades, added: result.added, removed: result.removed, message: `${trades(result.trades)}: ${parts.join(', ')}` };
}
