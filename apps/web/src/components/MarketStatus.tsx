import type { MarketMetrics } from '../api/types';
import { formatLongDate } from '../lib/format';
import { useApi } from '../lib/use-api';

const LABELS: Record<MarketMetrics['market_status'], string> = {
  open: 'Market open',
  'pre-market': 'Pre-market',
  'after-hours': 'After hours',
  closed: 'Market closed',
};

/** 16:00:00 → 4:00 PM */
export function clockTime(time: string): string {
  const [hours, minutes] = time.split(':').map(Number);
  const suffix = hours >= 12 ? 'PM' : 'AM';
  return `${((hours + 11) % 12) + 1}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

/** One line on what the market does next, from the NYSE calendar metrics. */
export function marketDetail(metrics: MarketMetrics): string {
  switch (metrics.market_status) {
    case 'open':
      return `Closes at ${clockTime(metrics.market_close_time)} ET`;
    case 'pre-market':
      return `Opens at ${clockTime(metrics.market_open_time)} ET`;
    case 'after-hours':
    case 'closed':
      return `Next trading day: ${formatLongDate(metrics.next_trading_day)}`;
  }
}

export function MarketStatus() {
  const metrics = useApi<{ metrics: MarketMetrics }>('/api/trading-calendar/metrics');
  if (metrics.status !== 'ready') return null;
  const { metrics: m } = metrics.data;
  return (
    <p className={`market market-${m.market_status}`} role="status">
      <span className="market-dot" aria-hidden="true" />
      <strong>{LABELS[m.market_status]}</strong>
      <span className="market-detail">
        {marketDetail(m)} · {m.trading_days_this_month} trading days this month
      </span>
    </p>
  );
}
