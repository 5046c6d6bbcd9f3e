// Numbers and dates as a person reads them. The API sends money with 2 decimals, prices with up to 4,
// shares with up to 6, percentages as percent numbers (66.67 means 66.67 %), dates as YYYY-MM-DD.
// One locale (en-US) and one currency (USD): the brokerage exports are American.

const LOCALE = 'en-US';

const moneyFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD' });
const signedMoneyFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', signDisplay: 'exceptZero' });
const priceFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });
const money2Format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const price4Format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 });
const wholeSignedMoneyFormat = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
const compactMoneyFormat = new Intl.NumberFormat(LOCALE, {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
});
const percentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: 0, maximumFractionDigits: 2 });
const signedPercentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const sharesFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 6 });
const integerFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const dateFormat = new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDateFormat = new Intl.DateTimeFormat(LOCALE, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const shortDateFormat = new Intl.DateTimeFormat(LOCALE, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: 'long', timeZone: 'UTC' });
const shortMonthFormat = new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: 'short', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const secondsFormat = new Intl.DateTimeFormat(LOCALE, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

const DASH = '—';
const MINUS = '−';

/** Intl writes a hyphen-minus; a real minus sign reads better and screen readers say "minus". */
const withMinus = (text: string): string => text.replace('-', MINUS);

const missing = (value: number | null | undefined): value is null | undefined => value === null || value === undefined || Number.isNaN(value);

/** $1,234.56 · −$12.00 */
export function formatMoney(value: number | null | undefined): string {
  return missing(value) ? DASH : withMinus(moneyFormat.format(value));
}

/** +$1,234.56 · −$12.00 · $0.00: for profit and loss. */
export function formatSignedMoney(value: number | null | undefined): string {
  return missing(value) ? DASH : withMinus(signedMoneyFormat.format(value));
}

/** +$1.2K · −$980 · +$23: for small spaces (calendar cells on a phone, chart axes). */
export function formatCompactMoney(value: number | null | undefined): string {
  if (missing(value)) return DASH;
  return withMinus(Math.abs(value) < 1000 ? wholeSignedMoneyFormat.format(value) : compactMoneyFormat.format(value));
}

/** $171.04 · $177.0779: prices keep up to 4 decimals. */
export function formatPrice(value: number | null | undefined, places?: 2 | 4): string {
  if (missing(value)) return DASH;
  return withMinus((places === undefined ? priceFormat : places === 2 ? money2Format : price4Format).format(value));
}

/** A price column's decimals: 2, or 4 when any of its prices needs more than 2 (one column never mixes them). */
export function priceDecimals(prices: readonly (number | null | undefined)[]): 2 | 4 {
  return prices.some((price) => typeof price === 'number' && Number(price.toFixed(2)) !== price) ? 4 : 2;
}

/** A percent number from the API (42.86 → "42.86%"). */
export function formatPercent(value: number | null | undefined): string {
  return missing(value) ? DASH : withMinus(percentFormat.format(value / 100));
}

/** A return (3.5 → "+3.50%"). */
export function formatSignedPercent(value: number | null | undefined): string {
  return missing(value) ? DASH : withMinus(signedPercentFormat.format(value / 100));
}

/** 1,234.5 shares; fractional shares keep up to 6 decimals. */
export function formatShares(value: number | null | undefined): string {
  return missing(value) ? DASH : withMinus(sharesFormat.format(value));
}

export function formatCount(value: number | null | undefined): string {
  return missing(value) ? DASH : integerFormat.format(value);
}

/** Parses YYYY-MM-DD (or YYYY-MM) as a calendar date, never shifted by the browser's time zone. */
export function parseDay(text: string): Date {
  const [year, month, day = 1] = text.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day));
}

/** 2024-05-01 → "May 1, 2024" */
export function formatDate(text: string | null | undefined): string {
  return text ? dateFormat.format(parseDay(text)) : DASH;
}

/** 2024-05-01 → "Wednesday, May 1, 2024" */
export function formatLongDate(text: string): string {
  return longDateFormat.format(parseDay(text));
}

/** 2024-05-01 → "May 1" */
export function formatShortDate(text: string): string {
  return shortDateFormat.format(parseDay(text));
}

/** 2024-05 → "May 2024" */
export function formatMonth(text: string): string {
  return monthFormat.format(parseDay(text));
}

/** 2024-05 → "May 2024" (chart axes) */
export function formatShortMonth(text: string): string {
  return shortMonthFormat.format(parseDay(text));
}

/** An ISO timestamp in the reader's own time zone: "Nov 21, 2026, 12:11 PM". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

/**
 * Each time as `formatDateTime` writes it, with seconds for those that would read alike (two
 * snapshots taken in one minute), and numbered in the order given when even the seconds are alike: a
 * row's time, and the buttons named after it, stay distinct. Keyed by the ISO time as given.
 */
export function distinctDateTimes(isos: readonly string[]): Map<string, string> {
  const alike = (texts: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
    return (text: string) => (counts.get(text) ?? 0) > 1;
  };
  const minutes = isos.map((iso) => formatDateTime(iso));
  const inMinute = alike(minutes);
  const written = isos.map((iso, index) => (inMinute(minutes[index]) ? secondsFormat.format(new Date(iso)) : minutes[index]));
  const inSecond = alike(written);
  const seen = new Map<string, number>();
  return new Map(
    isos.map((iso, index) => {
      const text = written[index];
      if (!inSecond(text)) return [iso, text];
      const number = (seen.get(text) ?? 0) + 1;
      seen.set(text, number);
      return [iso, `${text} (${number})`];
    }),
  );
}

/** 6705 → "6.5 KB" */
export function formatBytes(bytes: number | null | undefined): string {
  if (missing(bytes)) return DASH;
  if (bytes < 1024) return `${integerFormat.format(bytes)} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}

export type Tone = 'gain' | 'loss' | 'flat';

/** Which colour a profit-or-loss number gets. */
export function tone(value: number | null | undefined): Tone {
  if (missing(value) || value === 0) return 'flat';
  return value > 0 ? 'gain' : 'loss';
}
