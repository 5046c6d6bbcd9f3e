import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { getJson, sendJson } from './api/client';
import type { Profile } from './api/types';

interface ProfileState {
  profile: Profile | null;
  error: Error | null;
  saveAccount(account: string): Promise<Profile>;
}

export const ProfileContext = createContext<ProfileState>({
  profile: null,
  error: null,
  saveAccount: () => Promise.reject(new Error('no profile provider')),
});

/** Who is signed in (GET /auth/profile, which also sends a signed-out browser to the login page). */
export function ProfileProvider({ children }: { children: ReactNode }) {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    getJson<{ profile: Profile }>('/auth/profile').then(
      (body) => setProfile(body.profile),
      (failure: unknown) => setError(failure instanceof Error ? failure : new Error(String(failure))),
    );
  }, []);

  const saveAccount = useCallback(async (account: string) => {
    const body = await sendJson<{ profile: Profile }>('PUT', '/auth/profile', { brokerage_account: account });
    setProfile(body.profile);
    return body.profile;
  }, []);

  return <ProfileContext.Provider value={{ profile, error, saveAccount }}>{children}</ProfileContext.Provider>;
}

export function useProfile(): ProfileState {
  return useContext(ProfileContext);
}
