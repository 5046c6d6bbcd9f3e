import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { ConfirmedAction, type ActionOutcome } from './ConfirmedAction';

afterEach(cleanup);

/** A promise the test settles when it chooses, to see the button while the action runs. */
function pending() {
  let resolve!: (text: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

function renderAction(action: () => Promise<string>) {
  const outcomes: ActionOutcome[] = [];
  const act = vi.fn(action);
  render(
    <ConfirmedAction
      offer="Delete"
      offerLabel="Delete AAPL"
      confirm="Yes, delete"
      confirmDetail=" AAPL"
      working="Deleting…"
      keep="Keep AAPL"
      act={act}
      onDone={(outcome) => outcomes.push(outcome)}
    />,
  );
  return { act, outcomes };
}

const button = (name: string) => screen.getByRole('button', { name });

describe('ConfirmedAction', () => {
  it('asks first, and acts only when the question is answered yes', async () => {
    const { act: action, outcomes } = renderAction(async () => 'Holding AAPL deleted');
    fireEvent.click(button('Delete AAPL'));
    expect(action).not.toHaveBeenCalled();
    fireEvent.click(button('Keep AAPL'));
    expect(screen.queryByRole('button', { name: 'Yes, delete AAPL' })).toBeNull();
    fireEvent.click(button('Delete AAPL'));
    await act(async () => fireEvent.click(button('Yes, delete AAPL')));
    expect(action).toHaveBeenCalledTimes(1);
    expect(outcomes).toEqual([{ error: false, text: 'Holding AAPL deleted' }]);
  });

  it('keeps the keyboard where it was: on the answer once asked, back on the offer after Keep', () => {
    renderAction(async () => 'Holding AAPL deleted');
    fireEvent.click(button('Delete AAPL'));
    expect(document.activeElement).toBe(button('Yes, delete AAPL'));
    fireEvent.click(button('Keep AAPL'));
    expect(document.activeElement).toBe(button('Delete AAPL'));
  });

  it('takes no focus when it first appears', () => {
    renderAction(async () => 'Holding AAPL deleted');
    expect(document.activeElement).toBe(document.body);
  });

  it('says it is working and takes no second answer meanwhile', async () => {
    const answer = pending();
    const { act: action, outcomes } = renderAction(() => answer.promise);
    fireEvent.click(button('Delete AAPL'));
    fireEvent.click(button('Yes, delete AAPL'));
    const working = button('Deleting… AAPL');
    expect(working).toHaveProperty('disabled', true);
    expect(button('Keep AAPL')).toHaveProperty('disabled', true);
    fireEvent.click(working);
    expect(action).toHaveBeenCalledTimes(1);
    await act(async () => answer.resolve('Holding AAPL deleted'));
    expect(outcomes).toEqual([{ error: false, text: 'Holding AAPL deleted' }]);
  });

  it("reports a failure as an error, in the answer's words, and offers the action again", async () => {
    const answer = pending();
    const { outcomes } = renderAction(() => answer.promise);
    fireEvent.click(button('Delete AAPL'));
    fireEvent.click(button('Yes, delete AAPL'));
    await act(async () => answer.reject(new ApiError('Holding 7 not found', 404, { success: false, message: 'Holding 7 not found' })));
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].error).toBe(true);
    expect(outcomes[0].text).toBe('Holding 7 not found');
    expect(button('Delete AAPL')).toHaveProperty('disabled', false);
  });
});
