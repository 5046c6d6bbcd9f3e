// The import context: the brokerage CSV import: parsers, hybrid matching, the upload stream.
// Its public surface (module, ports) is exported from here as it is built.
export {};
