import { ValidationError } from '@app/shared/domain';
import { DATES_REQUIRED, INVALID_DATE, parseReportDate, parseReportMonth, parseSymbolsFilter, parseTimeframeQuery, reportMonth } from './report-dates.js';

const messageOf = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a ValidationError');
};

describe('report months', () => {
  it.each([
    ['2024-02', '2024-02-01', '2024-02-29'],
    ['2023-02', '2023-02-01', '2023-02-28'],
    ['2024-04', '2024-04-01', '2024-04-30'],
    ['2024-12', '2024-12-01', '2024-12-31'],
    ['2025-01', '2025-01-01', '2025-01-31'],
  ])('%s runs from %s to %s', (text, first, last) => {
    expect(parseReportMonth(text)).toEqual({ month: text, year: Number(text.slice(0, 4)), monthNumber: Number(text.slice(5)), firstDay: first, lastDay: last });
  });

  it('builds a month from numbers', () => {
    expect(reportMonth(2024, 3)).toMatchObject({ month: '2024-03', firstDay: '2024-03-01', lastDay: '2024-03-31' });
  });

  it.each([
    ['2024-13', "Invalid month: '2024-13'. The month must be 01 to 12"],
    ['2024-00', "Invalid month: '2024-00'. The month must be 01 to 12"],
    ['0000-05', "Invalid month: '0000-05'. Months from 1900-01 to 2199-12 are supported"],
    ['1899-12', "Invalid month: '1899-12'. Months from 1900-01 to 2199-12 are supported"],
    ['9999-12', "Invalid month: '9999-12'. Months from 1900-01 to 2199-12 are supported"],
    ['2024-5', "Invalid month format: '2024-5'. Use YYYY-MM"],
    ['abc', "Invalid month format: 'abc'. Use YYYY-MM"],
    ['2024-05-01', "Invalid month format: '2024-05-01'. Use YYYY-MM"],
    ['', "Invalid month format: ''. Use YYYY-MM"],
  ])('refuses %p', (text, message) => {
    expect(messageOf(() => parseReportMonth(text))).toBe(message);
  });
});

describe('report dates', () => {
  it('reads real calendar days only', () => {
    expect(parseReportDate('2024-02-29', 'date')).toBe('2024-02-29');
    expect(messageOf(() => parseReportDate('2023-02-29', 'date'))).toBe(INVALID_DATE);
    expect(messageOf(() => parseReportDate('9999-12-31', 'date'))).toBe('Invalid date: 9999-12-31. Dates from 1900-01-01 to 2199-12-31 are supported');
    expect(parseReportDate('1900-01-01', 'date')).toBe('1900-01-01');
    expect(parseReportDate('2199-12-31', 'date')).toBe('2199-12-31');
    expect(messageOf(() => parseReportDate('05/09/2024', 'date'))).toBe(INVALID_DATE);
    expect(messageOf(() => parseReportDate(undefined, 'date'))).toBe("Parameter 'date' is required (YYYY-MM-DD)");
    expect(messageOf(() => parseReportDate(['2024-01-01', '2024-01-02'], 'date'))).toBe("Parameter 'date' must be given once");
  });
});

describe('timeframe queries', () => {
  it('all=true means all time, whatever the dates say', () => {
    expect(parseTimeframeQuery({ all: 'true', start: 'junk' })).toEqual({ allTime: true, symbols: null });
    expect(parseTimeframeQuery({ all: 'TRUE' })).toEqual({ allTime: true, symbols: null });
  });

  it('otherwise needs both dates, real ones, in order', () => {
    expect(parseTimeframeQuery({ start: '2024-04-25', end: '2024-05-06' })).toEqual({ allTime: false, start: '2024-04-25', end: '2024-05-06', symbols: null });
    expect(parseTimeframeQuery({ start: '2024-05-06', end: '2024-05-06' })).toMatchObject({ start: '2024-05-06', end: '2024-05-06' });
    expect(messageOf(() => parseTimeframeQuery({}))).toBe(DATES_REQUIRED);
    expect(messageOf(() => parseTimeframeQuery({ all: 'false', start: '2024-01-01' }))).toBe(DATES_REQUIRED);
    expect(messageOf(() => parseTimeframeQuery({ start: '', end: '2024-01-01' }))).toBe(DATES_REQUIRED);
    expect(messageOf(() => parseTimeframeQuery({ start: '2024-01-01', end: '2024-02-30' }))).toBe(INVALID_DATE);
    expect(messageOf(() => parseTimeframeQuery({ start: '2024-06-01', end: '2024-05-31' }))).toBe('Start date 2024-06-01 is after end date 2024-05-31');
  });

  it('reads the symbols filter in any case, without blanks or repeats', () => {
    expect(parseSymbolsFilter(' nvda, SNOW ,,nvda ')).toEqual(['NVDA', 'SNOW']);
    expect(parseSymbolsFilter(['brk.b', 'PEP'])).toEqual(['BRK.B', 'PEP']);
    expect(parseSymbolsFilter('')).toBeNull();
    expect(parseSymbolsFilter(undefined)).toBeNull();
    expect(messageOf(() => parseSymbolsFilter('NVDA,<script>'))).toBe("Invalid symbol in 'symbols': '<SCRIPT>'");
  });
});
