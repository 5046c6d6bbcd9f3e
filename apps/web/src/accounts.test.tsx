import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountPicker, AccountScopeProvider, useAccountScope } from './accounts';
import type { Account } from './api/schema';
import type { Profile } from './api/types';
import { ACCOUNT_STORAGE_KEY } from './lib/account-scope';
import { ProfileContext } from './profile';

const PROFILE: Profile = { email: 'trader@example.com', name: 'Trader', brokerage_account: 'XXXX-1234', account_id: 1, created_at: '2026-01-02T03:04:05.000Z', last_login: null };
const DEFAULT: Account = { account_id: 1, account_number: 'XXXX-1234', default: true };
const ROBINHOOD: Account = { account_id: 2, account_number: 'RH-1', default: false };

/** What a page would fetch for its months, as the provider narrows it. */
function MonthsPath() {
  return <output aria-label="path">{useAccountScope().scoped('/api/months')}</output>;
}

/** The app's providers around the picker and a page, `/api/accounts` answering `accounts`. */
async function renderWith(accounts: Account[]) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ success: true, accounts }), { status: 200, headers: { 'content-type': 'application/json' } }));
  await act(async () => {
    render(
      <ProfileContext.Provider value={{ profile: PROFILE, error: null, saveAccount: () => Promise.reject(new Error('not in this test')) }}>
        <AccountScopeProvider>
          <AccountPicker />
          <MonthsPath />
        </AccountScopeProvider>
      </ProfileContext.Provider>,
    );
  });
}

const shownPath = () => screen.getByLabelText('path').textContent;

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the choice of account', () => {
  it('is not offered, nor applied, to a user with one account', async () => {
    window.localStorage.setItem(ACCOUNT_STORAGE_KEY, 'XXXX-1234');
    await renderWith([DEFAULT]);
    expect(screen.queryByLabelText('Account')).toBeNull();
    expect(shownPath()).toBe('/api/months');
  });

  it('narrows the reports to the account chosen, and remembers it', async () => {
    await renderWith([DEFAULT, ROBINHOOD]);
    expect(shownPath()).toBe('/api/months');
    const options = Array.from(screen.getByLabelText<HTMLSelectElement>('Account').options).map((option) => option.text);
    expect(options).toEqual(['All accounts', 'XXXX-1234 (default)', 'RH-1']);
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'RH-1' } });
    expect(shownPath()).toBe('/api/months?account=RH-1');
    expect(window.localStorage.getItem(ACCOUNT_STORAGE_KEY)).toBe('RH-1');
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: '' } });
    expect(shownPath()).toBe('/api/months');
    expect(window.localStorage.getItem(ACCOUNT_STORAGE_KEY)).toBeNull();
  });

  it('starts a visit with the remembered account, and drops one the user no longer has', async () => {
    window.localStorage.setItem(ACCOUNT_STORAGE_KEY, 'RH-1');
    await renderWith([DEFAULT, ROBINHOOD]);
    expect(screen.getByLabelText<HTMLSelectElement>('Account').value).toBe('RH-1');
    expect(shownPath()).toBe('/api/months?account=RH-1');
    cleanup();
    window.localStorage.setItem(ACCOUNT_STORAGE_KEY, 'GONE-9');
    await renderWith([DEFAULT, ROBINHOOD]);
    expect(screen.getByLabelText<HTMLSelectElement>('Account').value).toBe('');
    expect(shownPath()).toBe('/api/months');
  });
});
