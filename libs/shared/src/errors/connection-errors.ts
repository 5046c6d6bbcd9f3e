/**
 * Tells whether an error means "the database cannot be reached" (as opposed to a bad query):
 * refused/reset sockets, a server shutting down or not accepting connections, a database that does
 * not exist (dropped or not created yet), a terminated or released connection, a pool that timed out.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, driverError } = error as Error & { code?: unknown; driverError?: unknown };
  if (driverError !== undefined && driverError !== error && isConnectionError(driverError)) return true;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
    // SQLSTATE class 08 (connection exception) and 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
    if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true;
    // 55000 "object not in prerequisite state" is what a server refusing new connections answers
    // (e.g. `ALTER DATABASE … ALLOW_CONNECTIONS false`); 3D000: the database does not exist.
    if (code === '55000' || code === '3D000') return true;
  }
  // TypeORM releases a query runner whose connection reported an error (a terminated backend between two
  // statements): the transaction's next statement is refused with "…provided by a query runner was
  // already released…", the only word of the dropped connection the caller gets.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|Release called on client which has already been released|Query runner already released|connection provided by a query runner was already released/i.test(
    error.message,
  );
}

/**
 * Tells whether an error means "another transaction's change got in the way, try again": PostgreSQL
 * broke a deadlock by aborting this transaction (40P01), could not serialize it (40001), or gave up
 * waiting for a lock (55P03). The statement and its transaction were rolled back.
 */
export function isConflictingChange(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, driverError } = error as Error & { code?: unknown; driverError?: unknown };
  if (driverError !== undefined && driverError !== error && isConflictingChange(driverError)) return true;
  return code === '40P01' || code === '40001' || code === '55P03';
}
