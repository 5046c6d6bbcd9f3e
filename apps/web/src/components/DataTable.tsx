import { useMemo, useState, type ReactNode } from 'react';

// A table with sortable columns (buttons in the headers, aria-sort on the sorted one), inside a
// region that a keyboard can reach. On a phone each row becomes a card: the title column on top, the
// other cells as label and value (`data-label`), the header's sort buttons as a row above the cards.

export interface Column<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The value to sort by; columns without one are not sortable. */
  sortValue?: (row: Row) => string | number | null | undefined;
  numeric?: boolean;
  /** Hidden on narrow screens (the row stays readable without it). */
  minor?: boolean;
  /** On a phone's card, the whole width (chips, forms). */
  wide?: boolean;
}

export type SortDirection = 'ascending' | 'descending';

export interface SortState {
  key: string;
  direction: SortDirection;
}

/** Sorts rows by a column: nulls last, numbers numerically, text by locale; stable. */
export function sortRows<Row>(rows: readonly Row[], column: Column<Row> | undefined, direction: SortDirection): Row[] {
  if (!column?.sortValue) return [...rows];
  const value = column.sortValue;
  const factor = direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      const missingA = a.key === null || a.key === undefined;
      const missingB = b.key === null || b.key === undefined;
      if (missingA || missingB) return missingA === missingB ? a.index - b.index : missingA ? 1 : -1;
      const order =
        typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : String(a.key).localeCompare(String(b.key), 'en', { numeric: true });
      return order === 0 ? a.index - b.index : order * factor;
    })
    .map((entry) => entry.row);
}

interface DataTableProps<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  initialSort?: SortState;
  footer?: ReactNode;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  captionHidden?: boolean;
  /** The column that heads each row's card on a phone; the first one unless named. */
  cardTitle?: string;
}

/** A cell's classes: alignment, and how it shows on a phone. */
function cellClass<Row>(column: Column<Row>, title: boolean): string | undefined {
  const names = [column.numeric && 'num', column.minor && 'minor', column.wide && 'wide', title && 'card-title'];
  return names.filter(Boolean).join(' ') || undefined;
}

export function DataTable<Row>({ caption, columns, rows, rowKey, initialSort, footer, empty, captionHidden = true, cardTitle }: DataTableProps<Row>) {
  const [sort, setSort] = useState<SortState | undefined>(initialSort);
  const sorted = useMemo(
    () => (sort ? sortRows(rows, columns.find((column) => column.key === sort.key), sort.direction) : [...rows]),
    [rows, columns, sort],
  );
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;

  const toggle = (column: Column<Row>) => {
    setSort((current) =>
      current?.key === column.key
        ? { key: column.key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { key: column.key, direction: column.numeric ? 'descending' : 'ascending' },
    );
  };

  const titleKey = cardTitle ?? columns[0]?.key;
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="cards">
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const sorted = sort?.key === column.key ? sort.direction : undefined;
              return (
                <th key={column.key} scope="col" className={cellClass(column, false)} aria-sort={sorted ?? (column.sortValue ? 'none' : undefined)}>
                  {column.sortValue ? (
                    <button type="button" className="sort" onClick={() => toggle(column)}>
                      {column.header}
                      <span className="sort-mark" aria-hidden="true">
                        {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row, index) => (
            <tr key={rowKey(row, index)}>
              {columns.map((column) => (
                <td key={column.key} className={cellClass(column, column.key === titleKey)} data-label={column.header}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {footer && <tfoot>{footer}</tfoot>}
      </table>
    </div>
  );
}
