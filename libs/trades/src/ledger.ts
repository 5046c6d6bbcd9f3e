// The trade ledger as an import writes it (`@app/trades/ledger`): its port and the adapter an import's
// thread runs. Without the context's Nest module, its HTTP layer or its reports, so that an import's
// thread, which loads only what its adapters use, does not load them (docs/imports.md "A thread that
// loads what it runs").
export { TradeLedger, type AccountLedger, type LedgerAppend, type LedgerChange, type LedgerInMaking, type LedgerRest, type OpenBooks, type StoredOpenLots, type WantedBook } from './application/trade-ledger.port.js';
export { threadTradeLedger } from './infrastructure/persistence/thread-trade-ledger.js';
