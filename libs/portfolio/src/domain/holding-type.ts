export const HOLDING_TYPES = ['stock', 'etf', 'mutual_fund'] as const;
export type HoldingType = (typeof HOLDING_TYPES)[number];

/** ../shared/spec/decisions.md §5: the CSV's `security_type`/`type`/`holding_type` values, case-insensitive. */
const CSV_TYPE_NAMES: Record<string, HoldingType> = {
  stock: 'stock',
  equity: 'stock',
  etf: 'etf',
  'mutual fund': 'mutual_fund',
  mutual_fund: 'mutual_fund',
  mf: 'mutual_fund',
};

export function isHoldingType(value: unknown): value is HoldingType {
  return typeof value === 'string' && (HOLDING_TYPES as readonly string[]).includes(value);
}

/** Maps a CSV type cell (`STOCK`, `Equity`, `ETF`, `Mutual Fund`, `MF` …); undefined when unknown. */
export function holdingTypeFromCsv(cell: string): HoldingType | undefined {
  return CSV_TYPE_NAMES[cell.trim().toLowerCase().replace(/\s+/g, ' ')];
}
