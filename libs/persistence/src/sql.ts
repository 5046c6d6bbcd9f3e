// The SQL adapters' tools (`@app/persistence/sql`): the database and its units of work, `COPY` and the
// rows read back, and the database an import's thread reaches through the main thread. Without the
// Nest module, the migrations or the notifications' own connection, so that an import's thread, which
// loads only what its adapters use, does not load them (docs/imports.md "A thread that loads what it runs").
export { Database } from './database.js';
export { allRowsOfJob, filledRows, rowsOf, textAhead, textOrNull, type CopyJob, type CopyRows, type CopyTarget, type CopyTextJob, type CopyValue } from './bulk-copy.js';
export { eachInTurns, mapInTurns } from './map-in-turns.js';
export { decimalFrom, decimalOrNullFrom, textOrNullFrom, type SqlRow } from './sql-row.js';
export { TypeOrmUnitOfWork, UnitOfWork } from './unit-of-work.js';
export { ThreadDatabase, type ThreadPort } from './thread-database.js';
