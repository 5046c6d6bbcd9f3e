// Which brokerage account the report pages show: all of the user's (the default) or the one chosen in
// the top bar. The report endpoints take it as `account=<number>` (docs/api.md "Trading reports").

/**
 * The GET endpoints whose figures one account narrows (the controllers' `ApiAccountFilter`): the
 * reports, the trade list and the exports of a day, a month and the trades. Nothing else is touched
 * (a trade's note, the portfolio, the import, the profile).
 */
const REPORT_PATH =
  /^\/api\/(?:months|month\/[^/?]+|trade-details\/[^/?]+|symbols|symbols\/[^/?]+|timeframe-data|statistics|equity-curve|trades|trades\/export\.csv|calendar-data|day-details|calendar\/export\/[^/?]+|monthly\/export\/[^/?]+)(?:\?|$)/;

/** `path` narrowed to `account` when it is a report's and an account is chosen; otherwise as it is. */
export function scopedToAccount(path: string, account: string | null): string {
  if (account === null || !REPORT_PATH.test(path)) return path;
  const url = new URL(path, 'http://app.local');
  url.searchParams.set('account', account);
  return url.pathname + url.search;
}

/** Where the chosen account is remembered between visits (this browser only). */
export const ACCOUNT_STORAGE_KEY = 'trading-journal.report-account';
