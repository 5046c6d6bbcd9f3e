import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../api/types';
import { ProfileContext } from '../profile';
import { AccountForm } from './ImportPage';

const PROFILE: Profile = { email: 'trader@example.com', name: 'Trader', brokerage_account: null, account_id: null, created_at: '2026-01-02T03:04:05.000Z', last_login: null };

function withProfile(profile: Profile | null) {
  return (
    <ProfileContext.Provider value={{ profile, error: null, saveAccount: () => Promise.reject(new Error('not in this test')) }}>
      <AccountForm />
    </ProfileContext.Provider>
  );
}

afterEach(cleanup);

describe('AccountForm', () => {
  it('keeps what the trader typed when the profile arrives after they started typing', () => {
    const { rerender } = render(withProfile(null));
    fireEvent.change(screen.getByLabelText('Account number'), { target: { value: 'XXXX-1234' } });
    act(() => rerender(withProfile(PROFILE)));
    expect(screen.getByLabelText<HTMLInputElement>('Account number').value).toBe('XXXX-1234');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows the saved account when the trader has not typed', () => {
    const { rerender } = render(withProfile(null));
    act(() => rerender(withProfile({ ...PROFILE, brokerage_account: 'XXXX-9876' })));
    expect(screen.getByLabelText<HTMLInputElement>('Account number').value).toBe('XXXX-9876');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });
});
