import { useState, type FormEvent } from 'react';
import { failure, sendJson } from '../api/client';
import type { TagFigures, TagsResponse } from '../api/types';
import { EmptyState, ErrorMessage, Loading, PageHeader, Pnl, Section } from '../components/common';
import { ConfirmedAction } from '../components/ConfirmedAction';
import { DataTable, type Column } from '../components/DataTable';
import { formatCount, formatPercent } from '../lib/format';
import { Link } from '../lib/router';
import { useApi, useTitle } from '../lib/use-api';

const ratio = (value: number | null) => (value === null ? '—' : value.toFixed(2));

/** Rename (or merge into another tag) and delete, for one tag. */
function TagActions({ tag, changed }: { tag: TagFigures; changed: (text: string) => void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(tag.name);
  const [error, setError] = useState<string | null>(null);
  const path = `/api/tags/${encodeURIComponent(tag.name)}`;
  const act = async (work: () => Promise<{ message: string }>) => {
    setError(null);
    try {
      changed((await work()).message);
    } catch (problem) {
      setError(failure(problem));
    }
  };
  const rename = (event: FormEvent) => {
    event.preventDefault();
    void act(() => sendJson('PATCH', path, { name }));
  };
  return (
    <div className="tag-actions">
      {renaming ? (
        <form className="inline-form" onSubmit={rename}>
          <input type="text" value={name} maxLength={40} aria-label={`New name for ${tag.name}`} onChange={(event) => setName(event.target.value)} />
          <button type="submit">Rename</button>
          <button type="button" className="button-secondary" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <button type="button" className="button-link small" aria-label={`Rename ${tag.name}`} onClick={() => setRenaming(true)}>
            Rename
          </button>
          <ConfirmedAction
            offer="Delete"
            offerLabel={`Delete ${tag.name}`}
            confirm="Yes, delete"
            confirmDetail={` the tag ${tag.name} from ${formatCount(tag.total_trades)} ${tag.total_trades === 1 ? 'trade' : 'trades'}`}
            working="Deleting…"
            keep={`Keep ${tag.name}`}
            act={async () => (await sendJson<{ message: string }>('DELETE', path)).message}
            onDone={(outcome) => {
              setError(outcome.error ? outcome.text : null);
              if (!outcome.error) changed(outcome.text);
            }}
            small
          />
        </>
      )}
      {error && (
        <p className="form-error small" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Each tag's figures side by side (sortable), each linking to its trades; rename and delete. */
export function TagsPage() {
  useTitle('Tags');
  const tags = useApi<TagsResponse>('/api/tags');
  const [status, setStatus] = useState('');
  const changed = (text: string) => {
    setStatus(text);
    tags.reload();
  };
  const columns: Column<TagFigures>[] = [
    { key: 'name', header: 'Tag', cell: (tag) => <Link to={`/trades?tag=${encodeURIComponent(tag.name)}`}>{tag.name}</Link>, sortValue: (tag) => tag.name.toLowerCase() },
    { key: 'trades', header: 'Trades', cell: (tag) => formatCount(tag.total_trades), sortValue: (tag) => tag.total_trades, numeric: true },
    { key: 'win_rate', header: 'Win rate', cell: (tag) => (tag.win_rate === null ? '—' : formatPercent(tag.win_rate)), sortValue: (tag) => tag.win_rate, numeric: true },
    { key: 'net', header: 'Net P&L', cell: (tag) => <Pnl value={tag.net_profit_loss} />, sortValue: (tag) => tag.net_profit_loss, numeric: true },
    { key: 'profit_factor', header: 'Profit factor', cell: (tag) => ratio(tag.profit_factor), sortValue: (tag) => tag.profit_factor, numeric: true },
    { key: 'expectancy', header: 'Expectancy', cell: (tag) => <Pnl value={tag.expectancy} />, sortValue: (tag) => tag.expectancy, numeric: true },
    { key: 'actions', header: 'Change', cell: (tag) => <TagActions key={tag.name} tag={tag} changed={changed} /> },
  ];
  return (
    <>
      <PageHeader title="Tags" subtitle="Which setups pay: each tag's trades, as the statistics count them" />
      <p className="muted small" role="status" aria-live="polite">
        {status}
      </p>
      {tags.status === 'loading' && <Loading />}
      {tags.status === 'error' && <ErrorMessage error={tags.error} retry={tags.reload} />}
      {tags.data &&
        (tags.data.tags.length === 0 ? (
          <EmptyState title="No tags yet" importLink={false}>
            <p>
              Tag trades on the <Link to="/trades">Trades</Link> page, a calendar day or a symbol; each tag's figures then show here.
            </p>
          </EmptyState>
        ) : (
          <Section title={`${formatCount(tags.data.tags.length)} tags`}>
            <DataTable caption="Your tags and their trades' figures" columns={columns} rows={tags.data.tags} rowKey={(tag) => tag.name} initialSort={{ key: 'net', direction: 'descending' }} />
          </Section>
        ))}
    </>
  );
}
