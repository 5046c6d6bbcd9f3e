// The JSON shapes of the public API under the names the app uses: the types generated from the
// OpenAPI document (./schema.ts, written by `npm run openapi`), never copied by hand.
import type * as Api from './schema';

export type Profile = Api.Profile;
export type MarketMetrics = Api.TradingCalendarMetrics;

/** A trade in any listing: a month's lists the fields the month page shows, the others every field. */
/** A trade of any list: a month's (the fewest fields), every field, or a stored trade with its journal (a day, a symbol). */
export type Trade = Api.MonthTrade & Partial<Api.Trade> & Partial<Pick<Api.JournaledTrade, 'id' | 'tags' | 'has_note'>>;
export type Dividend = Api.Dividend;

export type MonthListItem = Api.MonthSummary;
export type MonthSummary = Api.MonthSummary;
export type MonthsResponse = Api.MonthsResponse;
export type MonthResponse = Api.MonthResponse;

export type SymbolListItem = Api.SymbolsResponse['symbols'][number];
export type SymbolSummaryItem = Api.SymbolSummaryItem;
export type SymbolDetailSummary = Api.SymbolDetailSummary;
export type SymbolDetailResponse = Api.SymbolDetailResponse;

export type PeriodMetrics = Api.PeriodMetrics;
export type WeekPeriod = Api.TimeframeResponse['data']['weekly_summary'][number];
export type MonthPeriod = Api.TimeframeResponse['data']['monthly_summary'][number];
export type OpenPosition = Api.TimeframeResponse['data']['open_positions'][number];
export type TimeframeResponse = Api.TimeframeResponse;

export type CalendarDay = Api.CalendarDay;
export type CalendarResponse = Api.CalendarResponse;
export type DaySummary = Api.DaySummary;
export type DayDetailsResponse = Api.DayDetailsResponse;

export type UploadHistoryEntry = Api.UploadHistoryEntry;
export type ImportStats = Api.ImportStats;
/** A line of the import's NDJSON stream. */
export type UploadMessage = Api.UploadLine;

export type HoldingType = Api.Holding['holding_type'];
export type Holding = Api.Holding;
export type RefreshPricesResponse = Api.RefreshPricesResponse;
export type HoldingsUploadResponse = Api.HoldingsUploadResponse;
export type SnapshotType = Api.HistorySnapshot['snapshot_type'];
/** A portfolio's totals as the server sums them (a holding without a price is left out, and counted in `unpriced_count`). */
export type PortfolioTotals = Api.PortfolioTotals;
export type HoldingsResponse = Api.HoldingsResponse;
export type Snapshot = Api.HistorySnapshot;
export type Position = Api.Position;
export type PositionsResponse = Api.PositionsResponse;
export type PortfolioSummaryResponse = Api.PortfolioSummaryResponse;
export type AllocationResponse = Api.AllocationResponse;
export type ValueHistoryResponse = Api.ValueHistoryResponse;

export type StatisticsFilters = Api.StatisticsFilters;
export type BreakdownRow = Omit<Api.TradeStatistics['by_side'][number], 'side'>;
export type ExtremeTrade = NonNullable<Api.TradeStatistics['largest_win']>;
export type TradeStatistics = Api.TradeStatistics;
export type StatisticsResponse = Api.StatisticsResponse;
export type EquityPoint = Api.EquityPoint;
export type EquityCurveResponse = Api.EquityCurveResponse;

export type ListedTrade = Api.JournaledTrade;
export type TradeListResponse = Api.TradeListResponse;

export type JournaledTrade = Api.JournaledTrade;
export type TagFigures = Api.TagFigures;
export type TagsResponse = Api.TagsResponse;
export type TradeTagsResponse = Api.TradeTagsResponse;
export type TagSelectionResponse = Api.TagSelectionResponse;
export type TradeNoteResponse = Api.TradeNoteResponse;
export type DayNoteResponse = Api.DayNoteResponse;
export type ImportPreview = Api.ImportPreviewResponse;
