import { Injectable, Module } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Clock } from '../application/clock.port.js';
import { CalendarModule } from '../calendar.module.js';
import { TradingCalendar } from '../domain/trading-calendar.js';
import { InvalidYearError } from '../domain/trading-calendar.errors.js';
import { SystemClock } from '../infrastructure/system-clock.adapter.js';
import { FixedClock } from '../testing/fixed-clock.js';
import { TradingCalendarController } from './trading-calendar.controller.js';

describe('TradingCalendarController', () => {
  const clock = new FixedClock('2025-11-28T17:59:30.123Z'); // Friday 12:59:30.123 EST, early close
  const controller = new TradingCalendarController(clock, new TradingCalendar());

  it('metrics: { success, metrics } at the clock’s instant', () => {
    expect(controller.metrics()).toEqual({
      success: true,
      metrics: {
        current_time: '2025-11-28T12:59:30.123000',
        market_status: 'open',
        market_open_time: '09:30:00',
        market_close_time: '13:00:00',
        is_trading_day: true,
        next_trading_day: '2025-12-01',
        trading_days_this_month: 19,
        trading_days_this_year: 251,
      },
    });
  });

  it('holidays: the asked year, early closes with close_time, holidays without', () => {
    const body = controller.holidays('2024');
    expect(body.success).toBe(true);
    expect(body.year).toBe(2024);
    expect(body.holidays).toHaveLength(13);
    expect(body.holidays[0]).toEqual({ date: '2024-01-01', name: "New Year's Day", type: 'holiday' });
    expect(body.holidays.find((h) => h.date === '2024-07-03')).toEqual({
      date: '2024-07-03',
      name: 'Day before Independence Day',
      type: 'early_close',
      close_time: '13:00:00',
    });
    expect(Object.keys(body.holidays[0])).toEqual(['date', 'name', 'type']);
  });

  it('holidays without a year: the current New York year, even when UTC is already in the next one', () => {
    const newYearsEveClock = new FixedClock('2026-01-01T03:00:00Z'); // 2025-12-31 22:00 EST
    const body = new TradingCalendarController(newYearsEveClock, new TradingCalendar()).holidays(undefined);
    expect(body.year).toBe(2025);
    expect(body.holidays[0].date).toBe('2025-01-01');
  });

  it.each(['abc', '', '25', '2025-01'])('holidays with year=%p: a validation error', (year) => {
    expect(() => controller.holidays(year)).toThrow(InvalidYearError);
  });

  it('holidays with a bad year: the message tells what to send', () => {
    expect(() => controller.holidays('abc')).toThrow("Invalid year: 'abc'. Use a four-digit year such as 2025");
  });
});

describe('CalendarModule over HTTP (Fastify)', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [CalendarModule] })
      .overrideProvider(Clock)
      .useValue(new FixedClock('2026-07-03T14:00:00Z')) // Friday 10:00 EDT, observed Independence Day
      .compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    // A real port rather than app.inject(): Fastify's inject loads an ESM-only module Jest cannot require.
    await app.listen(0, '127.0.0.1');
    baseUrl = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('GET /api/trading-calendar/metrics', async () => {
    const response = await fetch(`${baseUrl}/api/trading-calendar/metrics`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      metrics: {
        current_time: '2026-07-03T10:00:00.000000',
        market_status: 'closed',
        market_open_time: '09:30:00',
        market_close_time: '16:00:00',
        is_trading_day: false,
        next_trading_day: '2026-07-06',
        trading_days_this_month: 22,
        trading_days_this_year: 251,
      },
    });
  });

  it('GET /api/trading-calendar/holidays?year=2025', async () => {
    const response = await fetch(`${baseUrl}/api/trading-calendar/holidays?year=2025`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { year: number; holidays: { date: string }[] };
    expect(body.year).toBe(2025);
    expect(body.holidays.map((h) => h.date)).toEqual([
      '2025-01-01',
      '2025-01-20',
      '2025-02-17',
      '2025-04-18',
      '2025-05-26',
      '2025-06-19',
      '2025-07-03',
      '2025-07-04',
      '2025-09-01',
      '2025-11-27',
      '2025-11-28',
      '2025-12-24',
      '2025-12-25',
    ]);
  });

  it('GET /api/trading-calendar/holidays defaults to the clock’s New York year', async () => {
    const response = await fetch(`${baseUrl}/api/trading-calendar/holidays`);
    expect(await response.json()).toMatchObject({ success: true, year: 2026 });
  });
});

describe('CalendarModule exports', () => {
  @Injectable()
  class EodSnapshotProbe {
    constructor(
      readonly clock: Clock,
      readonly calendar: TradingCalendar,
    ) {}
  }

  @Module({ imports: [CalendarModule], providers: [EodSnapshotProbe] })
  class PortfolioLikeModule {}

  it('lets another context inject Clock (SystemClock) and TradingCalendar', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [PortfolioLikeModule] }).compile();
    const probe = moduleRef.get(EodSnapshotProbe);
    expect(probe.calendar).toBeInstanceOf(TradingCalendar);
    expect(probe.calendar.isTradingDay('2025-07-04')).toBe(false);
    expect(probe.clock).toBeInstanceOf(SystemClock);
    expect(Math.abs(probe.clock.now().getTime() - Date.now())).toBeLessThan(5_000);
    await moduleRef.close();
  });
});
