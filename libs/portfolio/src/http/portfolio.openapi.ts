import { arrayOf, boolean, dataEnvelope, instant, integer, isoDate, literal, nullable, number, object, oneOfStrings, ref, string, type SchemaSet } from '@app/shared';

// The portfolio's response bodies (portfolio.presenter.ts and the controllers) for the OpenAPI document.

const count = integer({ minimum: 0 });
const totals = {
  total_value: number({ description: 'Of the priced holdings: one without any known price is left out of value, cost and gain (`unpriced_count`).' }),
  total_cost: number(),
  total_gain_loss: number(),
  total_return_pct: number(),
  holdings_count: count,
  unpriced_count: count,
};
const snapshot = { id: integer(), snapshot_time: instant(), ...totals };
const message = string();

export const portfolioSchemas: SchemaSet = {
  Holding: object({
    id: integer(),
    symbol: string(),
    holding_type: oneOfStrings(['stock', 'etf', 'mutual_fund']),
    shares: number(),
    average_cost: number(),
    current_price: nullable(number()),
    total_cost: number(),
    current_value: nullable(number()),
    gain_loss: nullable(number()),
    return_percentage: nullable(number()),
    last_updated: nullable(instant()),
    price_stale: boolean({ description: 'The price is older than the refresh interval.' }),
    notes: string(),
    purchase_date: nullable(isoDate()),
    created_at: instant(),
    updated_at: instant(),
  }),
  PortfolioTotals: object(totals),
  HoldingsResponse: dataEnvelope({ holdings: arrayOf(ref('Holding')), count, stale_prices: count, totals: ref('PortfolioTotals') }),
  HoldingChangedResponse: object({ success: literal(true), message, holding: ref('Holding') }),
  MessageResponse: object({ success: literal(true), message }),
  RefreshPricesResponse: object({
    success: literal(true),
    updated_count: count,
    errors: arrayOf(object({ symbol: string(), error: string() })),
    message,
  }),
  SymbolValidation: {
    oneOf: [
      object({ valid: literal(true), symbol: string(), current_price: number(), company_name: nullable(string()), message }),
      object({ valid: literal(false), symbol: string(), error: string() }),
    ],
  },
  PriceData: object({
    current_price: number(),
    change: nullable(number()),
    percent_change: nullable(number()),
    high: nullable(number()),
    low: nullable(number()),
    open: nullable(number()),
    previous_close: nullable(number()),
    quote_time: nullable(instant()),
    last_updated: instant(),
  }),
  PriceResponse: object({ success: literal(true), symbol: string(), price_data: ref('PriceData') }),
  Snapshot: object(snapshot),
  SnapshotResponse: object({ success: literal(true), snapshot: ref('Snapshot') }),
  HistorySnapshot: object({
    ...snapshot,
    snapshot_type: oneOfStrings(['MANUAL', 'AUTOMATIC', 'EOD']),
    notes: string(),
    trading_date: nullable(isoDate()),
  }),
  SnapshotHistoryResponse: object({ success: literal(true), history: arrayOf(ref('HistorySnapshot'), { description: 'Newest first.' }) }),
  HoldingsUploadResponse: object({
    success: literal(true),
    imported: count,
    updated: count,
    errors: arrayOf(string(), { description: 'Rows skipped, each naming its row number and the reason.' }),
    message,
  }),
};
