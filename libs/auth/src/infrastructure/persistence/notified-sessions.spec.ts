import type { ChannelSubscriber, NotificationSource } from '@app/persistence';
import { InMemorySessions } from '../../testing/in-memory-sessions.js';
import { InMemoryUsers } from '../../testing/in-memory-users.js';
import { NotifiedSessions, SESSION_CHANGES, USER_CHANGES } from './notified-sessions.js';

class CountingSessions extends InMemorySessions {
  reads = 0;

  override findWithUser(id: string) {
    this.reads += 1;
    return super.findWithUser(id);
  }
}

class FakeNotifications implements NotificationSource {
  isListening = true;
  readonly subscribers = new Map<string, ChannelSubscriber[]>();

  subscribe(channel: string, subscriber: ChannelSubscriber): () => void {
    this.subscribers.set(channel, [...(this.subscribers.get(channel) ?? []), subscriber]);
    return () => undefined;
  }

  notify(channel: string, payload: string): void {
    for (const subscriber of this.subscribers.get(channel) ?? []) subscriber.notified(payload);
  }
}

describe('NotifiedSessions', () => {
  const at = (iso: string) => new Date(iso);
  let users: InMemoryUsers;
  let stored: CountingSessions;
  let notifications: FakeNotifications;
  let sessions: NotifiedSessions;

  beforeEach(async () => {
    users = new InMemoryUsers();
    await users.recordSignIn({ email: 'trader@example.com', name: 'Trader' }, at('2026-01-01T00:00:00Z'));
    stored = new CountingSessions(users);
    notifications = new FakeNotifications();
    sessions = new NotifiedSessions(stored, notifications);
    await sessions.create({ id: 'h1', userId: 1, createdAt: at('2026-01-01T00:00:00Z'), lastSeenAt: at('2026-01-01T00:00:00Z'), expiresAt: at('2026-01-01T02:00:00Z') });
  });

  it('reads a session once, then from the copy', async () => {
    const first = await sessions.findWithUser('h1');
    expect(await sessions.findWithUser('h1')).toEqual(first);
    expect(stored.reads).toBe(1);
  });

  it('forgets a session another instance changed (its row was notified)', async () => {
    await sessions.findWithUser('h1');
    await stored.delete('h1');
    notifications.notify(SESSION_CHANGES, 'h1');
    expect(await sessions.findWithUser('h1')).toBeNull();
  });

  it('forgets the sessions of a user whose address or name changed', async () => {
    await sessions.findWithUser('h1');
    notifications.notify(USER_CHANGES, '2');
    await sessions.findWithUser('h1');
    expect(stored.reads).toBe(1);
    notifications.notify(USER_CHANGES, '1');
    await sessions.findWithUser('h1');
    expect(stored.reads).toBe(2);
  });

  it('reads the touched session again, and a deleted one is gone at once on this instance', async () => {
    await sessions.findWithUser('h1');
    await sessions.touch('h1', at('2026-01-01T01:00:00Z'), at('2026-01-01T03:00:00Z'));
    expect((await sessions.findWithUser('h1'))?.expiresAt).toEqual(at('2026-01-01T03:00:00Z'));
    await sessions.delete('h1');
    expect(await sessions.findWithUser('h1')).toBeNull();
  });

  it('reads the database on every request while notifications are down', async () => {
    notifications.isListening = false;
    await sessions.findWithUser('h1');
    await sessions.findWithUser('h1');
    expect(stored.reads).toBe(2);
  });

  it('hands out copies: changing a returned session does not change the cache', async () => {
    const first = await sessions.findWithUser('h1');
    first!.expiresAt = at('2030-01-01T00:00:00Z');
    first!.user.email = 'someone@else.example';
    const second = await sessions.findWithUser('h1');
    expect(second?.expiresAt).toEqual(at('2026-01-01T02:00:00Z'));
    expect(second?.user.email).toBe('trader@example.com');
  });
});
