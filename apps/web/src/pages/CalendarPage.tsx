import { useMemo } from 'react';
import type { CalendarDay, CalendarResponse, DayDetailsResponse, MonthsResponse } from '../api/types';
import { EmptyState, ErrorMessage, Loading, PageHeader, Pnl, Section, Stat, Stats } from '../components/common';
import { ExportButtons } from '../components/ExportButtons';
import { DayNote } from '../components/Journal';
import { DividendsTable, TradesTable } from '../components/TradeTables';
import { calendarWeeks, heatStep, largestDailyMove, WEEKDAY_NAMES, WEEKDAYS } from '../lib/calendar-grid';
import { addMonths, isDay, isMonth, localToday, monthOf } from '../lib/dates';
import { formatCompactMoney, formatCount, formatLongDate, formatMonth, formatPercent, formatSignedMoney, tone } from '../lib/format';
import { Link, updateSearch, useLocation } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';

function dayLabel(day: CalendarDay): string {
  const parts = [formatLongDate(day.date)];
  if (day.has_activity) {
    parts.push(`total ${formatSignedMoney(day.total_pnl)}`);
    if (day.trade_count > 0) parts.push(`${day.trade_count} trade${day.trade_count === 1 ? '' : 's'}`);
    if (day.dividend_count > 0) parts.push(`${day.dividend_count} dividend${day.dividend_count === 1 ? '' : 's'}`);
  } else parts.push('no activity');
  return parts.join(', ');
}

function MonthGrid({ days, selected }: { days: CalendarDay[]; selected: string | null }) {
  const weeks = useMemo(() => calendarWeeks(days), [days]);
  const largest = useMemo(() => largestDailyMove(days), [days]);
  return (
    <div className="calendar" role="table" aria-label="Days of the month, Monday to Sunday, with each week's total">
      <div className="calendar-row calendar-head" role="row">
        {WEEKDAYS.map((name, index) => (
          <div key={name} role="columnheader" className="calendar-weekday">
            <abbr title={WEEKDAY_NAMES[index]}>{name}</abbr>
          </div>
        ))}
        <div role="columnheader" className="calendar-weekday calendar-week-head">
          Week
        </div>
      </div>
      {weeks.map((week, weekIndex) => (
        <div key={weekIndex} className="calendar-row" role="row">
          {week.cells.map((day, column) =>
            day === null ? (
              <div key={column} role="cell" className="calendar-cell calendar-outside" />
            ) : (
              <div key={column} role="cell" className="calendar-gridcell">
                <button
                  type="button"
                  className={`calendar-cell heat-${tone(day.total_pnl)}-${heatStep(day.total_pnl, largest)}${day.has_activity ? ' active' : ''}`}
                  aria-pressed={selected === day.date}
                  onClick={() => updateSearch({ date: selected === day.date ? null : day.date }, { replace: true })}
                >
                  {/* The name a screen reader reads; the short visible figures below are hidden from it. */}
                  <span className="visually-hidden">{dayLabel(day)}</span>
                  <span className="calendar-day" aria-hidden="true">
                    {day.day}
                  </span>
                  {day.has_activity && (
                    <>
                      <span className="calendar-pnl calendar-full" aria-hidden="true">
                        {formatSignedMoney(day.total_pnl)}
                      </span>
                      <span className="calendar-pnl calendar-compact" aria-hidden="true">
                        {formatCompactMoney(day.total_pnl)}
                      </span>
                      <span className="calendar-count" aria-hidden="true">
                        {day.trade_count > 0 ? `${day.trade_count} trade${day.trade_count === 1 ? '' : 's'}` : ''}
                        {day.dividend_count > 0 ? `${day.trade_count > 0 ? ' · ' : ''}div` : ''}
                      </span>
                    </>
                  )}
                </button>
              </div>
            ),
          )}
          <div role="cell" className={`calendar-week pnl-${tone(week.totals.totalPnl)}`}>
            <span className="visually-hidden">Week total: </span>
            <span className="calendar-full">{formatSignedMoney(week.totals.totalPnl)}</span>
            <span className="calendar-compact">{formatCompactMoney(week.totals.totalPnl)}</span>
            <span className="calendar-count">
              {week.totals.tradeCount > 0 ? `${week.totals.tradeCount} trade${week.totals.tradeCount === 1 ? '' : 's'} · ${formatPercent(week.totals.winRate)} won` : 'no trades'}
            </span>
          </div>
        </div>
      ))}
    </div>
  );
}

