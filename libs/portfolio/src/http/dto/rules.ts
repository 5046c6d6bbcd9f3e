import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isSupportedDate, parseIsoDate } from '@app/shared/domain';

/**
 * A finite JSON number with at most `places` decimals. class-validator's own `maxDecimalPlaces`
 * reads the digits after a '.', which `1e-7` and `5e-324` do not have (it throws on them); this
 * reads the number's exact decimal form instead.
 */
export function IsFixedNumber(places: number, options: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isFixedNumber', validator: { validate: (value: unknown) => hasAtMostDecimals(value, places) } }, options);
}

export function hasAtMostDecimals(value: unknown, places: number): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  // Below 1e21 `toFixed` writes every digit; the round trip is exact only when no digit beyond `places` exists.
  return Math.abs(value) < 1e21 && Number(value.toFixed(places)) === value;
}

/** `YYYY-MM-DD` naming a real day in the supported years (1900–2199). */
export function IsSupportedIsoDate(options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSupportedIsoDate',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const date = parseIsoDate(value);
          return date !== undefined && date === value && isSupportedDate(date);
        },
      },
    },
    options,
  );
}

/** Text without control characters other than tab and line breaks (a NUL byte cannot be stored). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const PLAIN_TEXT = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
