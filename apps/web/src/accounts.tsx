import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { getJson } from './api/client';
import type { Account } from './api/schema';
import { ACCOUNT_STORAGE_KEY, scopedToAccount } from './lib/account-scope';
import { useProfile } from './profile';

interface AccountScopeState {
  /** The user's brokerage accounts (`GET /api/accounts`), the default first; empty until loaded. */
  accounts: readonly Account[];
  /** The account the reports show, or null for all of them. */
  account: string | null;
  choose(account: string | null): void;
  /** Loads the accounts again (an import may have added one). */
  refresh(): void;
  /** A report's path for the account shown (`scopedToAccount`). */
  scoped(path: string): string;
}

export const AccountScopeContext = createContext<AccountScopeState>({
  accounts: [],
  account: null,
  choose: () => undefined,
  refresh: () => undefined,
  scoped: (path) => path,
});

function remembered(): string | null {
  try {
    return window.localStorage.getItem(ACCOUNT_STORAGE_KEY);
  } catch {
    return null; // storage refused (a private window's policy): all accounts
  }
}

function remember(account: string | null): void {
  try {
    if (account === null) window.localStorage.removeItem(ACCOUNT_STORAGE_KEY);
    else window.localStorage.setItem(ACCOUNT_STORAGE_KEY, account);
  } catch {
    // not remembered: the choice lasts until the page is left
  }
}

/**
 * Which account the report pages show. A choice is remembered in this browser (so the first requests
 * of a visit already carry it); once the accounts have loaded, a choice that names none of them, or
 * a user with a single account, shows all accounts.
 */
export function AccountScopeProvider({ children }: { children: ReactNode }) {
  const { profile } = useProfile();
  const [accounts, setAccounts] = useState<readonly Account[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(remembered);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (profile === null) return;
    const controller = new AbortController();
    getJson<{ accounts: Account[] }>('/api/accounts', controller.signal).then(
      (body) => setAccounts(body.accounts),
      () => {
        if (!controller.signal.aborted) setAccounts([]);
      },
    );
    return () => controller.abort();
  }, [profile, generation]);

  // Until the accounts have loaded, the remembered choice stands; then it must name one of several
  // (with one account there is no choice to show, so none is applied unseen).
  const account =
    chosen !== null && (accounts === null || (accounts.length > 1 && accounts.some((each) => each.account_number === chosen))) ? chosen : null;
  const choose = useCallback((next: string | null) => {
    remember(next);
    setChosen(next);
  }, []);
  const refresh = useCallback(() => setGeneration((value) => value + 1), []);
  const value = useMemo(
    () => ({ accounts: accounts ?? [], account, choose, refresh, scoped: (path: string) => scopedToAccount(path, account) }),
    [accounts, account, choose, refresh],
  );
  return <AccountScopeContext.Provider value={value}>{children}</AccountScopeContext.Provider>;
}

export function useAccountScope(): AccountScopeState {
  return useContext(AccountScopeContext);
}

/** The top bar's choice of account, for a user with more than one; nothing for the others. */
export function AccountPicker() {
  const { accounts, account, choose } = useAccountScope();
  if (accounts.length < 2) return null;
  return (
    <div className="account-picker">
      <label htmlFor="report-account" className="account-picker-label">
        Account
      </label>
      <select id="report-account" value={account ?? ''} onChange={(event) => choose(event.target.value === '' ? null : event.target.value)}>
        <option value="">All accounts</option>
        {accounts.map((each) => (
          <option key={each.account_id} value={each.account_number}>
            {each.default ? `${each.account_number} (default)` : each.account_number}
          </option>
        ))}
      </select>
    </div>
  );
}
