import { useEffect, useMemo } from 'react';
import type { AllocationResponse, ValueHistoryResponse } from '../../api/types';
import { Chart } from '../../components/Chart';
import { ACCENT, GAIN, MUTED } from '../../components/chart-types';
import { ErrorMessage, Loading, Section } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { formatCompactMoney, formatMoney, formatPercent } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { TYPE_LABELS } from './HoldingForm';

/** The largest symbols by weight drawn one bar each; the rest as one bar. */
const CHART_SYMBOLS = 12;

/** Market value by symbol (a chart) and by security type (a table), manual holdings and imports together. */
export function Allocation({ version }: { version: number }) {
  const allocation = useApi<AllocationResponse>('/api/portfolio/allocation');
  const { reload } = allocation;
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const data = allocation.data;
  const bars = useMemo(() => {
    const symbols = data?.by_symbol ?? [];
    const shown = symbols.slice(0, CHART_SYMBOLS);
    const rest = symbols.slice(CHART_SYMBOLS).reduce((sum, s) => sum + s.weight, 0);
    return [...shown.map((s) => ({ label: s.symbol, weight: s.weight })), ...(rest > 0 ? [{ label: 'Others', weight: Math.round(rest * 100) / 100 }] : [])];
  }, [data]);

  if (allocation.status === 'loading') return <Loading />;
  if (allocation.status === 'error') return <ErrorMessage error={allocation.error} retry={allocation.reload} />;
  if (!data || data.by_symbol.length === 0) return null;
  return (
    <Section title="Allocation">
      <Chart
        kind="bar"
        labels={bars.map((b) => b.label)}
        series={[{ label: 'Weight', values: bars.map((b) => b.weight), color: ACCENT }]}
        description={`Weight of each symbol in the priced portfolio, largest first: ${bars.map((b) => `${b.label} ${formatPercent(b.weight)}`).join(', ')}`}
        format={(value) => formatPercent(value)}
        height={220}
      />
      <DataTable
        caption="Value by security type"
        columns={[
          { key: 'type', header: 'Type', cell: (t) => TYPE_LABELS[t.type] ?? t.type, sortValue: (t) => t.type },
          { key: 'value', header: 'Value', cell: (t) => formatMoney(t.value), sortValue: (t) => t.value, numeric: true },
          { key: 'weight', header: 'Weight', cell: (t) => formatPercent(t.weight), sortValue: (t) => t.weight, numeric: true },
        ]}
        rows={data.by_type}
        rowKey={(t) => t.type}
        initialSort={{ key: 'value', direction: 'descending' }}
      />
      {data.unpriced_count > 0 && <p className="muted small">{data.unpriced_count} without a price, left out.</p>}
    </Section>
  );
}

/** The portfolio's value per day from the end-of-day snapshots, with the realized P&L and dividends that accrued. */
export function ValueHistory() {
  const history = useApi<ValueHistoryResponse>('/api/portfolio/value-history');
  const days = history.data?.days ?? [];
  const valued = days.filter((d) => d.value !== null);

  return (
    <Section title="Value over time">
      {history.status === 'loading' && <Loading />}
      {history.status === 'error' && <ErrorMessage error={history.error} retry={history.reload} />}
      {history.data &&
        (valued.length < 2 ? (
          <p className="muted">
            The chart appears once two trading days have closed with an end-of-day snapshot (taken by itself after each close).
          </p>
        ) : (
          <Chart
            kind="line"
            timeAxis
            labels={valued.map((d) => d.date)}
            series={[
              { label: 'Value', values: valued.map((d) => d.value), color: ACCENT, stepped: true },
              { label: 'Cost basis', values: valued.map((d) => d.cost_basis), color: MUTED, stepped: true },
              { label: 'Realized P&L + dividends, running', values: valued.map((d) => d.cumulative_realized_profit_loss + d.cumulative_dividends), color: GAIN, stepped: true },
            ]}
            description={`Portfolio value at the end of ${valued.length} trading days, from ${formatMoney(valued[0].value)} to ${formatMoney(valued.at(-1)?.value)}`}
            format={(value) => formatMoney(value)}
            axisFormat={(value) => formatCompactMoney(value)}
          />
        ))}
    </Section>
  );
}
