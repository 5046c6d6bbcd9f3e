// The portfolio context: holdings, market prices, holdings CSV import and snapshots.
// Its public surface (module, ports) is exported from here as it is built.
export {};
