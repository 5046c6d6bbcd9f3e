import { useEffect, useMemo, useState } from 'react';
import { sendJson } from '../../api/client';
import type { Snapshot, SnapshotType } from '../../api/types';
import { Chart } from '../../components/Chart';
import { ConfirmedAction } from '../../components/ConfirmedAction';
import { ACCENT, MUTED } from '../../components/chart-types';
import { ErrorMessage, Loading, Pnl, Section } from '../../components/common';
import { DataTable, type Column } from '../../components/DataTable';
import { distinctDateTimes, formatCompactMoney, formatDateTime, formatMoney, formatSignedPercent, tone } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { FeedbackLine, type Feedback } from './feedback';

/** How each kind of snapshot is named on the page (the API says `MANUAL`, `EOD`, `AUTOMATIC`). */
const SNAPSHOT_TYPE_LABELS: Record<SnapshotType, string> = { MANUAL: 'Taken by hand', EOD: 'End of day', AUTOMATIC: 'Automatic' };

const DAY_CHOICES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '0', label: 'All' },
];

/** The snapshots of a period, as a chart and a table; `version` changes when one is taken. */
export function History({ version }: { version: number }) {
  const [days, setDays] = useState('30');
  const [type, setType] = useState<'' | SnapshotType>('');
  const query = new URLSearchParams({ days, ...(type ? { type } : {}) }).toString();
  const history = useApi<{ history: Snapshot[] }>(`/api/portfolio/history?${query}`);
  const { reload } = history;
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const points = useMemo(() => [...(history.data?.history ?? [])].reverse(), [history.data]);
  const taken = useMemo(() => distinctDateTimes(points.map((s) => s.snapshot_time)), [points]);
  const takenAt = (s: Snapshot) => taken.get(s.snapshot_time) ?? formatDateTime(s.snapshot_time);

  const columns: Column<Snapshot>[] = [
    { key: 'time', header: 'Taken', cell: takenAt, sortValue: (s) => s.snapshot_time },
    { key: 'type', header: 'Type', cell: (s) => SNAPSHOT_TYPE_LABELS[s.snapshot_type], sortValue: (s) => s.snapshot_type, minor: true },
    {
      key: 'value',
      header: 'Value',
      cell: (s) => (
        <>
          {formatMoney(s.total_value)}
          {s.unpriced_count > 0 && <span className="muted small block">{s.unpriced_count} without a price, left out</span>}
        </>
      ),
      sortValue: (s) => s.total_value,
      numeric: true,
    },
    { key: 'gain', header: 'Gain/loss', cell: (s) => <Pnl value={s.total_gain_loss} />, sortValue: (s) => s.total_gain_loss, numeric: true },
    { key: 'return', header: 'Return', cell: (s) => <span className={`pnl pnl-${tone(s.total_return_pct)}`}>{formatSignedPercent(s.total_return_pct)}</span>, sortValue: (s) => s.total_return_pct, numeric: true, minor: true },
    { key: 'notes', header: 'Notes', cell: (s) => s.notes || '', minor: true },
    {
      key: 'actions',
      header: 'Actions',
      cell: (s) => {
        const which = `the snapshot of ${takenAt(s)}`;
        return (
          <ConfirmedAction
            offer="Delete"
            offerLabel={`Delete ${which}`}
            confirm="Yes, delete"
            confirmDetail={` ${which}`}
            working="Deleting…"
            keep={`Keep ${which}`}
            act={async () => (await sendJson<{ message: string }>('DELETE', `/api/portfolio/snapshot/${s.id}`)).message}
            onDone={(outcome) => {
              setFeedback({ tone: outcome.error ? 'error' : 'ok', text: outcome.text });
              history.reload();
            }}
          />
        );
      },
    },
  ];

  return (
    <Section title="Value over time" id="history">
      <div className="toolbar">
        <div className="field">
          <label htmlFor="history-days">Period</label>
          <select id="history-days" value={days} onChange={(e) => setDays(e.target.value)}>
            {DAY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="history-type">Snapshots</label>
          <select id="history-type" value={type} onChange={(e) => setType(e.target.value as '' | SnapshotType)}>
            <option value="">All kinds</option>
            {(Object.keys(SNAPSHOT_TYPE_LABELS) as SnapshotType[]).map((kind) => (
              <option key={kind} value={kind}>
                {SNAPSHOT_TYPE_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {history.status === 'loading' && <Loading />}
      {history.status === 'error' && <ErrorMessage error={history.error} retry={history.reload} />}
      {history.status === 'ready' &&
        (points.length === 0 ? (
          <p className="muted">No snapshots in this period. Take one above; an end-of-day snapshot is also taken after each trading day's close.</p>
        ) : (
          <>
            {points.length === 1 && <p className="muted small">The chart appears from the second snapshot on.</p>}
            {points.length > 1 && <Chart
              kind="line"
              labels={points.map((s) => formatDateTime(s.snapshot_time))}
              series={[
                { label: 'Value', values: points.map((s) => s.total_value), color: ACCENT, fill: true },
                { label: 'Cost', values: points.map((s) => s.total_cost), color: MUTED },
              ]}
              description={`Line chart of the portfolio's value and cost at ${points.length} snapshots; the table below lists them.`}
              format={formatMoney}
              axisFormat={(v) => formatCompactMoney(v).replace('+', '')}
            />}
            <DataTable caption="Snapshots, newest first" columns={columns} rows={history.data.history} rowKey={(s) => String(s.id)} />
          </>
        ))}
      <FeedbackLine feedback={feedback} />
    </Section>
  );
}
