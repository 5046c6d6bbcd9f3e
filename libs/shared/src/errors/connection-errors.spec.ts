import { isConflictingChange, isConnectionError } from './connection-errors.js';

describe('isConnectionError', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    withCode('ECONNREFUSED'),
    withCode('08006'),
    withCode('57P01', 'terminating connection due to administrator command'),
    new Error('Connection terminated unexpectedly'),
    withCode('55000', 'database "x" is not currently accepting connections'),
    withCode('3D000', 'database "x" does not exist'),
    withCode('57P03', 'the database system is starting up'),
    new Error('Client was closed and is not queryable'),
    new Error('Query runner already released. Cannot run queries anymore.'),
    new Error('Database connection provided by a query runner was already released, cannot continue to use its querying methods anymore.'),
    new Error('timeout exceeded when trying to connect'),
    Object.assign(new Error('query failed'), { driverError: withCode('ECONNRESET') }),
  ])('recognises %p', (error) => {
    expect(isConnectionError(error)).toBe(true);
  });

  it.each([withCode('23505', 'duplicate key value'), withCode('42P01', 'relation does not exist'), new Error('boom'), 'text'])(
    'does not mistake %p for one',
    (error) => {
      expect(isConnectionError(error)).toBe(false);
    },
  );
});

describe('isConflictingChange', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    withCode('40P01', 'deadlock detected'),
    withCode('40001', 'could not serialize access due to concurrent update'),
    withCode('55P03', 'canceling statement due to lock timeout'),
    Object.assign(new Error('query failed'), { driverError: withCode('40P01') }),
  ])('recognises %p', (error) => {
    expect(isConflictingChange(error)).toBe(true);
  });

  it.each([withCode('23505', 'duplicate key value'), withCode('ECONNRESET'), new Error('deadlock detected'), 'text'])('does not mistake %p for one', (error) => {
    expect(isConflictingChange(error)).toBe(false);
  });
});
