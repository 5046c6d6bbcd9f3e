/** The `data_source` every data response carries: both the embedded and the server database are PostgreSQL. */
export const DATA_SOURCE = 'postgresql';

/** Adds `success: true` and `data_source` to a data response body. */
export function dataResponse<T extends object>(body: T): { success: true } & T & { data_source: string } {
  return { success: true, ...body, data_source: DATA_SOURCE };
}
