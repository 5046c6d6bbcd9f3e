import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './DataTable';
import type { JournalTrade } from './Journal';
import { SelectionTags, useTradeSelection, withSelectBox } from './SelectionTags';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TRADES: JournalTrade[] = [
  { id: 'a'.repeat(20), symbol: 'AAPL', close_date: '2024-05-02', tags: ['Swing'], has_note: false },
  { id: 'b'.repeat(20), symbol: 'MSFT', close_date: '2024-05-03', tags: ['swing', 'earnings'], has_note: false },
  { id: 'c'.repeat(20), symbol: 'NVDA', close_date: '2024-05-06', tags: [], has_note: false },
];

/** The trade list as the Trades page lays it out: the form, then the rows with their checkboxes. */
function List({ page, onChanged = () => undefined }: { page: string; onChanged?: () => void }) {
  const selection = useTradeSelection(page);
  return (
    <>
      <SelectionTags trades={TRADES} selection={selection} suggestions={['Swing', 'earnings']} onChanged={onChanged} />
      <DataTable caption="Trades" columns={[withSelectBox<JournalTrade>({ key: 'symbol', header: 'Symbol', cell: (trade) => trade.symbol }, selection, (trade) => trade)]} rows={TRADES} rowKey={(trade) => trade.id} />
    </>
  );
}

const box = (name: string) => screen.getByRole<HTMLInputElement>('checkbox', { name });
const ALL = 'Select all on this page';

describe('the selection of trades and its tags', () => {
  it('selects all, shows a mixed state for some, and starts again with none on another page', () => {
    const { rerender } = render(<List page="cursor=1" />);
    fireEvent.click(box('Select MSFT closed 2024-05-03'));
    expect(box(ALL).indeterminate).toBe(true);
    expect(screen.getByRole('button', { name: 'Apply to 1 selected trade' })).toBeTruthy();
    fireEvent.click(box(ALL));
    expect(TRADES.map((trade) => box(`Select ${trade.symbol} closed ${trade.close_date}`).checked)).toEqual([true, true, true]);
    expect([box(ALL).checked, box(ALL).indeterminate]).toEqual([true, false]);
    rerender(<List page="cursor=2" />);
    expect(TRADES.map((trade) => box(`Select ${trade.symbol} closed ${trade.close_date}`).checked)).toEqual([false, false, false]);
    expect(screen.getByRole('button', { name: 'Apply to the selected trades' })).toBeTruthy();
  });

  it('says what is missing instead of sending a change that cannot be made', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    render(<List page="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Apply to the selected trades' }));
    expect(screen.getByRole('status').textContent).toBe('Select the trades to change first.');
    fireEvent.click(box('Select AAPL closed 2024-05-02'));
    fireEvent.click(screen.getByRole('button', { name: 'Apply to 1 selected trade' }));
    expect(screen.getByRole('status').textContent).toBe('Write a tag to add or one to remove.');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the selected ids with the tag to add and the one to remove, then clears the selection', async () => {
    const fetch = vi.fn(async () => Response.json({ success: true, trades: 2, added: [], removed: [], message: "2 trades: 'Swing' removed from 2 trades" }));
    vi.stubGlobal('fetch', fetch);
    const onChanged = vi.fn();
    render(<List page="" onChanged={onChanged} />);
    fireEvent.click(box('Select AAPL closed 2024-05-02'));
    fireEvent.click(box('Select NVDA closed 2024-05-06'));
    // The tags to remove suggested are those the selected trades carry, once per tag.
    const remove = screen.getByLabelText<HTMLInputElement>('Tag to remove');
    expect([...(remove.list?.options ?? [])].map((option) => option.value)).toEqual(['Swing']);
    fireEvent.change(screen.getByLabelText('Tag to add'), { target: { value: ' A+ setup ' } });
    fireEvent.change(remove, { target: { value: 'swing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply to 2 selected trades' }));
    await screen.findByText("2 trades: 'Swing' removed from 2 trades");
    expect(fetch).toHaveBeenCalledWith('/api/trades/tags', expect.objectContaining({ method: 'POST' }));
    const [, request] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(request.body))).toEqual({ trade_ids: ['a'.repeat(20), 'c'.repeat(20)], add: ['A+ setup'], remove: ['swing'] });
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(box(ALL).checked || box('Select AAPL closed 2024-05-02').checked).toBe(false);
  });
});
