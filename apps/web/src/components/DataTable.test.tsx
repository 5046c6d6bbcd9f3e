import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, sortRows, type Column } from './DataTable';

interface Row {
  symbol: string;
  pnl: number | null;
}

const COLUMNS: Column<Row>[] = [
  { key: 'symbol', header: 'Symbol', cell: (row) => row.symbol, sortValue: (row) => row.symbol },
  { key: 'pnl', header: 'P&L', cell: (row) => String(row.pnl ?? '—'), sortValue: (row) => row.pnl, numeric: true },
  { key: 'note', header: 'Note', cell: () => '' },
];
const ROWS: Row[] = [
  { symbol: 'NVDA', pnl: -531.26 },
  { symbol: 'AAPL', pnl: null },
  { symbol: 'NVO', pnl: 1059.63 },
  { symbol: 'PEP', pnl: 5 },
];

afterEach(cleanup);

describe('sortRows', () => {
  it('sorts numbers numerically, text by letters, missing values last either way', () => {
    expect(sortRows(ROWS, COLUMNS[1], 'ascending').map((row) => row.symbol)).toEqual(['NVDA', 'PEP', 'NVO', 'AAPL']);
    expect(sortRows(ROWS, COLUMNS[1], 'descending').map((row) => row.symbol)).toEqual(['NVO', 'PEP', 'NVDA', 'AAPL']);
    expect(sortRows(ROWS, COLUMNS[0], 'ascending').map((row) => row.symbol)).toEqual(['AAPL', 'NVDA', 'NVO', 'PEP']);
  });

  it('leaves the order alone for a column without a sort value', () => {
    expect(sortRows(ROWS, COLUMNS[2], 'ascending')).toEqual(ROWS);
  });
});

describe('DataTable', () => {
  const symbols = () => screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0].textContent);

  it('sorts when a header button is pressed, and says how in aria-sort', () => {
    render(<DataTable caption="Results" columns={COLUMNS} rows={ROWS} rowKey={(row) => row.symbol} />);
    expect(symbols()).toEqual(['NVDA', 'AAPL', 'NVO', 'PEP']);
    const pnl = screen.getByRole('button', { name: /P&L/ });
    fireEvent.click(pnl);
    expect(symbols()).toEqual(['NVO', 'PEP', 'NVDA', 'AAPL']);
    expect(screen.getByRole('columnheader', { name: /P&L/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(pnl);
    expect(symbols()).toEqual(['NVDA', 'PEP', 'NVO', 'AAPL']);
    expect(screen.getByRole('columnheader', { name: /P&L/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(screen.getByRole('columnheader', { name: /Symbol/ }).getAttribute('aria-sort')).toBe('none');
    // A column without a sort value has no button.
    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).toBeNull();
  });

  it('is a labelled region a keyboard can scroll, with a caption', () => {
    render(<DataTable caption="Results" columns={COLUMNS} rows={ROWS} rowKey={(row) => row.symbol} />);
    const region = screen.getByRole('region', { name: 'Results' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(screen.getByRole('table', { name: 'Results' })).toBeTruthy();
  });

  it('shows the empty message instead of an empty table', () => {
    render(<DataTable caption="Results" columns={COLUMNS} rows={[]} rowKey={(row) => row.symbol} empty={<p>No trades.</p>} />);
    expect(screen.getByText('No trades.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("labels each cell with its column's header, for a phone's card, headed by the title column", () => {
    render(<DataTable caption="Results" columns={COLUMNS} rows={ROWS.slice(0, 1)} rowKey={(row) => row.symbol} cardTitle="pnl" />);
    const cells = within(screen.getAllByRole('row')[1]).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Symbol', 'P&L', 'Note']);
    expect(cells.map((cell) => cell.classList.contains('card-title'))).toEqual([false, true, false]);
    cleanup();
    render(<DataTable caption="Results" columns={COLUMNS} rows={ROWS.slice(0, 1)} rowKey={(row) => row.symbol} />);
    expect(within(screen.getAllByRole('row')[1]).getAllByRole('cell')[0].classList.contains('card-title')).toBe(true);
  });
});