function DayDetails({ date }: { date: string }) {
  const details = useApi<DayDetailsResponse>(`/api/day-details?date=${date}`);
  return (
    <Section title={formatLongDate(date)} id="day-details">
      {details.status === 'loading' && <Loading />}
      {details.status === 'error' && <ErrorMessage error={details.error} retry={details.reload} />}
      {details.status === 'ready' && (
        <>
          <Stats label="Day summary">
            <Stat label="Total" value={<Pnl value={details.data.summary.total_pnl} className="big" />} />
            <Stat label="Trading P&L" value={<Pnl value={details.data.summary.total_trading_pnl} />} />
            <Stat label="Dividends" value={<Pnl value={details.data.summary.total_dividends} />} />
            <Stat label="Trades" value={formatCount(details.data.summary.trade_count)} hint={details.data.summary.trade_count > 0 ? `${formatPercent(details.data.summary.win_rate)} won` : undefined} />
          </Stats>
          {details.data.trades.length > 0 && <ExportButtons kind="day" value={date} label={`trades of ${formatLongDate(date)}`} />}
          <h3>Trades</h3>
          <TradesTable trades={details.data.trades} caption={`Trades closed on ${formatLongDate(date)}`} onJournalChanged={details.reload} />
          <h3>Dividends</h3>
          <DividendsTable dividends={details.data.dividends} caption={`Dividends on ${formatLongDate(date)}`} />
        </>
      )}
      <DayNote date={date} />
    </Section>
  );
}

export function CalendarPage() {
  const { search } = useLocation();
  const today = localToday();
  const months = useApi<MonthsResponse>('/api/months');
  const latest = months.data?.months[0]?.month;
  const named = isMonth(search.get('month')) ? search.get('month')! : null;
  // Without a month in the address: the latest month with activity, or this month when there is none
  // (null until the months have answered).
  const month = named ?? (months.status === 'ready' ? (latest ?? monthOf(today)) : months.status === 'error' ? monthOf(today) : null);
  const date = month !== null && isDay(search.get('date')) && monthOf(search.get('date')!) === month ? search.get('date')! : null;
  useTitle(month === null ? 'Calendar' : `Calendar · ${formatMonth(month)}`);

  const [year, monthNumber] = month === null ? [0, 0] : month.split('-').map(Number);
  const calendar = useApi<CalendarResponse>(month === null ? null : `/api/calendar-data?year=${year}&month=${monthNumber}`);
  const current = calendar.status === 'ready' && calendar.data.year === year && calendar.data.month === monthNumber ? calendar.data : undefined;
  const monthTotal = current?.days.reduce((sum, day) => sum + day.total_pnl, 0);
  const quiet = current !== undefined && !current.days.some((day) => day.has_activity);
  // An account with nothing imported gets the empty state alone, not a grid of empty weeks above it.
  const nothingYet = months.status === 'ready' && latest === undefined;

  if (month === null) {
    return (
      <>
        <PageHeader title="Calendar" />
        {months.status === 'loading' && <Loading />}
      </>
    );
  }

  const go = (to: string) => updateSearch({ month: to, date: null });

  return (
    <>
      <PageHeader title={`Calendar: ${formatMonth(month)}`} subtitle={monthTotal !== undefined && !quiet ? <>Month total <Pnl value={monthTotal} /></> : undefined}>
        <div className="button-row" role="group" aria-label="Change month">
          <button type="button" className="button-secondary" onClick={() => go(addMonths(month, -1))}>
            <span aria-hidden="true">← </span>
            {formatMonth(addMonths(month, -1))}
          </button>
          <button type="button" className="button-secondary" onClick={() => go(addMonths(month, 1))}>
            {formatMonth(addMonths(month, 1))}
            <span aria-hidden="true"> →</span>
          </button>
          {month !== monthOf(today) && (
            <button type="button" className="button-secondary" onClick={() => go(monthOf(today))}>
              This month
            </button>
          )}
        </div>
      </PageHeader>
      {calendar.status === 'error' && <ErrorMessage error={calendar.error} retry={calendar.reload} />}
      {calendar.status !== 'error' && current === undefined && <Loading />}
      {current && !(quiet && nothingYet) && (
        <Section title="Days" actions={<Link to={`/month/${month}`}>Month report</Link>}>
          <MonthGrid days={current.days} selected={date} />
          <p className="muted small legend">
            <span className="legend-swatch heat-gain-3" aria-hidden="true" /> gain
            <span className="legend-swatch heat-loss-3" aria-hidden="true" /> loss · darker means a larger share of the month's biggest day ·
            totals include dividends · a week's total counts its days in this month · choose a day to see its trades
          </p>
        </Section>
      )}
      {quiet && months.status === 'ready' && (
        latest ? (
          <p className="notice">
            No trades or dividends in {formatMonth(month)}.{' '}
            {latest !== month && (
              <button type="button" className="button-link" onClick={() => go(latest)}>
                Go to {formatMonth(latest)}, your latest month with activity
              </button>
            )}
          </p>
        ) : (
          <EmptyState title="Nothing to show yet">
            <p>The calendar shows each day's profit or loss once you have imported your trades.</p>
          </EmptyState>
        )
      )}
      {date && <DayDetails key={date} date={date} />}
    </>
  );
}
