// The export context: day and month exports as CSV, Excel and PDF.
// Its public surface (module, ports) is exported from here as it is built.
export {};
