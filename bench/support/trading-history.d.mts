export interface TradingHistory {
  transactions: string;
  gains: string;
  trades: number;
  dividends: number;
  lots: number;
  rows: number;
  firstDay: string;
  lastDay: string;
}

export function generateTradingHistory(options?: {
  trades?: number;
  dividends?: number;
  symbols?: number;
  brokerLotShare?: number;
  seed?: number;
}): TradingHistory;
