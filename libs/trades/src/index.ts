// The trades context: the trading reports: months, trades, symbols, timeframes.
// Its public surface (module, ports) is exported from here as it is built.
export {};
