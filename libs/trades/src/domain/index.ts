// The trade ledger's model (`@app/trades/domain`): what a completed trade, a dividend and a position
// change are, and the rules every producer of them follows. Pure TypeScript; the import's domain
// builds these, the reports read them.
export {
  returnPercentageOf,
  tradeResultOf,
  type ClosedTrade,
  type DividendPayment,
  type OpenPosition,
  type PositionChange,
  type TradeResult,
  type TradeSide,
  type TradeSource,
} from './closed-trade.js';
export type { BookHeldElsewhere, WantedBook } from './wanted-book.js';
