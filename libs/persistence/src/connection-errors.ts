/**
 * Tells whether an error means "the database cannot be reached" (as opposed to a bad query):
 * refused/reset sockets, a server shutting down, a terminated connection, a pool that timed out.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, driverError } = error as Error & { code?: unknown; driverError?: unknown };
  if (driverError !== undefined && driverError !== error && isConnectionError(driverError)) return true;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
    // SQLSTATE class 08 (connection exception) and 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
    if (/^08/.test(code) || /^57P0[1-3]$/.test(code)) return true;
  }
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    error.message,
  );
}
