import { InMemorySessions } from '../../testing/in-memory-sessions.js';
import { InMemoryUsers } from '../../testing/in-memory-users.js';
import { ProcessCachedSessions } from './process-cached-sessions.js';

/** Counts the reads that reach the store behind the copy. */
class CountingSessions extends InMemorySessions {
  reads = 0;

  override findWithUser(id: string) {
    this.reads += 1;
    return super.findWithUser(id);
  }
}

describe('ProcessCachedSessions', () => {
  const at = (iso: string) => new Date(iso);
  let stored: CountingSessions;
  let sessions: ProcessCachedSessions;

  beforeEach(async () => {
    const users = new InMemoryUsers();
    await users.recordSignIn({ email: 'trader@example.com', name: 'Trader' }, at('2026-01-01T00:00:00Z'));
    stored = new CountingSessions(users);
    sessions = new ProcessCachedSessions(stored);
    await sessions.create({ id: 'h1', userId: 1, createdAt: at('2026-01-01T00:00:00Z'), lastSeenAt: at('2026-01-01T00:00:00Z'), expiresAt: at('2026-01-01T02:00:00Z') });
  });

  it('reads a session from the store once, then from the copy', async () => {
    const first = await sessions.findWithUser('h1');
    const second = await sessions.findWithUser('h1');
    expect(first?.user.email).toBe('trader@example.com');
    expect(second).toEqual(first);
    expect(stored.reads).toBe(1);
  });

  it('keeps the copy in step with touches', async () => {
    await sessions.findWithUser('h1');
    await sessions.touch('h1', at('2026-01-01T01:00:00Z'), at('2026-01-01T03:00:00Z'));
    expect((await sessions.findWithUser('h1'))?.expiresAt).toEqual(at('2026-01-01T03:00:00Z'));
    expect(stored.rows.get('h1')?.expiresAt).toEqual(at('2026-01-01T03:00:00Z'));
  });

  it('forgets a deleted session at once (logout)', async () => {
    await sessions.findWithUser('h1');
    await sessions.delete('h1');
    expect(await sessions.findWithUser('h1')).toBeNull();
    expect(stored.reads).toBe(2);
  });

  it('forgets expired sessions when they are swept', async () => {
    await sessions.findWithUser('h1');
    expect(await sessions.deleteExpired(at('2026-01-01T02:00:00Z'))).toBe(1);
    expect(await sessions.findWithUser('h1')).toBeNull();
  });

  it('does not remember unknown tokens', async () => {
    expect(await sessions.findWithUser('nope')).toBeNull();
    expect(await sessions.findWithUser('nope')).toBeNull();
    expect(stored.reads).toBe(2);
  });

  it('hands out copies: changing a returned session does not change the cache', async () => {
    const first = await sessions.findWithUser('h1');
    first!.expiresAt = at('2030-01-01T00:00:00Z');
    expect((await sessions.findWithUser('h1'))?.expiresAt).toEqual(at('2026-01-01T02:00:00Z'));
  });
});
