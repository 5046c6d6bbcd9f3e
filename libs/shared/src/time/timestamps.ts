/**
 * ISO 8601 UTC wall-clock time with microseconds and no zone suffix, e.g. `2026-11-21T11:34:42.123456`,
 * as the health endpoints show. JavaScript clocks give milliseconds; the sub-millisecond digits come
 * from the monotonic clock so consecutive stamps within one millisecond still differ.
 */
export function timestampWithMicroseconds(now: Date = new Date()): string {
  const micros = Number(process.hrtime.bigint() / 1000n % 1000n);
  return `${now.toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}`;
}
