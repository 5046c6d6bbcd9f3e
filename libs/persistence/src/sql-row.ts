import { Decimal } from '@app/shared/domain';

/** A row as the driver returns it from raw SQL; exact numbers are selected as `::text`. */
export type SqlRow = Record<string, string | number | boolean | null>;

/** A NUMERIC column selected as text, as an exact decimal. */
export function decimalFrom(value: SqlRow[string]): Decimal {
  return Decimal.parse(String(value));
}

/** The same for a column that may be NULL. */
export function decimalOrNullFrom(value: SqlRow[string]): Decimal | null {
  return value === null ? null : decimalFrom(value);
}

/** A text column that may be NULL. */
export function textOrNullFrom(value: SqlRow[string]): string | null {
  return value === null ? null : String(value);
}
